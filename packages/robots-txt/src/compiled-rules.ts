import { normalizePattern } from './normalize-pattern.js';
import { wildcardMatch, wildcardSegments } from './pattern-match.js';
import { PrefixIndex } from './prefix-index.js';
import type { RuleRanges, RuleTable } from './rule-table.js';
import { WILDCARD_BUDGET, WildcardSweep } from './wildcard-sweep.js';

const FLAG_ALLOW = 1;
/** The pattern ended in `$`. */
const FLAG_ANCHORED = 2;
/** The pattern holds a `*`. */
const FLAG_WILDCARD = 4;
/**
 * Rule sets larger than this get a {@link PrefixIndex} once they have answered
 * {@link INDEX_AFTER} queries; until then, and always for smaller sets, the rules are read
 * in decision order. Sorting thousands of prefixes costs more than a few scans: a large
 * file asked once (the cold row of the benchmark) never pays for it.
 */
const INDEXED = 64;
const INDEX_AFTER = 3;

/**
 * The rules of the groups selected for an agent, compiled once, on the agent's first query.
 *
 * The one representation: the rules in decision order — longest normalised pattern first
 * (RFC 9309 §2.2.2 "most octets"), `allow` before `disallow` on equal length, then file
 * order — so that the first rule that matches decides — each with its literal prefix (the
 * pattern up to its first `*`, or all of it). A query reads them in order and tests only
 * the rules whose prefix the path starts with; a large set that keeps being asked adds a
 * {@link PrefixIndex} over the same prefixes, which hands it those rules directly, in the
 * same order. A rule without `*` whose prefix the path starts with matches
 * at once (or, ending in `$`, when the path is exactly as long); a rule with `*` is tested
 * with `wildcardMatch`, which never backtracks.
 *
 * The hostile-input guard: each wildcard rule tested is charged the path's length (what
 * its `indexOf` calls may read) against {@link WILDCARD_BUDGET}; once a query has spent it,
 * its remaining wildcard rules are decided together by one {@link WildcardSweep} over the
 * path, so a file of thousands of `/*…` rules cannot make a query cost rules × path. The
 * sweep's automaton is built the first time it is needed, and never for ordinary files.
 */
export class CompiledRules {
  /** Number of rules. */
  readonly size: number;
  readonly #file: RuleTable;
  /** File index of each rule, in decision order. */
  readonly #fileIndex: number[];
  /** `FLAG_*` of each rule, in decision order. */
  readonly #flags: number[];
  /** Literal prefix of each rule: the pattern up to its first `*` or final `$`. */
  readonly #prefixes: string[];
  /** Length of each rule's pattern without its final `$`, in decision order. */
  readonly #lengths: number[];
  /** Pieces between `*` of each wildcard rule (first and last kept even when empty). */
  readonly #segments: (readonly string[] | undefined)[];
  #index: PrefixIndex | undefined = undefined;
  #queries = 0;
  readonly #wildcardBudget: number;
  readonly #test = (position: number): boolean => this.#matches(position);
  #sweep: WildcardSweep | undefined = undefined;
  /** Every wildcard rule, as the sweep numbers them: all are its candidates. */
  #everyWildcard: Uint32Array = new Uint32Array(0);
  #sweeps = 0;
  // The current query, while the index calls back into #matches.
  #path = '';
  /** What the query may still spend on testing wildcard rules one by one. */
  #budget = 0;
  /** The query's wildcard rules are answered by the sweep. */
  #swept = false;

  /**
   * @param options.wildcardBudget Overrides {@link WILDCARD_BUDGET} (tests force the sweep
   *   with 0, or rule it out with Infinity).
   */
  constructor(file: RuleTable, ranges: RuleRanges, options?: { wildcardBudget?: number }) {
    this.#file = file;
    this.#wildcardBudget = options?.wildcardBudget ?? WILDCARD_BUDGET;
    const { text, table, ruleStartAt, ruleInfoAt, normalized } = file;
    const patterns: string[] = [];
    const rules: number[] = [];
    for (const [from, to] of ranges) {
      for (let r = from; r < to; r++) {
        const written = text.slice(table[ruleStartAt + r], table[ruleStartAt + r + 1]);
        patterns.push(normalized ? written : normalizePattern(written));
        rules.push(r);
      }
    }
    const n = patterns.length;
    const allows = rules.map((r) => table[ruleInfoAt + r]! & 1);
    const order = sortedByPrecedence(patterns, allows);
    this.size = n;
    this.#fileIndex = [];
    this.#flags = [];
    this.#lengths = [];
    this.#segments = [];
    const prefixes: string[] = [];
    for (let i = 0; i < n; i++) {
      const k = order[i]!;
      let body = patterns[k]!;
      let flags = allows[k] === 1 ? FLAG_ALLOW : 0;
      if (body.endsWith('$')) {
        flags |= FLAG_ANCHORED;
        body = body.slice(0, -1);
      }
      let prefix = body;
      if (body.includes('*')) {
        flags |= FLAG_WILDCARD;
        const segments = wildcardSegments(body);
        this.#segments.push(segments);
        prefix = segments[0]!;
      }
      this.#fileIndex.push(rules[k]!);
      this.#flags.push(flags);
      this.#lengths.push(body.length);
      prefixes.push(prefix);
      if ((flags & FLAG_WILDCARD) === 0) this.#segments.push(undefined);
    }
    this.#prefixes = prefixes;
  }

