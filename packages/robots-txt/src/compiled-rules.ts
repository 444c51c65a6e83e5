import { directMatch, OVER_BUDGET } from './direct-match.js';
import { normalizePattern } from './normalize-pattern.js';
import { tableAt } from './number-table.js';
import { hasPrefix, wildcardMatch, wildcardSegments } from './pattern-match.js';
import { PrefixIndex } from './prefix-index.js';
import type { RuleRanges, RuleTable } from './rule-table.js';
import { WILDCARD_BUDGET, WildcardSweep } from './wildcard-sweep.js';

// Bits of a rule's packed word: flags, then the literal characters at indices 1, 2 and 3 of
// the pattern (0 where its literal prefix is shorter), 7 bits each.
const FLAG_ALLOW = 1;
const FLAG_ANCHORED = 2;
const FLAG_WILDCARD = 4;
/** The literal prefix is '/' plus at most the three probed characters: probes decide it. */
const FLAG_SHORT_PREFIX = 8;
/** The literal prefix starts with '/' (as every path does): probes checked its first 4 characters. */
const FLAG_SLASH = 16;
const PROBE_SHIFT = 5;

/**
 * Queries answered straight from the file's text ({@link directMatch}) before the rules
 * are compiled. A crawler that asks once per origin (or per agent) never pays for
 * compiling; one that keeps asking gets the compiled form from the next query on.
 */
const DIRECT_QUERIES = 1;
/** Rule sets up to this size are scanned in order. */
const SMALL = 16;
/**
 * Rule sets larger than this are searched through a {@link PrefixIndex}, built once the
 * set has answered INDEX_AFTER compiled queries (sorting thousands of prefixes would cost
 * more than a few scans); until then, and for sets between SMALL and LARGE, rules are
 * bucketed.
 */
const LARGE = 128;
const INDEX_AFTER = 3;

/** What `#direct` returns when the compiled rules are to answer. */
const COMPILED = -2;

const NO_POSITIONS = new Uint32Array(0);
const NO_BIGRAMS = new Int32Array(0);

/**
 * The rules of the groups selected for an agent. The first {@link DIRECT_QUERIES} queries
 * are decided from the file's text as it is (unless one would spend more than
 * {@link WILDCARD_BUDGET} on wildcard rules); then the rules are compiled, in place, into
 * decision order: longest normalised pattern first (RFC 9309 §2.2.2 "most octets"),
 * `allow` before `disallow` on equal length, then file order — so the first rule that
 * matches decides. Matching never backtracks (see `wildcardMatch`).
 *
 * Compiled layout, for speed on a cold cache: one array holds, per rule, its pattern body
 * (without a final `$`), a packed word (flags and the three literal "probe" characters
 * after the leading '/') and the mask of the probes that are set; the path's own three
 * characters are packed once per query, so most rules are rejected by one AND and one
 * compare. Larger sets add buckets by the second character (17–128 rules) or a
 * {@link PrefixIndex} (more), and 64-bit bigram masks that reject most wildcard rules in
 * two word operations.
 *
 * Wildcard rules that pass those filters are tested one by one, each with `indexOf` scans
 * of the path, until a query has spent {@link WILDCARD_BUDGET} on them; the rest of that
 * query's wildcard tests are then answered by one {@link WildcardSweep} over the path,
 * which decides all the wildcard rules at once (a file of thousands of `/*…` rules cannot
 * make a query cost rules × path). The sweep's automaton is built the first time it is
 * needed, and never for ordinary files.
 */
