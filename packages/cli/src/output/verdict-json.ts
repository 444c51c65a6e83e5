import type { DeniedReason, RobotsDeniedError } from '@polite-crawler/fetch';
import type {
  ContentUsageReason,
  ContentUsageVerdict,
  GroupSelection,
  MatchedRule,
  UsageCategory,
  UsagePreferences,
  UsageRule,
  UsageSource,
  VerdictReason,
} from '@polite-crawler/robots-txt';
import type { RobotsTxtInfo } from '../robots-source.js';
import type { UrlAnswer } from '../url-answer.js';
import { answerReason } from '../url-answer.js';

/**
 * Why a URL is allowed or not, as the CLI reports it: the robots.txt verdict's reason
 * (`rule`, `no-matching-rule`, `no-applicable-group`, `robots-txt-path`, `match-budget`), or
 * one of the two cases where no rules were read: `unavailable` (4xx: everything is allowed) and
 * `unreachable` (5xx, network: everything is disallowed).
 */
export type UrlVerdictReason = VerdictReason | 'unavailable' | 'unreachable';

/** A robots.txt line, by number and text (as the parser read it: see `MatchedRule.text`). */
export type SourceLine = Pick<MatchedRule, 'line' | 'text'>;

/** The deciding rule, with its source line: the library's `MatchedRule`, as printed. */
export type RuleInfo = Pick<MatchedRule, 'kind' | 'pattern' | 'line' | 'text'>;

/** A robots.txt `Content-Usage` / `Content-Signal` rule that set a usage preference, with its line's text. */
export type UsageRuleInfo = Pick<UsageRule, 'kind' | 'pattern' | 'value' | 'line' | 'text'>;

/**
 * The robots.txt usage preferences (IETF AIPREF) for the URL and this agent (robots-txt's
 * `ContentUsageVerdict`): the three categories, the reason, and the lines that set each.
 */
export type UsageInfo = Pick<UsagePreferences, UsageCategory> & {
  readonly reason: ContentUsageReason;
  /** Per category, the lines whose statement is the result (empty when `unknown`). */
  readonly lines: Readonly<Record<UsageCategory, readonly number[]>>;
  /** The deciding rules (every matching rule with the longest path). */
  readonly rules: readonly UsageRuleInfo[];
  /** Labels outside the vocabulary, raw. */
  readonly extensions: readonly {
    readonly label: string;
    readonly value: string;
    readonly line: number | null;
  }[];
};

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

/**
 * The JSON form of an answer (`check --json`'s results, `explain --json`), every line quoted
 * with the text the verdict carries.
 */
export function verdictJson(answer: UrlAnswer): UrlVerdict {
  const { verdict, contentUsage } = answer;
  return {
    url: answer.url,
    allowed: answer.allowed,
    reason: answerReason(answer),
    selection: verdict?.selection ?? null,
    groups:
      verdict?.groupLines.map((line, i) => ({ line, text: verdict.groupLineTexts[i]! })) ?? [],
    groupCount: verdict?.groups.length ?? 0,
    rule: ruleInfo(verdict?.rule),
    path: verdict?.path ?? null,
    stale: answer.stale,
    crawlDelay: answer.crawlDelay ?? null,
    usage: verdict === undefined || contentUsage === undefined ? null : usageInfo(contentUsage),
    robotsTxt: answer.robotsTxt,
  };
}

/** Why robots.txt refused a URL (`fetch --json` and `crawl --json`: `denied`). */
export interface DeniedInfo {
  /** The library's `DeniedReason`: a rule, robots.txt unreachable, or a refused redirect target. */
  readonly reason: DeniedReason;
  /** The refused URL (for `redirect-disallowed`, the redirect target: it was never requested). */
  readonly url: string;
  /** The deciding rule, with its line and text, when a rule decided. */
  readonly rule: RuleInfo | null;
  /** The robots.txt that refused it. */
  readonly robotsTxt: string;
  /** For `unreachable`: why robots.txt could not be read, e.g. `HTTP 503` or `connection refused`. */
  readonly unreachable: string | null;
}

/**
 * The {@link DeniedInfo} (JSON) for a refused request; the deciding rule's line and text
 * come with the error.
 *
 * @example
 * ```ts
 * deniedInfo(error).rule?.text; // 'Disallow: /private/'
 * ```
 */
export function deniedInfo(error: RobotsDeniedError): DeniedInfo {
  return {
    reason: error.reason,
    url: error.url,
    rule: ruleInfo(error.rule),
    robotsTxt: `${error.origin}/robots.txt`,
    unreachable: null,
  };
}

const ruleInfo = (rule: MatchedRule | undefined): RuleInfo | null =>
  rule === undefined
    ? null
    : { kind: rule.kind, pattern: rule.pattern, line: rule.line, text: rule.text };

const lineOf = (source: UsageSource): number | null => ('line' in source ? source.line : null);

function usageInfo(verdict: ContentUsageVerdict): UsageInfo {
  const { preferences } = verdict;
  const lines = (category: UsageCategory): number[] =>
    preferences.sources[category].map(lineOf).filter((line): line is number => line !== null);
  return {
    'train-ai': preferences['train-ai'],
    'ai-use': preferences['ai-use'],
    search: preferences.search,
    reason: verdict.reason,
    lines: { 'train-ai': lines('train-ai'), 'ai-use': lines('ai-use'), search: lines('search') },
    rules: verdict.rules.map((rule) => ({
      kind: rule.kind,
      pattern: rule.pattern,
      value: rule.value,
      line: rule.line,
      text: rule.text,
    })),
    extensions: preferences.extensions.map((extension) => ({
      label: extension.label,
      value: extension.value,
      line: lineOf(extension.source),
    })),
  };
}
