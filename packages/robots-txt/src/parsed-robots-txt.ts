import { BoundedMap } from './bounded-map.js';
import {
  lintUsageRule,
  readUsageRule,
  selectUsageRules,
  usageVerdict,
  type GroupMatcher,
  type ReadUsageRule,
  type UsageSelection,
} from './content-usage-rules.js';
import type { ContentUsageVerdict, UsagePreferences } from './content-usage-types.js';
import { logDiagnostic, materializeDiagnostics } from './diagnostics.js';
import type { ResolvedParseOptions } from './parse-robots-txt.js';
import { normalizePattern } from './normalize-pattern.js';
import { isValidProductToken, isValidPurposeToken } from './product-token.js';
import { RobotsTxtUsageError } from './robots-txt-usage-error.js';
import { RuleMatcher } from './rule-matcher.js';
import {
  ENTRY_PRODUCT,
  ENTRY_PURPOSE,
  RULE_ALLOW,
  RULE_CONTENT_SIGNAL,
  RULE_CONTENT_USAGE,
  RULE_DISALLOW,
  tableLayout,
  type ScanExtras,
  type ScanResult,
  type TableLayout,
} from './scan-robots-txt.js';
import { toMatchPath } from './to-match-path.js';
import { UNKNOWN_USAGE } from './usage-statement.js';
import type {
  Agent,
  AgentRules,
  Diagnostic,
  GroupSelection,
  MatchedRule,
  RobotsTxt,
  Verdict,
} from './types.js';

const NO_GROUPS: readonly (readonly number[])[] = Object.freeze([]);
const NO_SITEMAPS: readonly string[] = Object.freeze([]);
const NO_RULES: readonly number[] = Object.freeze([]);

/**
 * The rules of a set of groups: the Allow/Disallow matcher, and per rule (as given to it) its
 * file index and kind; the file indices of the usage rules, and their selection once asked for.
 */
interface CompiledRules {
  readonly matcher: RuleMatcher;
  readonly fileRules: Int32Array;
  readonly allow: Uint8Array;
  readonly usageRules: readonly number[];
  usage?: UsageSelection;
}

/** True when `path` is allowed: no rule, or an allow rule, decides. */
function allows(rules: CompiledRules, path: string): boolean {
  const i = rules.matcher.first(path);
  return i < 0 || rules.allow[i] === 1;
}

