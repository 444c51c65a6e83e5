import { BoundedMap } from './bounded-map.js';
import { ContentUsageIndex, type GroupMatcher } from './content-usage-index.js';
import type { ContentUsageVerdict, UsagePreferences } from './content-usage-types.js';
import { clipDetail, makeDiagnostic, materializeDiagnostics } from './diagnostics.js';
import { normalizePattern } from './normalize-pattern.js';
import { isValidProductToken, isValidPurposeToken } from './product-token.js';
import { RobotsTxtUsageError } from './robots-txt-usage-error.js';
import { RuleMatcher } from './rule-matcher.js';
import {
  ENTRY_PRODUCT,
  ENTRY_PURPOSE,
  tableLayout,
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

/** The Allow/Disallow rules of a set of groups: their matcher, and per rule (as given to it) its file index and kind. */
interface CompiledRules {
  readonly matcher: RuleMatcher;
  readonly fileRules: Int32Array;
  readonly allow: Uint8Array;
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
    // A file without usage rules states nothing for any path (most files: a polite fetch asks
    // on every response). `url` is still read, so that a bad one throws as `explain` does.
    if (!this.#file.hasUsageRules) {
      toMatchPath(url);
      return UNKNOWN_USAGE;
    }
    return this.#file.usageFor(this.explain(url)).preferences;
  }

  explainContentUsage(url: string | URL): ContentUsageVerdict {
    return this.#file.usageFor(this.explain(url));
  }
}

/** What few files have: kept out of the main object to keep it small. */
type Extras = Pick<
  ScanResult,
  'rawPatterns' | 'delays' | 'sitemapText' | 'diagnosticLog' | 'usage'
>;

/** Built on first use. */
interface Caches {
  /**
   * Agent (a product token as passed) → its rules; bounded by `maxCachedAgents`. Only valid
   * agents are ever added, so a lookup that misses is validated.
   */
  readonly agents: BoundedMap<string, SelectedRules>;
  /**
   * `{ productToken, purpose }` → its rules: by the values as passed, each one a key of its
   * own (no key made of both, which an invalid value could spell); the same bound.
   */
  agentObjects: BoundedMap<unknown, BoundedMap<unknown, SelectedRules>> | undefined;
  /** Selected groups (`'1,4'`) → their rules, shared across agents; same bound. */
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
  readonly #extras: Extras | undefined;
  readonly #maxAgents: number;
  /** See ScanResult.normalized. */
  readonly #normalized: boolean;
  #caches: Caches | undefined;
  #sitemaps: readonly string[] | undefined;
  #diagnostics: readonly Diagnostic[] | undefined;
  #lastAgent: Agent | undefined;
  #lastRules: SelectedRules | undefined;
  #usage: ContentUsageIndex | undefined;

  constructor(scan: ScanResult, parsedBytes: number, truncated: boolean, maxAgents: number) {
    this.parsedBytes = parsedBytes;
    this.truncated = truncated;
    this.#text = scan.text;
    this.#table = scan.table;
    this.#maxAgents = maxAgents;
    this.#normalized = scan.normalized;
    const { rawPatterns, delays, sitemapText, diagnosticLog, usage } = scan;
    this.#extras =
      rawPatterns === undefined &&
      delays === undefined &&
      sitemapText === undefined &&
      diagnosticLog === undefined &&
      usage === undefined
        ? undefined
        : { rawPatterns, delays, sitemapText, diagnosticLog, usage };
  }

