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

/** A robots.txt `Content-Usage` / `Content-Signal` rule that set a usage preference. */
export interface UsageRuleInfo extends SourceLine {
  readonly kind: 'content-usage' | 'content-signal';
  /** The path pattern as written; `''` when the rule has none (it matches every path). */
  readonly pattern: string;
  /** The statement of preference as written. */
  readonly value: string;
}

/**
 * The robots.txt usage preferences (IETF AIPREF) for the URL and this agent, and the lines
 * that set each.
 */
export interface UsageInfo {
  readonly 'train-ai': 'allowed' | 'disallowed' | 'unknown';
  readonly 'ai-use': 'allowed' | 'disallowed' | 'unknown';
  readonly search: 'allowed' | 'disallowed' | 'unknown';
  /**
   * `rule` (rules set them), `no-matching-rule`, `path-disallowed` (the groups disallow the
   * path: no preferences apply) or `no-applicable-group`.
   */
  readonly reason: 'rule' | 'no-matching-rule' | 'path-disallowed' | 'no-applicable-group';
  /** Per category, the lines whose statement is the result (empty when `unknown`). */
  readonly lines: {
    readonly 'train-ai': readonly number[];
    readonly 'ai-use': readonly number[];
    readonly search: readonly number[];
  };
  /** The deciding rules (every matching rule with the longest path). */
  readonly rules: readonly UsageRuleInfo[];
  /** Labels outside the vocabulary, raw. */
  readonly extensions: readonly {
    readonly label: string;
    readonly value: string;
    readonly line: number | null;
  }[];
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
  /** The robots.txt usage preferences for the URL; null when no rules were read. */
  readonly usage: UsageInfo | null;
  readonly robotsTxt: RobotsTxtInfo;
}