function isRobotsTxtPath(path: string): boolean {
  // The length and 'r' first: this runs on every disallowed path, and rarely matches.
  return (
    (path.length === 11 || path.charCodeAt(11) === 63) &&
    path.charCodeAt(1) === 114 &&
    path.startsWith('/robots.txt')
  );
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null) {
    try {
      return JSON.stringify(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
  return String(value);
}

/**
 * In the sorted section `t[at, at + count)`, the index (from `at`) of the last value at most
 * `value`; 0 when there is none.
 */
function lastAtMost(t: Uint32Array, at: number, count: number, value: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t[at + mid]! <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Product token and purpose token, validated and lower-cased. */
function normalizeAgent(agent: Agent): { product: string; purpose: string | undefined } {
  let product: unknown;
  let purpose: unknown;
  if (typeof agent === 'string') {
    product = agent;
  } else if (typeof agent === 'object' && agent !== null) {
    product = agent.productToken;
    purpose = agent.purpose;
  }
  if (typeof product !== 'string' || !isValidProductToken(product)) {
    throw new RobotsTxtUsageError(
      `Invalid robots.txt agent: ${describe(agent)} (the product token must be one or more of A-Z, a-z, "_" and "-", RFC 9309 §2.2.1)`,
      { reason: 'invalid-agent', value: agent },
    );
  }
  if (purpose !== undefined && (typeof purpose !== 'string' || !isValidPurposeToken(purpose))) {
    throw new RobotsTxtUsageError(
      `Invalid robots.txt purpose: ${describe(purpose)} (a purpose token is one or more of A-Z, a-z, 0-9, "_" and "-")`,
      { reason: 'invalid-purpose', value: purpose },
    );
  }
  return { product: product.toLowerCase(), purpose: purpose?.toLowerCase() };
}

/** The rules for one agent. Agents that select the same groups share the compiled rules. */
class SelectedRules implements AgentRules {
  readonly selection: GroupSelection;
  readonly groups: readonly (readonly number[])[];
  readonly groupLines: readonly number[];
  readonly crawlDelay: number | undefined;
  readonly #rules: CompiledRules | undefined;
  readonly #file: ParsedRobotsTxt;

  constructor(
    file: ParsedRobotsTxt,
    selection: GroupSelection,
    groups: readonly (readonly number[])[],
    crawlDelay: number | undefined,
    /** `undefined` when no group applies. */
    rules: CompiledRules | undefined,
  ) {
    this.#file = file;
    this.selection = selection;
    this.groups = groups;
    this.groupLines = groups.length === 1 ? groups[0]! : Object.freeze(groups.flat());
    this.crawlDelay = crawlDelay;
    this.#rules = rules;
    Object.freeze(this);
  }

  isAllowed(url: string | URL): boolean {
    const path = toMatchPath(url);
    const rules = this.#rules;
    return rules === undefined || allows(rules, path) || isRobotsTxtPath(path);
  }

  explain(url: string | URL): Verdict {
    const path = toMatchPath(url);
    const base = {
      selection: this.selection,
      groups: this.groups,
      groupLines: this.groupLines,
      // Built per verdict, not kept: the parsed file holds no line text (see matchedRule).
      groupLineTexts: Object.freeze(this.groupLines.map((line) => this.#file.agentLineText(line))),
      path,
    };
    if (isRobotsTxtPath(path))
      return Object.freeze({ allowed: true, reason: 'robots-txt-path', ...base });
    const rules = this.#rules;
    if (this.selection === 'none')
      return Object.freeze({ allowed: true, reason: 'no-applicable-group', ...base });
    const i = rules === undefined ? -1 : rules.matcher.first(path);
    if (i < 0) return Object.freeze({ allowed: true, reason: 'no-matching-rule', ...base });
    const rule = this.#file.matchedRule(rules!.fileRules[i]!);
    const allowed = rule.kind === 'allow';
    // Past the match budget a disallow may have been counted as matching: say so.
    const reason = !allowed && rules!.matcher.undecided ? 'match-budget' : 'rule';
    return Object.freeze({ allowed, reason, ...base, rule });
  }

  contentUsage(url: string | URL): UsagePreferences {
    // Groups without usage rules state nothing for any path (most files: a polite fetch asks
    // on every response). `url` is still read, so that a bad one throws as `explain` does.
    if (this.#rules === undefined || this.#rules.usageRules.length === 0) {
      toMatchPath(url);
      return UNKNOWN_USAGE;
    }
    return this.explainContentUsage(url).preferences;
  }

  explainContentUsage(url: string | URL): ContentUsageVerdict {
    return this.#file.usageFor(this.explain(url), this.#rules);
  }
}

/** Built on first use; each bounded by `maxCachedAgents`. */
interface Caches {
  /** Agent, validated and lower-cased (`'examplebot search'`) → its rules. */
  readonly agents: BoundedMap<string, SelectedRules>;
  /** Selected groups (`'1,4'`) → their rules, shared across agents. */
  readonly compiled: BoundedMap<string, CompiledRules>;
}

/**
 * The parsed, immutable robots.txt (created by `parseRobotsTxt`). Everything is held in one
 * string and one number table (see `ScanResult`); the rules for an agent are
 * compiled on first use and cached inside the object.
 */
export class ParsedRobotsTxt implements RobotsTxt {
  readonly parsedBytes: number;
  readonly truncated: boolean;
  readonly #text: string;
  readonly #table: Uint32Array;
  readonly #extras: ScanExtras | undefined;
  readonly #options: ResolvedParseOptions;
  #caches: Caches | undefined;
  #sitemaps: readonly string[] | undefined;
  #diagnostics: readonly Diagnostic[] | undefined;
  #lastAgent: Agent | undefined;
  #lastRules: SelectedRules | undefined;

  constructor(
    scan: ScanResult,
    parsedBytes: number,
    truncated: boolean,
    options: ResolvedParseOptions,
  ) {
    this.parsedBytes = parsedBytes;
    this.truncated = truncated;
    this.#text = scan.text;
    this.#table = scan.table;
    this.#options = options;
    this.#extras = scan.extras;
  }

  get sitemaps(): readonly string[] {
    const text = this.#extras?.sitemapText;
    if (text === undefined) return NO_SITEMAPS;
    return (this.#sitemaps ??= Object.freeze(text.slice(0, -1).split('\n')));
  }

  get diagnostics(): readonly Diagnostic[] {
    return (this.#diagnostics ??= materializeDiagnostics(this.#diagnosticLog()));
  }

  contentUsage(url: string | URL, agent: Agent): UsagePreferences {
    return this.#rulesFor(agent).contentUsage(url);
  }

  explainContentUsage(url: string | URL, agent: Agent): ContentUsageVerdict {
    return this.#rulesFor(agent).explainContentUsage(url);
  }

  /** @internal The usage verdict for `crawl`, from the usage rules of its groups (`compiled`). */
  usageFor(crawl: Verdict, compiled: CompiledRules | undefined): ContentUsageVerdict {
    if (compiled === undefined || compiled.usageRules.length === 0)
      return usageVerdict(crawl, undefined);
    compiled.usage ??= selectUsageRules(compiled.usageRules.map((r) => this.#usageRule(r)));
    return usageVerdict(crawl, compiled.usage);
  }

  /** The usage rule at file index `r`, read. */
  #usageRule(r: number): ReadUsageRule {
    const { kind, line, pattern, normalizedPattern } = this.#ruleAt(r);
    const value = this.#extras!.usageValues!.get(r)!;
    return readUsageRule(kind === RULE_CONTENT_SIGNAL, line, value, pattern, normalizedPattern);
  }

  /** The scan's log, continued with the lint of the usage rules (within `maxDiagnostics`). */
  #diagnosticLog(): string | undefined {
    let log = this.#extras?.diagnosticLog;
    const usageValues = this.#extras?.usageValues;
    let count = log === undefined ? 0 : log.split('\n').length - 1;
    const max = this.#options.maxDiagnostics;
    if (usageValues === undefined || count > max) return log;
    const layout = this.#layout();
    const groups = new Map<number, GroupMatcher>();
    for (const r of usageValues.keys()) {
      const g = lastAtMost(this.#table, layout.groupRuleAt, layout.groups, r);
      let group = groups.get(g);
      if (group === undefined) groups.set(g, (group = this.#groupMatcher(g, layout)));
      lintUsageRule(this.#usageRule(r), group, (line, code, detail) => {
        log = logDiagnostic(log, count++, max, line, code, detail);
      });
    }
    return log;
  }

  /** Group `g`'s rules and their matcher, compiled as for a crawl verdict (for the usage lint). */
  #groupMatcher(g: number, layout: TableLayout): GroupMatcher {
    const t = this.#table;
    const range = [t[layout.groupRuleAt + g]!, t[layout.groupRuleAt + g + 1]!] as const;
    const { matcher, fileRules } = this.#compile([range], layout);
    return { rules: Array.from(fileRules, (r) => this.matchedRule(r)), matcher };
  }

  isAllowed(url: string | URL, agent: Agent): boolean {
    return this.#rulesFor(agent).isAllowed(url);
  }

  explain(url: string | URL, agent: Agent): Verdict {
    return this.#rulesFor(agent).explain(url);
  }

  forAgent(agent: Agent): AgentRules {
    return this.#rulesFor(agent);
  }

  crawlDelay(agent: Agent): number | undefined {
    return this.#rulesFor(agent).crawlDelay;
  }

  /** @internal The rule at file index `r`, for verdicts. */
  matchedRule(r: number): MatchedRule {
    const { kind, line, pattern, normalizedPattern } = this.#ruleAt(r);
    const allow = kind === RULE_ALLOW;
    return Object.freeze({
      kind: allow ? 'allow' : 'disallow',
      pattern,
      normalizedPattern,
      line,
      // Rebuilt from what is kept, not stored: keeping each line as written would cost a crawler
      // holding thousands of parsed files about a tenth more heap, for a field only tools show.
      text: `${allow ? 'Allow' : 'Disallow'}: ${pattern}`,
    });
  }

  /** Kind (`RULE_*`), line and pattern (as written and normalised) of the rule at file index `r`. */
  #ruleAt(r: number): { kind: number; line: number; pattern: string; normalizedPattern: string } {
    const layout = this.#layout();
    const table = this.#table;
    const stored = this.#text.slice(
      table[layout.ruleStartAt + r],
      table[layout.ruleStartAt + r + 1],
    );
    const info = table[layout.ruleInfoAt + r]!;
    const pattern = this.#extras?.rawPatterns?.get(r) ?? stored;
    return {
      kind: info & 3,
      line: info >>> 2,
      pattern,
      normalizedPattern: normalizePattern(stored),
    };
  }

  /** @internal The `user-agent` / `user-agent-purpose` line at `line`, as read (see `Verdict.groupLineTexts`). */
  agentLineText(line: number): string {
    const layout = this.#layout();
    const t = this.#table;
    // Entries are in file order: their lines are sorted.
    const e = lastAtMost(t, layout.entryLineAt, layout.entries, line);
    const start = t[layout.entryStartAt + e]!;
    const end = this.#text.indexOf('\n', start);
    const key = this.#text[start] === ENTRY_PURPOSE ? 'User-agent-purpose' : 'User-agent';
    return `${key}: ${this.#text.slice(start + 1, end)}`;
  }

  #cachesNow(): Caches {
    const max = this.#options.maxCachedAgents;
    return (this.#caches ??= { agents: new BoundedMap(max), compiled: new BoundedMap(max) });
  }

  #layout(): TableLayout {
    const t = this.#table;
    return tableLayout(t[0]!, t[1]!, t[2]!);
  }

  #rulesFor(agent: Agent): SelectedRules {
    // The last agent is remembered: a crawler asks with the same agent again and again.
    if (agent === this.#lastAgent && this.#lastRules !== undefined) return this.#lastRules;
    // Validated before the cache is read: a key is made of valid tokens only.
    const { product, purpose } = normalizeAgent(agent);
    const caches = this.#cachesNow();
    const rules = caches.agents.getOrAdd(`${product} ${purpose ?? ''}`, () =>
      this.#select(product, purpose, caches),
    );
    if (typeof agent === 'string') {
      this.#lastAgent = agent;
      this.#lastRules = rules;
    }
    return rules;
  }

  #select(product: string, purpose: string | undefined, caches: Caches): SelectedRules {
    const layout = this.#layout();
    let selection: GroupSelection = 'product';
    let entries = this.#findEntries(ENTRY_PRODUCT + product, layout);
    if (entries.length === 0 && purpose !== undefined) {
      selection = 'purpose';
      entries = this.#findEntries(ENTRY_PURPOSE + purpose, layout);
    }
    if (entries.length === 0) {
      selection = 'global';
      entries = this.#findEntries(ENTRY_PRODUCT + '*', layout);
    }
    if (entries.length === 0)
      return new SelectedRules(this, 'none', NO_GROUPS, undefined, undefined);

    const t = this.#table;
    const { groups: G, groupEntryAt, groupRuleAt, entryLineAt } = layout;
    const groups: number[] = [];
    const entryGroups: number[] = [];
    for (const e of entries) {
      // The group whose entry range holds e (groupEntryStart is sorted).
      const g = lastAtMost(t, groupEntryAt, G, e);
      entryGroups.push(g);
      if (groups[groups.length - 1] !== g) groups.push(g);
    }

    const groupLines: (readonly number[])[] = [];
    const ranges: [number, number][] = [];
    for (const g of groups) {
      const last = t[groupEntryAt + g + 1]!;
      const lines: number[] = [];
      for (let e = t[groupEntryAt + g]!; e < last; e++) lines.push(t[entryLineAt + e]!);
      groupLines.push(Object.freeze(lines));
      ranges.push([t[groupRuleAt + g]!, t[groupRuleAt + g + 1]!]);
    }

    let crawlDelay: number | undefined;
    const delays = this.#extras?.delays;
    if (delays !== undefined) {
      // A crawl-delay applies to the agent lines of its group above it: to this agent when
      // the agent's first line in that group is above it (one pass over each list, not one
      // over the delays per agent line).
      const firstEntryOf = new Map<number, number>();
      for (let i = 0; i < entries.length; i++) {
        const g = entryGroups[i]!;
        const first = firstEntryOf.get(g);
        if (first === undefined || entries[i]! < first) firstEntryOf.set(g, entries[i]!);
      }
      for (let d = 0; d < delays.length; d += 3) {
        const first = firstEntryOf.get(delays[d]!);
        if (first !== undefined && delays[d + 1]! > first) {
          const seconds = delays[d + 2]!;
          if (crawlDelay === undefined || seconds > crawlDelay) crawlDelay = seconds;
        }
      }
    }

    const compiled = caches.compiled.getOrAdd(groups.join(','), () =>
      this.#compile(ranges, layout),
    );
    return new SelectedRules(this, selection, Object.freeze(groupLines), crawlDelay, compiled);
  }

  /**
   * The Allow/Disallow rules of `ranges` (file indices) in one matcher, the usage rules set
   * apart. RFC 9309 §2.2.2: the most octets (the normalised pattern's length) win, and on a tie
   * the allow rule (rank `length * 2 + allow`); then file order. A disallow fails closed past
   * the match budget.
   */
  #compile(ranges: readonly (readonly [number, number])[], layout: TableLayout): CompiledRules {
    const t = this.#table;
    const text = this.#text;
    const rules: { pattern: string; rank: number; failClosed: boolean }[] = [];
    const fileRules: number[] = [];
    const allow: number[] = [];
    let usageRules: number[] | undefined;
    for (const [from, to] of ranges) {
      for (let r = from; r < to; r++) {
        const kind = t[layout.ruleInfoAt + r]! & 3;
        if (kind >= RULE_CONTENT_USAGE) {
          (usageRules ??= []).push(r);
          continue;
        }
        const pattern = normalizePattern(
          text.slice(t[layout.ruleStartAt + r], t[layout.ruleStartAt + r + 1]),
        );
        rules.push({
          pattern,
          rank: pattern.length * 2 + kind,
          failClosed: kind === RULE_DISALLOW,
        });
        fileRules.push(r);
        allow.push(kind);
      }
    }
    return {
      matcher: new RuleMatcher(rules),
      fileRules: Int32Array.from(fileRules),
      allow: Uint8Array.from(allow),
      usageRules: usageRules ?? NO_RULES,
    };
  }

  /** Indices of the entries equal to `entry` (kind character + lower-cased token). */
  #findEntries(entry: string, layout: TableLayout): number[] {
    const { entries: E, entryStartAt, ruleStartAt } = layout;
    if (E === 0) return [];
    const t = this.#table;
    const entriesEnd = t[ruleStartAt]!; // the first pattern starts after the entries
    // Tokens are kept as written and compared case-insensitively: a lower-cased copy of the
    // entries (short, and made only when an agent's groups are first selected).
    const text = this.#text.slice(0, entriesEnd).toLowerCase();
    const needle = '\n' + entry + '\n';
    const found: number[] = [];
    let from = 0;
    for (;;) {
      const at = text.indexOf(needle, from);
      if (at < 0 || at >= entriesEnd) break;
      // The entry whose kind character is at at + 1.
      found.push(lastAtMost(t, entryStartAt, E, at + 1));
      from = at + needle.length - 1;
    }
    return found;
  }
}
