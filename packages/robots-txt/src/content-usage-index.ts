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
import { compilePattern, matchesPattern, type CompiledPattern } from './match-one-pattern.js';
import { UsageMatcher } from './usage-matcher.js';
import { normalizeRange } from './percent-encoding.js';
import type { DiagnosticCode, MatchedRule, Verdict } from './types.js';
import {
  CONTENT_SIGNAL_SYNTAX,
  CONTENT_USAGE_SYNTAX,
  UNKNOWN_USAGE,
  combinePreferences,
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
  readonly statement: ProcessedStatement;
  readonly compiled: CompiledPattern;
  /** No statement: a path and nothing after it, or an empty value. */
  readonly empty: boolean;
}

/** The rules of a set of chosen groups, longest first, and their matcher. */
interface Selection {
  readonly rules: readonly ReadRule[];
  readonly matcher: UsageMatcher;
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
  return {
    record,
    rule,
    statement: processed,
    compiled: compilePattern(normalizedPattern),
    empty: statement === '',
  };
}

/**
 * The usage rules of one parsed file, read on first use. Per set of selected groups, the
 * rules are kept sorted by specificity: the normalised path's length in octets (percent
 * escapes, `*` and a final `$` included; an absent path is 0), longest first.
 */
export class ContentUsageIndex {
  readonly #rules: readonly ReadRule[];
  readonly #selections = new Map<string, Selection>();

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
    const deciding = matcher.match(crawl.path).map((i) => rules[i]!);
    if (deciding.length === 0) return freezeVerdict(UNKNOWN_USAGE, 'no-matching-rule', base, []);
    deciding.sort((a, b) => a.record.line - b.record.line);
    const preferences = combinePreferences(deciding.map((r) => r.statement.preferences));
    return freezeVerdict(preferences, 'rule', base, deciding);
  }

  /** `groups`: the verdict's chosen groups; a group is named by its first user-agent line. */
  #select(groups: readonly (readonly number[])[]): Selection {
    const firstLines = groups.map((lines) => lines[0]!);
    const key = firstLines.join(',');
    let selected = this.#selections.get(key);
    if (selected === undefined) {
      const chosen = new Set(firstLines);
      const rules = this.#rules
        .filter((r) => chosen.has(r.record.groupLine))
        .sort(
          (a, b) =>
            b.rule.normalizedPattern.length - a.rule.normalizedPattern.length ||
            a.record.line - b.record.line,
        );
      const matcher = new UsageMatcher(
        rules.map((r) => r.compiled),
        rules.map((r) => r.rule.normalizedPattern.length),
      );
      selected = { rules, matcher };
      if (this.#selections.size >= MAX_SELECTIONS)
        this.#selections.delete(this.#selections.keys().next().value!);
      this.#selections.set(key, selected);
    }
    return selected;
  }

  /**
   * Lint of the usage rules: values that do not parse, vocabulary labels with values that
   * mean nothing, a path with no statement, and a rule whose path its own group disallows
   * (it can never apply). `groupRules(g)`: the Allow/Disallow rules of group `g`.
   */
  diagnostics(groupRules: (group: number) => readonly MatchedRule[]): UsageDiagnostic[] {
    const out: UsageDiagnostic[] = [];
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
      const blocking = disallowedEverywhere(r.rule.normalizedPattern, groupRules(r.record.group));
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
  rules: readonly MatchedRule[],
): MatchedRule | undefined {
  const written = pattern === '' ? '/' : pattern; // every path starts with '/'
  if (written.includes('*')) return undefined;
  const anchored = written.endsWith('$');
  const literal = anchored ? written.slice(0, -1) : written;
  // (`/robots.txt` itself is always crawlable; a usage rule for it alone is not blamed, and
  // one for a prefix of it is judged by the other paths it covers.)
  if (literal.startsWith('/robots.txt')) return undefined;
  let best: MatchedRule | undefined;
  for (const rule of rules) {
    const p = rule.normalizedPattern;
    if (p === '' || !matchesPattern(p, literal)) continue;
    const b = best?.normalizedPattern.length ?? -1;
    if (p.length > b || (p.length === b && rule.kind === 'allow')) best = rule;
  }
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