export class CompiledRules {
  /** Number of rules. */
  readonly size: number;
  readonly #file: RuleTable;
  readonly #ranges: RuleRanges;
  readonly #wildcardBudget: number;
  #compiled = false;
  /** Queries answered: directly at first, then compiled ones until the index is built. */
  #queries = 0;
  /** File index of each rule, in decision order. */
  #ruleIndex: Uint32Array = NO_POSITIONS;
  /** `[body0, word0, mask0, body1, …]` in decision order. */
  #items: (string | number)[] = [];
  /** Pieces between `*` of the wildcard rules (first and last kept even when empty). */
  #segments: (readonly string[] | undefined)[] = [];
  /** Bigram masks of the wildcard rules (low and high word, interleaved); empty if none. */
  #bigrams: Int32Array = NO_BIGRAMS;
  /** Positions by the pattern's second character (bucketed sets only). */
  #buckets: readonly (Uint32Array | undefined)[] | undefined = undefined;
  /** Positions without a literal second character (bucketed sets only). */
  #generic: Uint32Array = NO_POSITIONS;
  #index: PrefixIndex | undefined = undefined;
  #testAt: ((position: number) => boolean) | undefined = undefined;
  /** The path and its probe word, while the prefix index calls back into #test. */
  #path = '';
  #probe = 0;
  /** The bigrams of the last path hashed. */
  #hashed = '';
  #pathLo = 0;
  #pathHi = 0;
  /** What the current query may still spend on testing wildcard rules one by one. */
  #budget = 0;
  /** The current query's wildcard rules are answered by the sweep. */
  #swept = false;
  #sweep: WildcardSweep | undefined = undefined;
  /** Positions of the wildcard rules, and room for the candidates of one sweep. */
  #wildcards: Uint32Array = NO_POSITIONS;
  #candidates: Uint32Array = NO_POSITIONS;
  #sweeps = 0;

  /**
   * @param options.wildcardBudget Overrides {@link WILDCARD_BUDGET} (tests force the sweep
   *   with 0, or rule it out with Infinity).
   */
  constructor(file: RuleTable, ranges: RuleRanges, options?: { wildcardBudget?: number }) {
    this.#file = file;
    this.#ranges = ranges;
    this.#wildcardBudget = options?.wildcardBudget ?? WILDCARD_BUDGET;
    let size = 0;
    for (const [from, to] of ranges) size += to - from;
    this.size = size;
  }

