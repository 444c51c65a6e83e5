import { normalizePattern } from './normalize-pattern.js';
import { PrefixIndex } from './prefix-index.js';

/** Where a rule of the file lives, for {@link compileRules}. */
export interface RuleTable {
  readonly text: string;
  /** The number table's value at `i`. */
  readonly at: (i: number) => number;
  /** Index in the table of `ruleStart[0]` (rule r's pattern is `text[ruleStart[r], ruleStart[r+1])`). */
  readonly ruleStartAt: number;
  /** Index in the table of `ruleInfo[0]` (`line * 2 + allow`). */
  readonly ruleInfoAt: number;
  /** The patterns in `text` are normalised already (else: as written, pure ASCII). */
  readonly normalized: boolean;
}

// Bits of a rule's packed word: flags, then the literal characters at indices 1, 2 and 3 of
// the pattern (0 where its literal prefix is shorter), 7 bits each.
const FLAG_ALLOW = 1;
const FLAG_ANCHORED = 2;
const FLAG_WILDCARD = 4;
/** The literal prefix is '/' plus at most the three probed characters: probes decide it. */
const FLAG_SHORT_PREFIX = 8;
const PROBE_SHIFT = 4;

/** Rule sets up to this size are scanned in order. */
const SMALL = 16;
/**
 * Rule sets larger than this are searched through a {@link PrefixIndex}, built once the
 * set has answered INDEX_AFTER queries (sorting thousands of prefixes would cost more than
 * a few scans); until then, and for sets between SMALL and LARGE, rules are bucketed.
 */
const LARGE = 128;
const INDEX_AFTER = 3;

/**
 * The rules of the selected groups, sorted so that the first rule that matches decides:
 * longest normalised pattern first (RFC 9309 §2.2.2 "most octets"), `allow` before
 * `disallow` on equal length, then file order. Matching never backtracks: a pattern is
 * split at `*` and its pieces are found left to right, each at its leftmost place, which
 * is exact for `*`-only globs; cost is at most O(pattern × path) per rule.
 *
 * Layout, for speed on a cold cache: one array holds, per rule, its pattern body (without
 * a final `$`) and a packed word (flags and three literal "probe" characters that reject
 * most rules without a string call). Larger sets add buckets by the second character
 * (17–128 rules) or a {@link PrefixIndex} (more), and 64-bit bigram masks that reject
 * most wildcard rules in two word operations.
 */
export class CompiledRules {
  /** Rule index in the file, in decision order. */
  readonly ruleIndex: Uint32Array;
  /** `[body0, word0, body1, word1, …]` in decision order. */
  readonly #items: (string | number)[];
  /** Pieces between `*` of the wildcard rules (first and last kept even when empty). */
  readonly #segments: (readonly string[] | undefined)[];
  /** Bigram masks of the wildcard rules (low and high word, interleaved); empty if none. */
  readonly #bigrams: Int32Array;
  /** Positions by the pattern's second character (bucketed sets only). */
  readonly #buckets: readonly (Uint32Array | undefined)[] | undefined;
  /** Positions without a literal second character (bucketed sets), or all (small sets). */
  readonly #generic: Uint32Array;
  #index: PrefixIndex | undefined;
  #queries = 0;
  #testAt: ((position: number) => boolean) | undefined;
  #path = '';
  /** The bigrams of the last path hashed. */
  #hashed = '';
  #pathLo = 0;
  #pathHi = 0;

