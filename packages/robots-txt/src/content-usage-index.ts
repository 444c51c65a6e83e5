/**
 * The `Content-Usage` rules of robots.txt (draft-ietf-aipref-attach-05 §3) and Cloudflare's
 * `Content-Signal` lines, read as one more statement of preference for a path. The scanner
 * only records each rule as written (see `UsageRuleRecord`); this module reads them when
 * preferences are first asked for, and answers per URL from the Allow/Disallow verdict:
 * its chosen groups, its normalised path, and whether the path may be crawled.
 */
import type {
  ContentUsageVerdict,
  UsagePreferences,
  UsageRule,
  UsageSource,
} from './content-usage-types.js';
import { BoundedMap } from './bounded-map.js';
import { RuleMatcher } from './rule-matcher.js';
import { normalizeRange } from './percent-encoding.js';
import type { DiagnosticCode, MatchedRule, Verdict } from './types.js';
import {
  CONTENT_SIGNAL_SYNTAX,
  CONTENT_USAGE_SYNTAX,
  UNKNOWN_USAGE,
  combinePreferences,
  disallowEverything,
  processStatement,
  type ProcessedStatement,
} from './usage-statement.js';

/** One `Content-Usage` / `Content-Signal` line as the scanner saw it. */
export interface UsageRuleRecord {
  /** Index of its group in the file. */
  readonly group: number;
  /** Line of the group's first user-agent line: how a verdict's `groups` names the group. */
  readonly groupLine: number;
  readonly line: number;
  readonly signal: boolean;
  /** The rule value: after the ':' and whitespace, before a '#', trailing whitespace trimmed. */
  readonly value: string;
}

/** What the scanner hands over. */
export interface UsageScan {
  readonly rules: readonly UsageRuleRecord[];
  /** The text holds raw bytes (see `normalizeRange`). */
  readonly latin1: boolean;
  /** Diagnostics the scanner left room for under `maxDiagnostics`. */
  readonly diagnosticBudget: number;
}

/** A rule read: its path, its statement, and how the statement processed. */
interface ReadRule {
  readonly record: UsageRuleRecord;
  readonly rule: UsageRule;
  readonly source: UsageSource;
  readonly statement: ProcessedStatement;
  /** No statement: a path and nothing after it, or an empty value. */
  readonly empty: boolean;
}

/** The rules of a set of chosen groups, in file order, and their matcher. */
interface Selection {
  readonly rules: readonly ReadRule[];
  readonly matcher: RuleMatcher;
}

/** One diagnostic found in the usage rules (materialised by the parsed file). */
export interface UsageDiagnostic {
  readonly line: number;
  readonly code: DiagnosticCode;
  readonly detail: string;
}

/** Agents' rule lists kept, by selected groups (the same bound as the matcher's default). */
const MAX_SELECTIONS = 16;