  /** True when `path` (a normalised match path) is allowed: no rule, or an allow rule, decides. */
  allows(path: string): boolean {
    if (!this.#compiled) {
      const r = this.#direct(path);
      if (r !== COMPILED) return r < 0 || this.isAllow(r);
    }
    const position = this.#firstMatch(path);
    return position < 0 || ((this.#items[3 * position + 1] as number) & FLAG_ALLOW) !== 0;
  }

  /** File index of the rule that decides `path`, or -1 when no rule matches. */
  decide(path: string): number {
    if (!this.#compiled) {
      const r = this.#direct(path);
      if (r !== COMPILED) return r;
    }
    const position = this.#firstMatch(path);
    return position < 0 ? -1 : this.#ruleIndex[position]!;
  }

  /** @internal Queries whose wildcard rules were decided by a sweep (for tests). */
  get sweeps(): number {
    return this.#sweeps;
  }

  /** @internal True once the rules are compiled (for tests). */
  get compiled(): boolean {
    return this.#compiled;
  }

  /** True when rule `r` (a file index) is an `allow` rule. */
  isAllow(r: number): boolean {
    const file = this.#file;
    return (tableAt(file.table, file.ruleInfoAt + r) & 1) === 1;
  }

  /**
   * The direct answer while queries remain for it and it stays within the wildcard budget;
   * else compiles and returns {@link COMPILED}.
   */
  #direct(path: string): number {
    if (this.#queries < DIRECT_QUERIES) {
      this.#queries++;
      const r = directMatch(this.#file, this.#ranges, path, this.#wildcardBudget);
      if (r !== OVER_BUDGET) return r;
    }
    this.#compile();
    return COMPILED;
  }

  /** Position (decision order) of the deciding rule for `path`, or -1 when none matches. */
  #firstMatch(path: string): number {
    // The path's characters 1..3, packed like a rule's probes (a missing one reads as 0).
    const probe =
      (path.charCodeAt(1) & 0x7f) |
      ((path.charCodeAt(2) & 0x7f) << 7) |
      ((path.charCodeAt(3) & 0x7f) << 14);
    this.#budget = this.#wildcardBudget;
    this.#swept = false;
    let index = this.#index;
    if (index === undefined && this.size > LARGE && ++this.#queries > INDEX_AFTER) {
      index = this.#index = this.#buildIndex();
    }
    if (index !== undefined) {
      this.#path = path;
      this.#probe = probe;
      const found = index.firstMatch(
        path,
        (this.#testAt ??= (position) => this.#test(position, this.#path, this.#probe)),
      );
      this.#path = '';
      return found;
    }
    const buckets = this.#buckets;
    if (buckets === undefined) {
      const n = this.size;
      for (let i = 0; i < n; i++) if (this.#test(i, path, probe)) return i;
      return -1;
    }
    const generic = this.#generic;
    const gl = generic.length;
    const c = probe & 0x7f;
    const bucket = c === 0 ? undefined : buckets[c];
    if (bucket === undefined) {
      for (let j = 0; j < gl; j++) if (this.#test(generic[j]!, path, probe)) return generic[j]!;
      return -1;
    }
    const bl = bucket.length;
    let i = 0;
    let j = 0;
    // Merge the two lists in decision order.
    while (i < bl) {
      const b = bucket[i]!;
      while (j < gl && generic[j]! < b) {
        if (this.#test(generic[j]!, path, probe)) return generic[j]!;
        j++;
      }
      if (this.#test(b, path, probe)) return b;
      i++;
    }
    for (; j < gl; j++) if (this.#test(generic[j]!, path, probe)) return generic[j]!;
    return -1;
  }

  #test(position: number, path: string, probe: number): boolean {
    const items = this.#items;
    const k = 3 * position;
    const word = items[k + 1] as number;
    if ((probe & (items[k + 2] as number)) !== word >>> PROBE_SHIFT) return false;
    if ((word & FLAG_WILDCARD) !== 0) {
      const bigrams = this.#bigrams;
      if (bigrams.length > 0) {
        const lo = bigrams[2 * position]!;
        const hi = bigrams[2 * position + 1]!;
        if ((lo | hi) !== 0) {
          if (this.#hashed !== path) this.#hashPath(path);
          if (((lo & ~this.#pathLo) | (hi & ~this.#pathHi)) !== 0) return false;
        }
      }
      if (this.#swept) return this.#sweep!.matches(position);
      if ((this.#budget -= path.length) < 0) {
        this.#sweepPath(path, probe);
        return this.#sweep!.matches(position);
      }
      return wildcardMatch(
        this.#segments[position]!,
        (word & FLAG_ANCHORED) !== 0,
        (word & FLAG_SHORT_PREFIX) !== 0,
        path,
      );
    }
    if ((word & FLAG_ANCHORED) !== 0) return path === items[k];
    if ((word & FLAG_SHORT_PREFIX) !== 0) return true;
    return hasPrefix(path, items[k] as string, (word & FLAG_SLASH) !== 0 ? 4 : 0);
  }

  /** False when `path` lacks a bigram of wildcard rule `position` (bigram masks exist). */
  #hasBigrams(position: number, path: string): boolean {
    const bigrams = this.#bigrams;
    const lo = bigrams[2 * position]!;
    const hi = bigrams[2 * position + 1]!;
    if ((lo | hi) === 0) return true;
    if (this.#hashed !== path) this.#hashPath(path);
    return ((lo & ~this.#pathLo) | (hi & ~this.#pathHi)) === 0;
  }

  /**
   * Decides every wildcard rule that passes the probe and bigram filters against `path` in
   * one sweep; the rest of the query reads the verdicts from it.
   */
  #sweepPath(path: string, probe: number): void {
    const sweep = (this.#sweep ??= this.#buildSweep());
    const wildcards = this.#wildcards;
    const candidates = this.#candidates;
    const items = this.#items;
    const hasBigrams = this.#bigrams.length > 0;
    let count = 0;
    for (let w = 0; w < wildcards.length; w++) {
      const position = wildcards[w]!;
      const k = 3 * position;
      if ((probe & (items[k + 2] as number)) !== (items[k + 1] as number) >>> PROBE_SHIFT) continue;
      if (hasBigrams && !this.#hasBigrams(position, path)) continue;
      candidates[count++] = w;
    }
    sweep.run(path, candidates, count);
    this.#swept = true;
    this.#sweeps++;
  }

  #buildSweep(): WildcardSweep {
    const items = this.#items;
    const positions: number[] = [];
    const segments: (readonly string[])[] = [];
    const anchored: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const kept = this.#segments[i];
      if (kept === undefined) continue;
      positions.push(i);
      segments.push(kept);
      anchored.push(((items[3 * i + 1] as number) & FLAG_ANCHORED) !== 0 ? 1 : 0);
    }
    this.#wildcards = Uint32Array.from(positions);
    this.#candidates = new Uint32Array(positions.length);
    return new WildcardSweep(this.#wildcards, segments, Uint8Array.from(anchored), this.size);
  }

  #hashPath(path: string): void {
    let lo = 0;
    let hi = 0;
    let previous = path.charCodeAt(0);
    for (let k = 1; k < path.length; k++) {
      const c = path.charCodeAt(k);
      const h = bigram(previous, c);
      if (h < 32) lo |= 1 << h;
      else hi |= 1 << (h - 32);
      previous = c;
    }
    this.#pathLo = lo;
    this.#pathHi = hi;
    this.#hashed = path;
  }

  #buildIndex(): PrefixIndex {
    const items = this.#items;
    const segments = this.#segments;
    return new PrefixIndex(
      Array.from({ length: this.size }, (_, i) => segments[i]?.[0] ?? (items[3 * i] as string)),
    );
  }

  /** Sorts the rules into decision order and builds the lookup structures. */
  #compile(): void {
    const { text, table, ruleStartAt, ruleInfoAt, normalized } = this.#file;
    const n = this.size;
    // The normalised patterns, and one number per rule, sorted natively: specificity, then
    // allow, then file order (earlier first), packed as
    // ((length * 2 + allow) * slots + (slots - 1 - k)), k being the rule's place in `patterns`
    // and `slots` a power of two above the number of rules. Exact while the packed numbers stay
    // below 2^53 (bodies of tens of megabytes); past that, the same order by comparison.
    const patterns: string[] = new Array<string>(n);
    const rules = new Uint32Array(n);
    const allows = new Uint8Array(n);
    let k = 0;
    let longest = 0;
    for (const [from, to] of this.#ranges) {
      for (let r = from; r < to; r++) {
        const written = text.slice(
          tableAt(table, ruleStartAt + r),
          tableAt(table, ruleStartAt + r + 1),
        );
        const pattern = normalized ? written : normalizePattern(written);
        patterns[k] = pattern;
        rules[k] = r;
        allows[k] = tableAt(table, ruleInfoAt + r) & 1;
        if (pattern.length > longest) longest = pattern.length;
        k++;
      }
    }
    const order = sortedByPrecedence(patterns, allows, longest);
    const ruleIndex = new Uint32Array(n);
    const items: (string | number)[] = new Array<string | number>(3 * n);
    const segments: (readonly string[] | undefined)[] = new Array<readonly string[] | undefined>(n);
    let hasWildcards = false;
    for (let i = 0; i < n; i++) {
      const place = order[i]!;
      const r = rules[place]!;
      ruleIndex[i] = r;
      let body = patterns[place]!;
      let word = (tableAt(table, ruleInfoAt + r) & 1) === 1 ? FLAG_ALLOW : 0;
      if (body.charCodeAt(body.length - 1) === 36) {
        word |= FLAG_ANCHORED;
        body = body.slice(0, -1);
      }
      let literal = body;
      if (body.includes('*')) {
        word |= FLAG_WILDCARD;
        const kept = wildcardSegments(body);
        segments[i] = kept;
        literal = kept[0]!;
        hasWildcards = true;
      }
      // Probes: literal characters 1..3 (patterns are ASCII once normalised), and the mask
      // of those that are set.
      let probes = 0;
      let mask = 0;
      for (let p = 3; p >= 1; p--) {
        const c = p < literal.length ? literal.charCodeAt(p) & 0x7f : 0;
        probes = (probes << 7) | c;
        mask = (mask << 7) | (c === 0 ? 0 : 0x7f);
      }
      word |= probes << PROBE_SHIFT;
      // Paths always start with '/': a literal prefix of '/' and up to 3 more characters is
      // fully checked by the probes.
      if (literal.charCodeAt(0) === 47)
        word |= literal.length <= 4 ? FLAG_SHORT_PREFIX : FLAG_SLASH;
      items[3 * i] = body;
      items[3 * i + 1] = word;
      items[3 * i + 2] = mask;
    }
    this.#ruleIndex = ruleIndex;
    this.#items = items;
    this.#segments = segments;
    if (hasWildcards && n > SMALL) this.#bigrams = bigramMasks(segments);
    if (n > SMALL) this.#bucket();
    this.#queries = 0;
    this.#compiled = true;
  }

  /** Groups the positions by the pattern's second character (sets larger than SMALL). */
  #bucket(): void {
    const items = this.#items;
    const lists: number[][] = [];
    const generic: number[] = [];
    for (let i = 0; i < this.size; i++) {
      const key = ((items[3 * i + 1] as number) >>> PROBE_SHIFT) & 0x7f;
      if (key === 0) generic.push(i);
      else (lists[key] ??= []).push(i);
    }
    const buckets: (Uint32Array | undefined)[] = [];
    for (let c = 0; c < 128; c++) {
      const list = lists[c];
      buckets.push(list === undefined ? undefined : Uint32Array.from(list));
    }
    this.#buckets = buckets;
    this.#generic = Uint32Array.from(generic);
  }
}

/** Hash of two adjacent characters into 0 … 63. */
function bigram(a: number, b: number): number {
  return (a * 7 + b) & 63;
}

/** Per rule, the bigrams its wildcard pieces contain (low and high word, interleaved). */
function bigramMasks(segments: readonly (readonly string[] | undefined)[]): Int32Array {
  const masks = new Int32Array(2 * segments.length);
  for (let i = 0; i < segments.length; i++) {
    let lo = 0;
    let hi = 0;
    for (const piece of segments[i] ?? []) {
      for (let k = 0; k + 1 < piece.length; k++) {
        const h = bigram(piece.charCodeAt(k), piece.charCodeAt(k + 1));
        if (h < 32) lo |= 1 << h;
        else hi |= 1 << (h - 32);
      }
    }
    masks[2 * i] = lo;
    masks[2 * i + 1] = hi;
  }
  return masks;
}

/**
 * The places of the rules, most specific first: longer pattern, then allow, then earlier in
 * the file. One native sort of packed numbers while they are exact, else a comparison sort.
 * @example
 * sortedByPrecedence(['/a', '/ab', '/a'], Uint8Array.of(0, 0, 1), 3); // [1, 2, 0]
 */
export function sortedByPrecedence(
  patterns: readonly string[],
  allows: Uint8Array,
  longest: number,
): Uint32Array {
  const n = patterns.length;
  const order = new Uint32Array(n);
  let slots = 0x200000;
  while (slots <= n) slots *= 2;
  if ((longest * 2 + 2) * slots <= Number.MAX_SAFE_INTEGER) {
    const keys = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      keys[k] = (patterns[k]!.length * 2 + allows[k]!) * slots + (slots - 1 - k);
    }
    keys.sort();
    for (let i = 0; i < n; i++) order[i] = slots - 1 - (keys[n - 1 - i]! % slots);
    return order;
  }
  const places = Array.from({ length: n }, (_, k) => k);
  places.sort(
    (a, b) => patterns[b]!.length - patterns[a]!.length || allows[b]! - allows[a]! || a - b,
  );
  order.set(places);
  return order;
}
