/**
 * The `Content-Usage` rules of robots.txt (draft-ietf-aipref-attach-05 §3) and Cloudflare's
 * `Content-Signal` lines, read as one more statement of preference for a path. They are rules
 * of their group like Allow/Disallow: the scanner packs their paths with the other rules and
 * keeps each value as written; an agent's selected rules hold them apart from its Allow/Disallow
 * rules (`parsed-robots-txt.ts`). This module reads a rule's statement, answers per URL from
 * the Allow/Disallow verdict (its chosen groups, its normalised path, whether the path may be
 * crawled), and lints the rules.
 */
import type {
  ContentUsageVerdict,
  UsagePreferences,
  UsageRule,
  UsageSource,
} from './content-usage-types.js';
import { RuleMatcher } from './rule-matcher.js';
import type { DiagnosticCode, MatchedRule, Verdict } from './types.js';
import {
  CONTENT_SIGNAL_SYNTAX,
  CONTENT_USAGE_SYNTAX,
  UNKNOWN_USAGE,
  combineUsage,
  disallowEverything,
  processStatement,
  type ProcessedStatement,
} from './usage-statement.js';

/** A usage rule read: the public rule, its source, and how its statement processed. */
export interface ReadUsageRule {
  readonly rule: UsageRule;
  readonly source: UsageSource;
  readonly statement: ProcessedStatement;
}

/** The usage rules of an agent's groups, in file order, and their matcher. */
export interface UsageSelection {
  readonly rules: readonly ReadUsageRule[];
  readonly matcher: RuleMatcher;
}