function isSpaceOrTab(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * Splits a rule value (attach §3.2): a value starting with '/' has a path that ends before
 * the first SP or HTAB; the whole SP/HTAB run after it is removed; the rest is the
 * statement. Any other value is all statement, with an absent (empty) path.
 */
export function splitUsageValue(value: string): { path: string; statement: string } {
  if (value.charCodeAt(0) !== 47) return { path: '', statement: value };
  let end = 1;
  while (end < value.length && !isSpaceOrTab(value.charCodeAt(end))) end++;
  let start = end;
  while (start < value.length && isSpaceOrTab(value.charCodeAt(start))) start++;
  return { path: value.slice(0, end), statement: value.slice(start) };
}

function readRule(record: UsageRuleRecord, latin1: boolean): ReadRule {
  const { path, statement } = splitUsageValue(record.value);
  const normalizedPattern = path === '' ? '' : normalizeRange(path, 0, path.length, false, latin1);
  const kind = record.signal ? 'content-signal' : 'content-usage';
  const rule: UsageRule = Object.freeze({
    kind,
    pattern: path,
    normalizedPattern,
    value: statement,
    line: record.line,
  });
  const source: UsageSource = Object.freeze({
    kind: record.signal ? 'content-signal-rule' : 'content-usage-rule',
    line: record.line,
    pattern: path,
  });
  const processed = processStatement(
    statement,
    record.signal ? CONTENT_SIGNAL_SYNTAX : CONTENT_USAGE_SYNTAX,
    source,
  );
  return { record, rule, source, statement: processed, empty: statement === '' };
}

/**
 * The usage rules of one parsed file, read on first use. Per set of selected groups, one
 * `RuleMatcher` ranks them by specificity: the normalised path's length in octets (percent
 * escapes, `*` and a final `$` included; an absent path is 0).
 */
export class ContentUsageIndex {
  readonly #rules: readonly ReadRule[];
  readonly #selections = new BoundedMap<string, Selection>(MAX_SELECTIONS);

  constructor(scan: UsageScan) {
    this.#rules = scan.rules.map((r) => readRule(r, scan.latin1));
  }

  /** The verdict for a file without usage rules. */
  static none(crawl: Verdict): ContentUsageVerdict {
    return EMPTY.verdict(crawl);
  }

  /**
   * The preferences for the path of `crawl`, the Allow/Disallow verdict for the same URL and
   * agent: nothing for a path the groups disallow (attach §3.1); else every rule of the
   * chosen groups whose path matches with the most octets, combined most-restrictively
   * (attach §3.1: identical paths "apply separately"; equally long different paths too).
   */
  verdict(crawl: Verdict): ContentUsageVerdict {
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
    const { rules, matcher } = this.#select(crawl.groups);
    const deciding = matcher.all(crawl.path).map((i) => rules[i]!);
    if (deciding.length === 0) return freezeVerdict(UNKNOWN_USAGE, 'no-matching-rule', base, []);
    // Past the match budget, rules that may not match were counted: fail closed.
    const preferences = matcher.undecided
      ? disallowEverything(deciding.map((r) => r.source))
      : combinePreferences(deciding.map((r) => r.statement.preferences));
    return freezeVerdict(preferences, 'rule', base, deciding);
  }

  /** `groups`: the verdict's chosen groups; a group is named by its first user-agent line. */
  #select(groups: readonly (readonly number[])[]): Selection {
    const firstLines = groups.map((lines) => lines[0]!);
    return this.#selections.getOrAdd(firstLines.join(','), () => {
      const chosen = new Set(firstLines);
      const rules = this.#rules.filter((r) => chosen.has(r.record.groupLine));
      const matcher = new RuleMatcher(
        rules.map(({ rule }) => ({
          pattern: rule.normalizedPattern,
          rank: rule.normalizedPattern.length,
          failClosed: true,
        })),
      );
      return { rules, matcher };
    });
  }

  /**
   * Lint of the usage rules: values that do not parse, vocabulary labels with values that
   * mean nothing, a path with no statement, and a rule whose path its own group disallows
   * (it can never apply). `groupMatcher(g)`: the Allow/Disallow rules of group `g`.
   */
  diagnostics(groupMatcher: (group: number) => GroupMatcher): UsageDiagnostic[] {
    const out: UsageDiagnostic[] = [];
    const matchers = new Map<number, GroupMatcher>();
    for (const r of this.#rules) {
      const { line } = r.record;
      const shown = r.rule.value;
      if (r.statement.invalid) out.push({ line, code: 'invalid-usage-value', detail: shown });
      else if (r.statement.unknownValues.length > 0)
        out.push({
          line,
          code: 'unknown-usage-value',
          detail: r.statement.unknownValues.join(', '),
        });
      if (r.empty) out.push({ line, code: 'empty-usage-statement', detail: r.rule.pattern });
      const { group } = r.record;
      let matcher = matchers.get(group);
      if (matcher === undefined) matchers.set(group, (matcher = groupMatcher(group)));
      const blocking = disallowedEverywhere(r.rule.normalizedPattern, matcher);
      if (blocking !== undefined)
        out.push({
          line,
          code: 'usage-path-disallowed',
          // The line goes last and whole: the detail is cut at 60 characters.
          detail: `${shorten(r.rule.pattern === '' ? '(every path)' : r.rule.pattern)} ${blocking.line}`,
        });
    }
    return out;
  }
}

const EMPTY = new ContentUsageIndex({ rules: [], latin1: false, diagnosticBudget: 0 });

/**
 * A group's Allow/Disallow rules, in file order, and the matcher a crawl verdict uses for them
 * (its indices are those of `rules`): for the usage lint.
 */
export interface GroupMatcher {
  readonly rules: readonly MatchedRule[];
  readonly matcher: RuleMatcher;
}

function shorten(text: string): string {
  return text.length > 40 ? text.slice(0, 40) + '…' : text;
}

function freezeVerdict(
  preferences: UsagePreferences,
  reason: ContentUsageVerdict['reason'],
  base: Pick<ContentUsageVerdict, 'selection' | 'groups' | 'groupLines' | 'path' | 'crawlAllowed'>,
  deciding: readonly ReadRule[],
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