  get sitemaps(): readonly string[] {
    const text = this.#extras?.sitemapText;
    if (text === undefined) return NO_SITEMAPS;
    return (this.#sitemaps ??= Object.freeze(text.slice(0, -1).split('\n')));
  }

  get diagnostics(): readonly Diagnostic[] {
    return (this.#diagnostics ??= this.#withUsageDiagnostics(
      materializeDiagnostics(this.#extras?.diagnosticLog),
    ));
  }

  contentUsage(url: string | URL, agent: Agent): UsagePreferences {
    return this.explainContentUsage(url, agent).preferences;
  }

  explainContentUsage(url: string | URL, agent: Agent): ContentUsageVerdict {
    return this.usageFor(this.explain(url, agent));
  }

  /** @internal Whether the file has `Content-Usage` / `Content-Signal` rules. */
  get hasUsageRules(): boolean {
    return this.#extras?.usage !== undefined;
  }

  /** @internal The usage preferences for the path of an Allow/Disallow verdict. */
  usageFor(crawl: Verdict): ContentUsageVerdict {
    const usage = this.#extras?.usage;
    if (usage === undefined) return ContentUsageIndex.none(crawl);
    return (this.#usage ??= new ContentUsageIndex(usage)).verdict(crawl);
  }

  /** The scan's diagnostics plus the lint of the usage rules, within `maxDiagnostics`. */
  #withUsageDiagnostics(scanned: readonly Diagnostic[]): readonly Diagnostic[] {
    const usage = this.#extras?.usage;
    if (usage === undefined) return scanned;
    if (usage.diagnosticBudget === 0 && scanned.some((d) => d.code === 'too-many-diagnostics'))
      return scanned;
    const found = (this.#usage ??= new ContentUsageIndex(usage)).diagnostics((g) =>
      this.#groupMatcher(g),
    );
    if (found.length === 0) return scanned;
    const budget = usage.diagnosticBudget;
    const kept = found
      .slice(0, budget)
      .map((d) => makeDiagnostic(d.line, d.code, clipDetail(d.detail)));
    if (found.length > budget) {
      const max = budget + scanned.length;
      kept.push(makeDiagnostic(found[budget]!.line, 'too-many-diagnostics', String(max)));
    }
    return Object.freeze([...scanned, ...kept].sort((a, b) => a.line - b.line));
  }

  /** Group `g`'s rules and their matcher, compiled as for a crawl verdict (for the usage lint). */
  #groupMatcher(g: number): GroupMatcher {
    const layout = this.#layout();
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
    const layout = this.#layout();
    const table = this.#table;
    const stored = this.#text.slice(
      table[layout.ruleStartAt + r],
      table[layout.ruleStartAt + r + 1],
    );
    const info = table[layout.ruleInfoAt + r]!;
    const allow = (info & 1) === 1;
    const pattern = this.#normalized ? (this.#extras?.rawPatterns?.get(r) ?? stored) : stored;
    return Object.freeze({
      kind: allow ? 'allow' : 'disallow',
      pattern,
      normalizedPattern: this.#normalize(stored),
      line: Math.floor(info / 2),
      // Rebuilt from what is kept, not stored: keeping each line as written would cost a crawler
      // holding thousands of parsed files about a tenth more heap, for a field only tools show.
      text: `${allow ? 'Allow' : 'Disallow'}: ${pattern}`,
    });
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

  /** A stored pattern as the matcher compares it (see ScanResult.normalized). */
  #normalize(stored: string): string {
    return this.#normalized ? stored : normalizePattern(stored);
  }

  #cachesNow(): Caches {
    // Made when first asked with an agent object (most crawlers ask with a string).
    const max = this.#maxAgents;
    return (this.#caches ??= {
      agents: new BoundedMap(max),
      agentObjects: undefined,
      compiled: new BoundedMap(max),
    });
  }

  #layout(): TableLayout {
    const t = this.#table;
    return tableLayout(t[0]!, t[1]!, t[2]!);
  }

  #rulesFor(agent: Agent): SelectedRules {
    // The last agent is remembered: a crawler asks with the same agent again and again.
    if (agent === this.#lastAgent && this.#lastRules !== undefined) return this.#lastRules;
    const caches = this.#cachesNow();
    const isObject = typeof agent === 'object' && agent !== null;
    let rules =
      typeof agent === 'string'
        ? caches.agents.get(agent)
        : isObject
          ? caches.agentObjects?.get(agent.productToken)?.get(agent.purpose)
          : undefined;
    if (rules === undefined) {
      const { product, purpose } = normalizeAgent(agent);
      rules = this.#select(product, purpose, caches);
      const max = this.#maxAgents;
      if (typeof agent === 'string') caches.agents.set(agent, rules);
      else if (isObject)
        (caches.agentObjects ??= new BoundedMap(max))
          .getOrAdd(agent.productToken, () => new BoundedMap(max))
          .set(agent.purpose, rules);
    }
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
    return new SelectedRules(
      this,
      selection,
      Object.freeze(groupLines),
      crawlDelay,
      compiled.matcher.size === 0 ? undefined : compiled,
    );
  }

  /**
   * The rules of `ranges` (file indices) in one matcher. RFC 9309 §2.2.2: the most octets
   * (the normalised pattern's length) win, and on a tie the allow rule (rank
   * `length * 2 + allow`); then file order. A disallow fails closed past the match budget.
   */
  #compile(ranges: readonly (readonly [number, number])[], layout: TableLayout): CompiledRules {
    const t = this.#table;
    const text = this.#text;
    const rules: { pattern: string; rank: number; failClosed: boolean }[] = [];
    const fileRules: number[] = [];
    const allow: number[] = [];
    for (const [from, to] of ranges) {
      for (let r = from; r < to; r++) {
        const pattern = this.#normalize(
          text.slice(t[layout.ruleStartAt + r], t[layout.ruleStartAt + r + 1]),
        );
        const isAllow = t[layout.ruleInfoAt + r]! & 1;
        rules.push({ pattern, rank: pattern.length * 2 + isAllow, failClosed: isAllow === 0 });
        fileRules.push(r);
        allow.push(isAllow);
      }
    }
    return {
      matcher: new RuleMatcher(rules),
      fileRules: Int32Array.from(fileRules),
      allow: Uint8Array.from(allow),
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
