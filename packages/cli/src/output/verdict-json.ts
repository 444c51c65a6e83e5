import type { Decision } from '@polite-crawler/fetch';
import type {
  ContentUsageVerdict,
  GroupSelection,
  UsageCategory,
  UsageRule,
  UsageSource,
} from '@polite-crawler/robots-txt';
import type { RobotsTxtInfo } from '../robots-source.js';

/**
 * Why a URL is allowed or not, as the CLI reports it: the robots.txt verdict reasons, plus
 * the two cases where no rules were read at all.
 * - `rule`: a rule matched and decided (see `rule`).
 * - `no-matching-rule`: groups applied but no rule matched: allowed.
 * - `no-applicable-group`: no group for this agent, nor a `*` group: allowed.
 * - `robots-txt-path`: `/robots.txt` itself is always allowed.
 * - `match-budget`: a disallow the matcher's budget could not rule out counted as matching
 *   (a file written to be slow; see the robots-txt README): disallowed, failing closed.
 * - `unavailable`: robots.txt is unavailable (4xx): everything is allowed.
 * - `unreachable`: robots.txt could not be fetched (5xx, network): everything is disallowed.
 */
export type UrlVerdictReason =
  | 'rule'
  | 'no-matching-rule'
  | 'no-applicable-group'
  | 'robots-txt-path'
  | 'match-budget'
  | 'unavailable'
  | 'unreachable';

/** A robots.txt line, by number and text. */
export interface SourceLine {
  /** 1-based line number in robots.txt. */
  readonly line: number;
  /**
   * The line as the parser read it (the key in its standard spelling, the value as written,
   * any comment dropped), or null when the text is not available.
   */
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

/**
 * The library's answer for one URL, and where its robots.txt came from: a fetch `Decision`
 * (or the same fields from a robots-txt `Verdict` read from a file), and robots-txt's
 * `ContentUsageVerdict`.
 */
export interface UrlAnswer {
  readonly decision: Pick<Decision, 'url' | 'allowed' | 'reason' | 'verdict' | 'stale'>;
  readonly contentUsage: ContentUsageVerdict | undefined;
  /** Crawl-delay in seconds for this agent. */
  readonly crawlDelay: number | undefined;
  readonly robotsTxt: RobotsTxtInfo;
}

/**
 * The JSON form of an answer (`check --json`'s results, `explain --json`), every line quoted
 * with the text the verdict carries.
 *
 * @example
 * ```ts
 * verdictJson({ decision: await policy.explain(url), contentUsage: undefined, crawlDelay: undefined, robotsTxt }).rule?.text;
 * ```
 */
export function verdictJson(answer: UrlAnswer): UrlVerdict {
  const { decision, contentUsage } = answer;
  const verdict = decision.verdict;
  const rule = verdict?.rule;
  return {
    url: decision.url,
    allowed: decision.allowed,
    reason: verdict?.reason ?? (decision.reason === 'unavailable' ? 'unavailable' : 'unreachable'),
    selection: verdict?.selection ?? null,
    groups:
      verdict?.groupLines.map((line, i) => ({ line, text: verdict.groupLineTexts[i] ?? null })) ??
      [],
    groupCount: verdict?.groups.length ?? 0,
    rule:
      rule === undefined
        ? null
        : { kind: rule.kind, pattern: rule.pattern, line: rule.line, text: rule.text },
    path: verdict?.path ?? null,
    stale: decision.stale,
    crawlDelay: answer.crawlDelay ?? null,
    usage: verdict === undefined || contentUsage === undefined ? null : usageInfo(contentUsage),
    robotsTxt: answer.robotsTxt,
  };
}

/**
 * A `Content-Usage` / `Content-Signal` rule as read, e.g. `Content-Usage: /open/ train-ai=y`.
 *
 * @example
 * ```ts
 * usageRuleText({ kind: 'content-usage', pattern: '', value: 'train-ai=n', … }); // 'Content-Usage: train-ai=n'
 * ```
 */
export function usageRuleText(rule: Pick<UsageRule, 'kind' | 'pattern' | 'value'>): string {
  const key = rule.kind === 'content-usage' ? 'Content-Usage' : 'Content-Signal';
  return `${key}: ${rule.pattern === '' ? '' : `${rule.pattern} `}${rule.value}`;
}

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
      text: usageRuleText(rule),
    })),
    extensions: preferences.extensions.map((extension) => ({
      label: extension.label,
      value: extension.value,
      line: lineOf(extension.source),
    })),
  };
}
