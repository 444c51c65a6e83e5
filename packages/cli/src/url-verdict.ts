import type { GroupSelection } from '@polite-crawler/robots-txt';
import type { RobotsTxtInfo } from './robots-source.js';

/**
 * Why a URL is allowed or not, as the CLI reports it: the robots.txt verdict reasons, plus
 * the two cases where no rules were read at all.
 * - `rule`: a rule matched and decided (see `rule`).
 * - `no-matching-rule`: groups applied but no rule matched: allowed.
 * - `no-applicable-group`: no group for this agent, nor a `*` group: allowed.
 * - `robots-txt-path`: `/robots.txt` itself is always allowed.
 * - `unavailable`: robots.txt is unavailable (4xx): everything is allowed.
 * - `unreachable`: robots.txt could not be fetched (5xx, network): everything is disallowed.
 */
export type UrlVerdictReason =
  | 'rule'
  | 'no-matching-rule'
  | 'no-applicable-group'
  | 'robots-txt-path'
  | 'unavailable'
  | 'unreachable';

/** A robots.txt line, by number and text. */
export interface SourceLine {
  /** 1-based line number in robots.txt. */
  readonly line: number;
  /** The line as written (trimmed), or null when the text is not available. */
  readonly text: string | null;
}

/** The deciding rule, with its source line. */
export interface RuleInfo extends SourceLine {
  readonly kind: 'allow' | 'disallow';
  /** The pattern as written. */
  readonly pattern: string;
}

/**
 * The answer for one URL, with everything needed to explain it. JSON-serialisable: this is
 * an element of `check --json`'s `results` and the body of `explain --json`.
 */
export interface UrlVerdict {
  readonly url: string;
  readonly allowed: boolean;
  readonly reason: UrlVerdictReason;
  /** How the group was chosen; null when no rules were read (`unavailable`, `unreachable`). */
  readonly selection: GroupSelection | null;
  /** The `user-agent` / `user-agent-purpose` lines that start the chosen groups. */
  readonly groups: readonly SourceLine[];
  /**
   * How many groups were chosen and merged: a group may start with several `user-agent` lines,
   * so this is not `groups.length`.
   */
  readonly groupCount: number;
  /** The deciding rule, when `reason` is `rule`. */
  readonly rule: RuleInfo | null;
  /** The normalised path + query that was matched, when rules were read. */
  readonly path: string | null;
  /** True when robots.txt is unreachable now and an older copy is in force. */
  readonly stale: boolean;
  /** Crawl-delay in seconds for this agent, when robots.txt sets one. */
  readonly crawlDelay: number | null;
  readonly robotsTxt: RobotsTxtInfo;
}