  constructor(
    ruleIndex: Uint32Array,
    items: (string | number)[],
    segments: (readonly string[] | undefined)[],
  ) {
    this.ruleIndex = ruleIndex;
    this.#items = items;
    this.#segments = segments;
    const n = ruleIndex.length;

    let hasWildcards = false;
    for (let i = 0; i < n; i++) if (segments[i] !== undefined) hasWildcards = true;
    this.#bigrams = hasWildcards && n > SMALL ? new Int32Array(2 * n) : NO_BIGRAMS;
    if (this.#bigrams.length > 0) {
      for (let i = 0; i < n; i++) {
        let lo = 0;
        let hi = 0;
        for (const piece of segments[i] ?? []) {
          for (let k = 0; k + 1 < piece.length; k++) {
            const h = bigram(piece.charCodeAt(k), piece.charCodeAt(k + 1));
            if (h < 32) lo |= 1 << h;
            else hi |= 1 << (h - 32);
          }
        }
        this.#bigrams[2 * i] = lo;
        this.#bigrams[2 * i + 1] = hi;
      }
    }

    this.#index = undefined;
    this.#buckets = undefined;
    if (n <= SMALL) {
      this.#generic = SEQUENCES[n]!;
    } else {
      const lists: number[][] = [];
      const generic: number[] = [];
      for (let i = 0; i < n; i++) {
        const key = ((items[2 * i + 1] as number) >>> PROBE_SHIFT) & 0x7f;
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

  get size(): number {
    return this.ruleIndex.length;
  }

  /** True when the rule at `position` (decision order) is an `allow` rule. */
  isAllow(position: number): boolean {
    return ((this.#items[2 * position + 1] as number) & FLAG_ALLOW) !== 0;
  }

  /** Position (decision order) of the deciding rule for `path`, or -1 when none matches. */
  firstMatch(path: string): number {
    let index = this.#index;
    if (index === undefined && this.ruleIndex.length > LARGE && ++this.#queries > INDEX_AFTER) {
      const items = this.#items;
      const segments = this.#segments;
      index = this.#index = new PrefixIndex(
        Array.from(
          { length: this.ruleIndex.length },
          (_, i) => segments[i]?.[0] ?? (items[2 * i] as string),
        ),
      );
    }
    if (index !== undefined) {
      this.#path = path;
      const found = index.firstMatch(
        path,
        (this.#testAt ??= (position) => this.#test(position, this.#path)),
      );
      this.#path = '';
      return found;
    }
    const generic = this.#generic;
    const gl = generic.length;
    const buckets = this.#buckets;
    if (buckets === undefined) {
      for (let j = 0; j < gl; j++) if (this.#test(generic[j]!, path)) return generic[j]!;
      return -1;
    }
    const c = path.length >= 2 ? path.charCodeAt(1) : 128;
    const bucket = c < 128 ? buckets[c] : undefined;
    if (bucket === undefined) {
      for (let j = 0; j < gl; j++) if (this.#test(generic[j]!, path)) return generic[j]!;
      return -1;
    }
    const bl = bucket.length;
    let i = 0;
    let j = 0;
    // Merge the two lists in decision order.
    while (i < bl) {
      const b = bucket[i]!;
      while (j < gl && generic[j]! < b) {
        if (this.#test(generic[j]!, path)) return generic[j]!;
        j++;
      }
      if (this.#test(b, path)) return b;
      i++;
    }
    for (; j < gl; j++) if (this.#test(generic[j]!, path)) return generic[j]!;
    return -1;
  }

  #test(position: number, path: string): boolean {
    const items = this.#items;
    const word = items[2 * position + 1] as number;
    const probes = word >>> PROBE_SHIFT;
    if (probes !== 0) {
      const a = probes & 0x7f;
      if (a !== 0 && path.charCodeAt(1) !== a) return false;
      const b = (probes >>> 7) & 0x7f;
      if (b !== 0 && path.charCodeAt(2) !== b) return false;
      const c = probes >>> 14;
      if (c !== 0 && path.charCodeAt(3) !== c) return false;
    }
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
      return wildcardMatch(
        this.#segments[position]!,
        (word & FLAG_ANCHORED) !== 0,
        (word & FLAG_SHORT_PREFIX) !== 0,
        path,
      );
    }
    if ((word & FLAG_ANCHORED) !== 0) return path === items[2 * position];
    return (word & FLAG_SHORT_PREFIX) !== 0 || path.startsWith(items[2 * position] as string);
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
}

const NO_BIGRAMS = new Int32Array(0);
/** `[0, 1, …, n - 1]` for the small sets. */
const SEQUENCES: readonly Uint32Array[] = Array.from({ length: SMALL + 1 }, (_, n) =>
  Uint32Array.from({ length: n }, (_, i) => i),
);

/** Hash of two adjacent characters into 0 … 63. */
function bigram(a: number, b: number): number {
  return (a * 7 + b) & 63;
}

/**
 * True when `path` matches the pattern whose pieces between `*` are `segments` (first and
 * last always present, possibly empty; empty middle pieces removed), anchored at the end
 * when the pattern ended in `$`. `prefixChecked`: the caller knows the path starts with
 * the first piece.
 */
export function wildcardMatch(
  segments: readonly string[],
  anchored: boolean,
  prefixChecked: boolean,
  path: string,
): boolean {
  const first = segments[0]!;
  if (!prefixChecked && !path.startsWith(first)) return false;
  const last = segments.length - 1;
  const tail = segments[last]!;
  // The end is cheap to check first, and most anchored patterns fail there.
  if (anchored && !path.endsWith(tail)) return false;
  let pos = first.length;
  for (let k = 1; k < last; k++) {
    const piece = segments[k]!;
    const at = path.indexOf(piece, pos);
    if (at < 0) return false;
    pos = at + piece.length;
  }
  if (anchored) return path.length - tail.length >= pos;
  return tail.length === 0 || path.indexOf(tail, pos) >= 0;
}

/** Compiles the rules `[from, to)` ranges of the file into decision order. */
export function compileRules(
  table: RuleTable,
  ranges: readonly (readonly [number, number])[],
): CompiledRules {
  const { text, at, ruleStartAt, ruleInfoAt, normalized } = table;
  let n = 0;
  for (const [from, to] of ranges) n += to - from;
  // The normalised patterns, and one number per rule, sorted natively: specificity, then
  // allow, then file order (earlier first), packed as
  // ((length * 2 + allow) * 2^21 + (2^21 - 1 - k)), k being the rule's place in `patterns`.
  const patterns: string[] = new Array<string>(n);
  const rules = new Uint32Array(n);
  const keys = new Float64Array(n);
  let k = 0;
  for (const [from, to] of ranges) {
    for (let r = from; r < to; r++) {
      const written = text.slice(at(ruleStartAt + r), at(ruleStartAt + r + 1));
      const pattern = normalized ? written : normalizePattern(written);
      patterns[k] = pattern;
      rules[k] = r;
      keys[k] = (pattern.length * 2 + (at(ruleInfoAt + r) & 1)) * 0x200000 + (0x1fffff - k);
      k++;
    }
  }
  keys.sort();
  const indices = new Uint32Array(n);
  const items: (string | number)[] = new Array<string | number>(2 * n);
  const segments: (readonly string[] | undefined)[] = new Array<readonly string[] | undefined>(n);
  for (let i = 0; i < n; i++) {
    const place = 0x1fffff - (keys[n - 1 - i]! % 0x200000);
    const r = rules[place]!;
    indices[i] = r;
    let body = patterns[place]!;
    let word = (at(ruleInfoAt + r) & 1) === 1 ? FLAG_ALLOW : 0;
    if (body.charCodeAt(body.length - 1) === 36) {
      word |= FLAG_ANCHORED;
      body = body.slice(0, -1);
    }
    let literal = body;
    if (body.includes('*')) {
      word |= FLAG_WILDCARD;
      const pieces = body.split('*');
      const kept = [pieces[0]!];
      for (let p = 1; p < pieces.length - 1; p++) if (pieces[p] !== '') kept.push(pieces[p]!);
      kept.push(pieces[pieces.length - 1]!);
      segments[i] = kept;
      literal = kept[0]!;
    }
    // Probes: literal characters 1..3 (patterns are ASCII once normalised).
    let probes = 0;
    for (let p = 3; p >= 1; p--)
      probes = (probes << 7) | (p < literal.length ? literal.charCodeAt(p) & 0x7f : 0);
    word |= probes << PROBE_SHIFT;
    // Paths always start with '/': a literal prefix of '/' and up to 3 more characters is
    // fully checked by the probes.
    if (literal.length <= 4 && literal.charCodeAt(0) === 47) word |= FLAG_SHORT_PREFIX;
    items[2 * i] = body;
    items[2 * i + 1] = word;
  }
  return new CompiledRules(indices, items, segments);
}
