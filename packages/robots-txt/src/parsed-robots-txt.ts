import { compileRules, type CompiledRules, type RuleTable } from './compiled-rules.js';
import { materializeDiagnostics } from './diagnostics.js';
import { isValidProductToken, isValidPurposeToken } from './product-token.js';
import { RobotsTxtUsageError } from './robots-txt-usage-error.js';
import { ENTRY_PRODUCT, ENTRY_PURPOSE, type ScanResult } from './scan-robots-txt.js';
import { toMatchPath } from './to-match-path.js';
import type {
  Agent,
  AgentRules,
  Diagnostic,
  GroupSelection,
  MatchedRule,
  RobotsTxt,
  Verdict,
} from './types.js';

const NO_LINES: readonly number[] = Object.freeze([]);

function isRobotsTxtPath(path: string): boolean {
  return path.startsWith('/robots.txt') && (path.length === 11 || path.charCodeAt(11) === 63);
}

function invalidAgent(agent: unknown, why: string): RobotsTxtUsageError {
  return new RobotsTxtUsageError(`Invalid robots.txt agent: ${describe(agent)} (${why})`, {
    reason: 'invalid-agent',
    value: agent,
  });
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

/** Product token and purpose token, validated and lower-cased. */
function normalizeAgent(agent: Agent): { product: string; purpose: string | undefined } {
  let product: unknown;
  let purpose: unknown;
  if (typeof agent === 'string') {
    product = agent;
  } else if (typeof agent === 'object' && agent !== null) {
    product = agent.productToken;
    purpose = agent.purpose;
  } else {
    throw invalidAgent(agent, 'expected a product token or { productToken, purpose }');
  }
  if (typeof product !== 'string' || !isValidProductToken(product)) {
    throw invalidAgent(agent, 'a product token is one or more of A-Z, a-z, "_" and "-" (RFC 9309 §2.2.1)');
  }
  if (purpose !== undefined && (typeof purpose !== 'string' || !isValidPurposeToken(purpose))) {
    throw new RobotsTxtUsageError(
      `Invalid robots.txt purpose: ${describe(purpose)} (a purpose token is one or more of A-Z, a-z, 0-9, "_" and "-")`,
      { reason: 'invalid-purpose', value: purpose },
    );
  }
  return { product: product.toLowerCase(), purpose: purpose?.toLowerCase() };
}

/** The rules for one agent; shared by every agent that selects the same groups. */
class SelectedRules implements AgentRules {
  readonly selection: GroupSelection;
  readonly groupLines: readonly number[];
  readonly crawlDelay: number | undefined;
  readonly #rules: CompiledRules | undefined;
  readonly #file: ParsedRobotsTxt;

  constructor(
    file: ParsedRobotsTxt,
    selection: GroupSelection,
    groupLines: readonly number[],
    crawlDelay: number | undefined,
    rules: CompiledRules | undefined,
  ) {
    this.#file = file;
    this.selection = selection;
    this.groupLines = groupLines;
    this.crawlDelay = crawlDelay;
    this.#rules = rules;
    Object.freeze(this);
  }

  isAllowed(url: string | URL): boolean {
    return this.allowsPath(toMatchPath(url));
  }

  /** The verdict for an already normalised match path (see {@link toMatchPath}). */
  allowsPath(path: string): boolean {
    const rules = this.#rules;
    if (rules === undefined || rules.size === 0) return true;
    const i = rules.firstMatch(path);
    return i < 0 || rules.isAllow(i) || isRobotsTxtPath(path);
  }

  explain(url: string | URL): Verdict {
    const path = toMatchPath(url);
    const base = { selection: this.selection, groupLines: this.groupLines, path };
    if (isRobotsTxtPath(path)) return Object.freeze({ allowed: true, reason: 'robots-txt-path', ...base });
    const rules = this.#rules;
    if (rules === undefined) return Object.freeze({ allowed: true, reason: 'no-applicable-group', ...base });
    const i = rules.firstMatch(path);
    if (i < 0) return Object.freeze({ allowed: true, reason: 'no-matching-rule', ...base });
    const rule = this.#file.matchedRule(rules.ruleIndex[i]!);
    return Object.freeze({ allowed: rule.kind === 'allow', reason: 'rule', ...base, rule });
  }
}

/** The parsed, immutable robots.txt. Created by `parseRobotsTxt`. */
export class ParsedRobotsTxt implements RobotsTxt {
  readonly parsedBytes: number;
  readonly truncated: boolean;
  readonly sitemaps: readonly string[];
  readonly #text: string;
  readonly #nums: Uint16Array | Uint32Array;
  readonly #ruleCount: number;
  readonly #entryCount: number;
  readonly #groupCount: number;
  readonly #raw: Map<number, string> | undefined;
  readonly #delays: number[] | undefined;
  readonly #packedDiagnostics: (number | string)[] | undefined;
  readonly #maxAgents: number;
  #diagnostics: readonly Diagnostic[] | undefined;
  /** Agent (as passed) → its rules. */
  #agents: Map<string, SelectedRules> | undefined;
  /** Selected groups (`'1,4'`) → compiled rules, shared across agents. */
  #compiled: Map<string, CompiledRules> | undefined;

  constructor(scan: ScanResult, parsedBytes: number, truncated: boolean, maxAgents: number) {
    this.parsedBytes = parsedBytes;
    this.truncated = truncated;
    this.sitemaps = Object.isFrozen(scan.sitemaps) ? scan.sitemaps : Object.freeze(scan.sitemaps);
    this.#text = scan.text;
    this.#nums = scan.nums;
    this.#ruleCount = scan.ruleCount;
    this.#entryCount = scan.entryCount;
    this.#groupCount = scan.groupCount;
    this.#raw = scan.rawPatterns;
    this.#delays = scan.delays;
    this.#packedDiagnostics = scan.diagnostics;
    this.#maxAgents = maxAgents;
  }

  get diagnostics(): readonly Diagnostic[] {
    return (this.#diagnostics ??= materializeDiagnostics(this.#packedDiagnostics));
  }

  isAllowed(url: string | URL, agent: Agent): boolean {
    const rules = typeof agent === 'string' ? this.#agents?.get(agent) : undefined;
    return (rules ?? this.#rulesFor(agent)).allowsPath(toMatchPath(url));
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
    const R = this.#ruleCount;
    const nums = this.#nums;
    const normalizedPattern = this.#text.slice(nums[r]!, nums[r + 1]!);
    const info = nums[R + 1 + r]!;
    return Object.freeze({
      kind: (info & 1) === 1 ? 'allow' : 'disallow',
      pattern: this.#raw?.get(r) ?? normalizedPattern,
      normalizedPattern,
      line: info >>> 1,
    });
  }

  #rulesFor(agent: Agent): SelectedRules {
    const key =
      typeof agent === 'string'
        ? agent
        : typeof agent === 'object' && agent !== null
          ? `\u0000${String(agent.productToken)}\u0000${String(agent.purpose)}`
          : undefined;
    if (key !== undefined) {
      const cached = this.#agents?.get(key);
      if (cached !== undefined) return cached;
    }
    const { product, purpose } = normalizeAgent(agent);
    const rules = this.#select(product, purpose);
    const agents = (this.#agents ??= new Map());
    if (agents.size >= this.#maxAgents) agents.delete(agents.keys().next().value!);
    agents.set(key!, rules);
    return rules;
  }

  #select(product: string, purpose: string | undefined): SelectedRules {
    let selection: GroupSelection = 'product';
    let entries = this.#findEntries(ENTRY_PRODUCT + product);
    if (entries.length === 0 && purpose !== undefined) {
      selection = 'purpose';
      entries = this.#findEntries(ENTRY_PURPOSE + purpose);
    }
    if (entries.length === 0) {
      selection = 'global';
      entries = this.#findEntries(ENTRY_PRODUCT + '*');
    }
    if (entries.length === 0) return new SelectedRules(this, 'none', NO_LINES, undefined, undefined);

    const R = this.#ruleCount;
    const E = this.#entryCount;
    const G = this.#groupCount;
    const nums = this.#nums;
    const entryLineAt = 2 * R + 1 + E;
    const groupEntryAt = 2 * R + 1 + 2 * E;
    const groupRuleAt = groupEntryAt + G + 1;

    const groups: number[] = [];
    const entryGroups: number[] = [];
    for (const e of entries) {
      // The group whose entry range holds e (groupEntryStart is sorted).
      let lo = 0;
      let hi = G - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (nums[groupEntryAt + mid]! <= e) lo = mid;
        else hi = mid - 1;
      }
      entryGroups.push(lo);
      if (groups[groups.length - 1] !== lo) groups.push(lo);
    }

    const lines: number[] = [];
    const ranges: [number, number][] = [];
    for (const g of groups) {
      for (let e = nums[groupEntryAt + g]!; e < nums[groupEntryAt + g + 1]!; e++) {
        lines.push(nums[entryLineAt + e]!);
      }
      ranges.push([nums[groupRuleAt + g]!, nums[groupRuleAt + g + 1]!]);
    }

    let crawlDelay: number | undefined;
    const delays = this.#delays;
    if (delays !== undefined) {
      for (let i = 0; i < entries.length; i++) {
        const e = entries[i]!;
        const g = entryGroups[i]!;
        for (let d = 0; d < delays.length; d += 3) {
          // A crawl-delay applies to the agent lines of its group above it.
          if (delays[d] === g && delays[d + 1]! > e) {
            const seconds = delays[d + 2]!;
            if (crawlDelay === undefined || seconds > crawlDelay) crawlDelay = seconds;
          }
        }
      }
    }

    const signature = groups.join(',');
    const compiledCache = (this.#compiled ??= new Map());
    let compiled = compiledCache.get(signature);
    if (compiled === undefined) {
      const table: RuleTable = { text: this.#text, nums, ruleStartAt: 0, ruleInfoAt: R + 1 };
      compiled = compileRules(table, ranges);
      if (compiledCache.size >= this.#maxAgents) compiledCache.delete(compiledCache.keys().next().value!);
      compiledCache.set(signature, compiled);
    }
    return new SelectedRules(this, selection, Object.freeze(lines), crawlDelay, compiled);
  }

  /** Indices of the entries equal to `entry` (kind character + lower-cased token). */
  #findEntries(entry: string): number[] {
    const text = this.#text;
    const R = this.#ruleCount;
    const E = this.#entryCount;
    const nums = this.#nums;
    const entriesEnd = E === 0 ? 0 : nums[0]!; // the first pattern starts after the entries
    const needle = '\n' + entry + '\n';
    const found: number[] = [];
    const entryStartAt = 2 * R + 1;
    let from = 0;
    for (;;) {
      const at = text.indexOf(needle, from);
      if (at < 0 || at >= entriesEnd) break;
      // Entry whose kind character is at at + 1.
      let lo = 0;
      let hi = E - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (nums[entryStartAt + mid]! <= at + 1) lo = mid;
        else hi = mid - 1;
      }
      found.push(lo);
      from = at + needle.length - 1;
    }
    return found;
  }
}