function isSpaceOrTab(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * Length of the path of a rule value (attach §3.2): a value starting with '/' has a path that
 * ends before the first SP or HTAB; any other value has an absent (empty) path.
 */
export function usagePathLength(value: string): number {
  if (value.charCodeAt(0) !== 47) return 0;
  let end = 1;
  while (end < value.length && !isSpaceOrTab(value.charCodeAt(end))) end++;
  return end;
}

/**
 * Reads one rule: `value` as written (after the ':' and whitespace, before a '#', trimmed),
 * `pattern` its path as written and `normalizedPattern` that path as the matcher sees it. The
 * statement is what follows the path and the whole SP/HTAB run after it.
 */
export function readUsageRule(
  signal: boolean,
  line: number,
  value: string,
  pattern: string,
  normalizedPattern: string,
): ReadUsageRule {
  let start = usagePathLength(value);
  while (start < value.length && isSpaceOrTab(value.charCodeAt(start))) start++;
  const statement = value.slice(start);
  const rule: UsageRule = Object.freeze({
    kind: signal ? 'content-signal' : 'content-usage',
    pattern,
    normalizedPattern,
    value: statement,
    line,
    text: `${signal ? 'Content-Signal' : 'Content-Usage'}: ${value}`,
  });
  const source: UsageSource = Object.freeze({
    kind: signal ? 'content-signal-rule' : 'content-usage-rule',
    line,
    pattern,
    text: rule.text,
  });
  const syntax = signal ? CONTENT_SIGNAL_SYNTAX : CONTENT_USAGE_SYNTAX;
  return { rule, source, statement: processStatement(statement, syntax, source) };
}

/**
 * The rules of an agent's groups in one matcher, ranked by specificity: the normalised path's
 * length in octets (percent escapes, `*` and a final `$` included; an absent path is 0).
 */
export function selectUsageRules(rules: readonly ReadUsageRule[]): UsageSelection {
  const matcher = new RuleMatcher(
    rules.map(({ rule }) => ({
      pattern: rule.normalizedPattern,
      rank: rule.normalizedPattern.length,
      failClosed: true,
    })),
  );
  return { rules, matcher };
}

/**
 * The preferences for the path of `crawl`, the Allow/Disallow verdict for the same URL and
 * agent: nothing for a path the groups disallow (attach §3.1); else every rule of the chosen
 * groups whose path matches with the most octets, combined most-restrictively (attach §3.1:
 * identical paths "apply separately"; equally long different paths too). `selected`: the
 * usage rules of the verdict's groups (none: `undefined`).
 */
export function usageVerdict(
  crawl: Verdict,
  selected: UsageSelection | undefined,
): ContentUsageVerdict {
  const base = {
    selection: crawl.selection,
    groups: crawl.groups,
    groupLines: crawl.groupLines,
    path: crawl.path,
    crawlAllowed: crawl.allowed,
  };
  if (crawl.selection === 'none')
    return freezeVerdict(UNKNOWN_USAGE, 'no-applicable-group', base, []);
  if (!crawl.allowed) return freezeVerdict(UNKNOWN_USAGE, 'path-disallowed', base, []);
  const deciding =
    selected === undefined ? [] : selected.matcher.all(crawl.path).map((i) => selected.rules[i]!);
  if (deciding.length === 0) return freezeVerdict(UNKNOWN_USAGE, 'no-matching-rule', base, []);
  // Past the match budget, rules that may not match were counted: fail closed.
  const preferences = selected!.matcher.undecided
    ? disallowEverything(deciding.map((r) => r.source))
    : combineUsage(...deciding.map((r) => r.statement.preferences));
  return freezeVerdict(preferences, 'rule', base, deciding);
}

/**
 * A group's Allow/Disallow rules, in file order, and the matcher a crawl verdict uses for them
 * (its indices are those of `rules`): for the usage lint.
 */
export interface GroupMatcher {
  readonly rules: readonly MatchedRule[];
  readonly matcher: RuleMatcher;
}

/**
 * Lint of one usage rule: a value that does not parse, vocabulary labels with values that mean
 * nothing, a path with no statement, and a path its own group disallows (the rule can never
 * apply). `group`: the Allow/Disallow rules of the rule's group.
 */
export function lintUsageRule(
  { rule, statement }: ReadUsageRule,
  group: GroupMatcher,
  report: (line: number, code: DiagnosticCode, detail: string) => void,
): void {
  const { line } = rule;
  if (statement.invalid) report(line, 'invalid-usage-value', rule.value);
  else if (statement.unknownValues.length > 0)
    report(line, 'unknown-usage-value', statement.unknownValues.join(', '));
  // No statement: a path and nothing after it, or an empty value.
  if (rule.value === '') report(line, 'empty-usage-statement', rule.pattern);
  const blocking = disallowedEverywhere(rule.normalizedPattern, group);
  if (blocking !== undefined)
    report(
      line,
      'usage-path-disallowed',
      // The line goes last and whole: the detail is cut at 60 characters.
      `${shorten(rule.pattern === '' ? '(every path)' : rule.pattern)} ${blocking.line}`,
    );
}

function shorten(text: string): string {
  return text.length > 40 ? text.slice(0, 40) + '…' : text;
}

function freezeVerdict(
  preferences: UsagePreferences,
  reason: ContentUsageVerdict['reason'],
  base: Pick<ContentUsageVerdict, 'selection' | 'groups' | 'groupLines' | 'path' | 'crawlAllowed'>,
  deciding: readonly ReadUsageRule[],
): ContentUsageVerdict {
  return Object.freeze({
    preferences,
    reason,
    ...base,
    rules: Object.freeze(deciding.map((r) => r.rule)),
  });
}

/** The literal start of a pattern: up to its first `*`, or its body when it has none. */
function literalPrefix(pattern: string): string {
  const star = pattern.indexOf('*');
  if (star >= 0) return pattern.slice(0, star);
  return pattern.endsWith('$') ? pattern.slice(0, -1) : pattern;
}

/**
 * The Disallow rule that blocks every path a usage rule's (normalised) pattern could match,
 * or `undefined` when some such path may be crawlable or it cannot tell. Sound, not
 * complete: it never blames a rule that can apply, and gives up on patterns with `*`.
 *
 * The pattern's literal path is decided as the matcher would (longest match; allow wins a
 * tie). Disallowed, and the pattern ends in `$`: only that path is covered. Otherwise the
 * deciding Disallow (without `$`) matches every longer path too, and only an Allow at least
 * as long that could match a longer path could re-allow one.
 */
function disallowedEverywhere(
  pattern: string,
  { rules, matcher }: GroupMatcher,
): MatchedRule | undefined {
  const written = pattern === '' ? '/' : pattern; // every path starts with '/'
  if (written.includes('*')) return undefined;
  const anchored = written.endsWith('$');
  const literal = anchored ? written.slice(0, -1) : written;
  // (`/robots.txt` itself is always crawlable; a usage rule for it alone is not blamed, and
  // one for a prefix of it is judged by the other paths it covers.)
  if (literal.startsWith('/robots.txt')) return undefined;
  const i = matcher.first(literal);
  const best = i < 0 || matcher.undecided ? undefined : rules[i]!;
  if (best === undefined || best.kind === 'allow') return undefined;
  if (anchored) return best;
  if (best.normalizedPattern.endsWith('$')) return undefined;
  const length = best.normalizedPattern.length;
  for (const rule of rules) {
    if (rule.kind !== 'allow' || rule.normalizedPattern.length < length) continue;
    const prefix = literalPrefix(rule.normalizedPattern);
    if (prefix.startsWith(literal)) return undefined;
    if (literal.startsWith(prefix) && rule.normalizedPattern.includes('*')) return undefined;
  }
  return best;
}