  /** True when `path` (a normalised match path) is allowed: no rule, or an allow rule, decides. */
  allows(path: string): boolean {
    const position = this.#firstMatch(path);
    return position < 0 || (this.#flags[position]! & FLAG_ALLOW) !== 0;
  }

  /** File index of the rule that decides `path`, or -1 when no rule matches. */
  decide(path: string): number {
    const position = this.#firstMatch(path);
    return position < 0 ? -1 : this.#fileIndex[position]!;
  }

  /** True when rule `r` (a file index) is an `allow` rule. */
  isAllow(r: number): boolean {
    const file = this.#file;
    return (file.table[file.ruleInfoAt + r]! & 1) === 1;
  }

  /** @internal Queries whose wildcard rules were decided by a sweep (for tests). */
  get sweeps(): number {
    return this.#sweeps;
  }

  /** Position (decision order) of the deciding rule for `path`, or -1 when none matches. */
  #firstMatch(path: string): number {
    this.#path = path;
    this.#budget = this.#wildcardBudget;
    this.#swept = false;
    let found = -1;
    let index = this.#index;
    if (index === undefined && this.size > INDEXED && ++this.#queries > INDEX_AFTER)
      index = this.#index = new PrefixIndex(this.#prefixes);
    if (index !== undefined) {
      found = index.firstMatch(path, this.#test);
    } else {
      const prefixes = this.#prefixes;
      for (let i = 0; i < prefixes.length; i++) {
        if (path.startsWith(prefixes[i]!) && this.#matches(i)) {
          found = i;
          break;
        }
      }
    }
    this.#path = '';
    return found;
  }

  /** Whether the rule at `position`, whose literal prefix the path starts with, matches it. */
  #matches(position: number): boolean {
    const flags = this.#flags[position]!;
    const path = this.#path;
    if ((flags & FLAG_WILDCARD) === 0) {
      return (flags & FLAG_ANCHORED) === 0 || path.length === this.#lengths[position];
    }
    if (!this.#swept && (this.#budget -= path.length) < 0) this.#sweepPath(path);
    if (this.#swept) return this.#sweep!.matches(position);
    return wildcardMatch(this.#segments[position]!, (flags & FLAG_ANCHORED) !== 0, true, path);
  }

  /** Decides every wildcard rule against `path` in one sweep; the query reads them from it. */
  #sweepPath(path: string): void {
    const sweep = (this.#sweep ??= this.#buildSweep());
    sweep.run(path, this.#everyWildcard, this.#everyWildcard.length);
    this.#swept = true;
    this.#sweeps++;
  }

  #buildSweep(): WildcardSweep {
    const positions: number[] = [];
    const segments: (readonly string[])[] = [];
    const anchored: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const kept = this.#segments[i];
      if (kept === undefined) continue;
      positions.push(i);
      segments.push(kept);
      anchored.push((this.#flags[i]! & FLAG_ANCHORED) !== 0 ? 1 : 0);
    }
    this.#everyWildcard = Uint32Array.from(positions, (_, w) => w);
    return new WildcardSweep(
      Uint32Array.from(positions),
      segments,
      Uint8Array.from(anchored),
      this.size,
    );
  }
}

/**
 * The places of the rules, most specific first: longer pattern, then allow, then earlier in
 * the file.
 * @example
 * sortedByPrecedence(['/a', '/ab', '/a'], Uint8Array.of(0, 0, 1)); // [1, 2, 0]
 */
export function sortedByPrecedence(
  patterns: readonly string[],
  allows: ArrayLike<number>,
): number[] {
  const keys = patterns.map((pattern, k) => pattern.length * 2 + allows[k]!);
  // Array.prototype.sort is stable: equal keys keep file order.
  return keys.map((_, k) => k).sort((a, b) => keys[b]! - keys[a]!);
}
