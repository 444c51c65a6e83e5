import { PrefixIndex } from './prefix-index.js';

const FLAG_ALLOW = 1;
const FLAG_ANCHORED = 2;
const FLAG_WILDCARD = 4;
/** Rule sets up to this size are scanned in order; larger ones are bucketed. */
const SMALL = 16;
/** Rule sets larger than this are searched through a {@link PrefixIndex}. */
const LARGE = 128;

/** Where a rule of the file lives, for {@link compileRules}. */
export interface RuleTable {
  readonly text: string;
  /** The number table's value at `i`. */
  readonly at: (i: number) => number;
  /** Index in the table of `ruleStart[0]` (rule r's pattern is `text[ruleStart[r], ruleStart[r+1])`). */
  readonly ruleStartAt: number;
  /** Index in the table of `ruleInfo[0]` (`line * 2 + allow`). */
  readonly ruleInfoAt: number;
}

/**
 * The rules of the selected groups, sorted so that the first rule that matches decides:
 * longest normalised pattern first (RFC 9309 §2.2.2 "most octets"), `allow` before
 * `disallow` on equal length, then file order. Matching never backtracks: a pattern is
 * split at `*` and its pieces are found left to right, each at its leftmost place, which
 * is exact for `*`-only globs; cost is at most O(pattern × path) per rule.
 *
 * Rules are bucketed by their second character when they start with a literal `/x`: a
 * path can only match rules of its own bucket (or the few that start `/`, `/*` or `*`),
 * so a query looks at a handful of rules even in files with thousands.
 */
export class CompiledRules {
  /** Rule index in the file, in decision order. */
  readonly ruleIndex: Uint32Array;
  readonly #bodies: string[];
  readonly #flags: Uint8Array;
  readonly #segments: (readonly string[] | undefined)[];
  /** Positions (decision order) by the pattern's second character. */
  readonly #buckets: readonly (Uint32Array | undefined)[];
  /** Positions of the patterns that have no literal second character. */
  readonly #generic: Uint32Array;
  /**
   * Per position: the pattern's literal characters at indices 1, 2 and 3 (0 where the
   * literal prefix is shorter), packed in one number. A rule is rejected on these before
   * any string call; most are.
   */
  readonly #probes: Uint32Array;
  readonly #index: PrefixIndex | undefined;
  readonly #testAt: (position: number) => boolean;
  #path = '';
  /**
   * Per position, for wildcard rules: the bigrams of their literal pieces, hashed into 64
   * bits (two words). A path lacking one of them cannot match, which rejects most
   * wildcard rules with two word operations instead of a scan of the path.
   */
  readonly #bigramsLo: Int32Array;
  readonly #bigramsHi: Int32Array;
  /** The path's bigrams, computed once per query when first needed. */
  #pathBigramsFor = '';
  #pathLo = 0;
  #pathHi = 0;

  constructor(
    ruleIndex: Uint32Array,
    bodies: string[],
    flags: Uint8Array,
    segments: (readonly string[] | undefined)[],
  ) {
    this.ruleIndex = ruleIndex;
    this.#bodies = bodies;
    this.#flags = flags;
    this.#segments = segments;
    const n = bodies.length;
    const probes = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const literal = segments[i]?.[0] ?? bodies[i]!;
      let packed = 0;
      for (let k = 3; k >= 1; k--) packed = packed * 256 + (k < literal.length ? literal.charCodeAt(k) : 0);
      probes[i] = packed;
    }
    this.#probes = probes;
    this.#bigramsLo = new Int32Array(n);
    this.#bigramsHi = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const pieces = segments[i];
      if (pieces === undefined) continue;
      let lo = 0;
      let hi = 0;
      for (const piece of pieces) {
        for (let k = 0; k + 1 < piece.length; k++) {
          const h = bigram(piece.charCodeAt(k), piece.charCodeAt(k + 1));
          if (h < 32) lo |= 1 << h;
          else hi |= 1 << (h - 32);
        }
      }
      this.#bigramsLo[i] = lo;
      this.#bigramsHi[i] = hi;
    }
    this.#testAt = (position) => this.#test(position, this.#path);
    this.#index = undefined;
    if (n > LARGE) {
      this.#index = new PrefixIndex(bodies.map((body, i) => segments[i]?.[0] ?? body));
      this.#buckets = NO_BUCKETS;
      this.#generic = SEQUENCES[0]!;
      return;
    }
    if (n <= SMALL) {
      // Small sets are scanned in order: every rule is "generic".
      this.#buckets = NO_BUCKETS;
      this.#generic = SEQUENCES[n]!;
      return;
    }
    const lists: number[][] = [];
    const generic: number[] = [];
    for (let i = 0; i < n; i++) {
      const key = bucketKey(bodies[i]!);
      if (key < 0) generic.push(i);
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

  get size(): number {
    return this.#bodies.length;
  }

  /** True when the rule at `position` (decision order) is an `allow` rule. */
  isAllow(position: number): boolean {
    return (this.#flags[position]! & FLAG_ALLOW) !== 0;
  }

  /** Position (decision order) of the deciding rule for `path`, or -1 when none matches. */
  firstMatch(path: string): number {
    const index = this.#index;
    if (index !== undefined) {
      this.#path = path;
      const found = index.firstMatch(path, this.#testAt);
      this.#path = '';
      return found;
    }
    const c = path.length >= 2 ? path.charCodeAt(1) : 128;
    const bucket = c < 128 ? this.#buckets[c] : undefined;
    const generic = this.#generic;
    const gl = generic.length;
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
    this.#pathBigramsFor = path;
  }

  #test(position: number, path: string): boolean {
    const probe = this.#probes[position]!;
    if (probe !== 0) {
      const a = probe & 0xff;
      if (a !== 0 && path.charCodeAt(1) !== a) return false;
      const b = (probe >>> 8) & 0xff;
      if (b !== 0 && path.charCodeAt(2) !== b) return false;
      const c = probe >>> 16;
      if (c !== 0 && path.charCodeAt(3) !== c) return false;
    }
    const f = this.#flags[position]!;
    if ((f & FLAG_WILDCARD) !== 0) {
      const lo = this.#bigramsLo[position]!;
      const hi = this.#bigramsHi[position]!;
      if ((lo | hi) !== 0) {
        if (this.#pathBigramsFor !== path) this.#hashPath(path);
        if (((lo & ~this.#pathLo) | (hi & ~this.#pathHi)) !== 0) return false;
      }
      return wildcardMatch(this.#segments[position]!, (f & FLAG_ANCHORED) !== 0, path);
    }
    if ((f & FLAG_ANCHORED) !== 0) return path === this.#bodies[position];
    return path.startsWith(this.#bodies[position]!);
  }
}

const NO_BUCKETS: readonly (Uint32Array | undefined)[] = new Array<undefined>(128).fill(undefined);
/** `[0, 1, …, n - 1]` for the small sets. */
const SEQUENCES: readonly Uint32Array[] = Array.from({ length: SMALL + 1 }, (_, n) =>
  Uint32Array.from({ length: n }, (_, i) => i),
);

/** Hash of two adjacent characters into 0 … 63. */
function bigram(a: number, b: number): number {
  return (a * 7 + b) & 63;
}

/** The bucket of a pattern: its literal second character after a leading `/`, or -1. */
function bucketKey(body: string): number {
  if (body.length < 2 || body.charCodeAt(0) !== 47) return -1;
  const c = body.charCodeAt(1);
  return c === 42 || c >= 128 ? -1 : c;
}

/**
 * True when `path` matches the pattern whose pieces between `*` are `segments` (first and
 * last always present, possibly empty; empty middle pieces removed), anchored at the end
 * when the pattern ended in `$`.
 */
export function wildcardMatch(
  segments: readonly string[],
  anchored: boolean,
  path: string,
): boolean {
  const first = segments[0]!;
  if (!path.startsWith(first)) return false;
  let pos = first.length;
  const last = segments.length - 1;
  for (let k = 1; k < last; k++) {
    const piece = segments[k]!;
    const at = path.indexOf(piece, pos);
    if (at < 0) return false;
    pos = at + piece.length;
  }
  const tail = segments[last]!;
  if (anchored) return path.length - tail.length >= pos && path.endsWith(tail);
  return tail.length === 0 || path.indexOf(tail, pos) >= 0;
}

/** Compiles the rules `[from, to)` ranges of the file into decision order. */
export function compileRules(
  table: RuleTable,
  ranges: readonly (readonly [number, number])[],
): CompiledRules {
  const { text, at, ruleStartAt, ruleInfoAt } = table;
  let n = 0;
  for (const [from, to] of ranges) n += to - from;
  // One number per rule, sorted natively: specificity, then allow, then file order
  // (earlier first), packed as ((length * 2 + allow) * 2^21 + (2^21 - 1 - index)).
  const keys = new Float64Array(n);
  let k = 0;
  for (const [from, to] of ranges) {
    for (let r = from; r < to; r++) {
      const length = at(ruleStartAt + r + 1) - at(ruleStartAt + r);
      keys[k++] = (length * 2 + (at(ruleInfoAt + r) & 1)) * 0x200000 + (0x1fffff - r);
    }
  }
  keys.sort();
  const indices = new Uint32Array(n);
  const bodies: string[] = new Array<string>(n);
  const flags = new Uint8Array(n);
  const segments: (readonly string[] | undefined)[] = new Array<readonly string[] | undefined>(n);
  for (let i = 0; i < n; i++) {
    const r = 0x1fffff - (keys[n - 1 - i]! % 0x200000);
    indices[i] = r;
    const start = at(ruleStartAt + r);
    let end = at(ruleStartAt + r + 1);
    let f = (at(ruleInfoAt + r) & 1) === 1 ? FLAG_ALLOW : 0;
    if (text.charCodeAt(end - 1) === 36) {
      f |= FLAG_ANCHORED;
      end--;
    }
    const body = text.slice(start, end);
    bodies[i] = body;
    if (body.includes('*')) {
      f |= FLAG_WILDCARD;
      const pieces = body.split('*');
      const kept = [pieces[0]!];
      for (let p = 1; p < pieces.length - 1; p++) if (pieces[p] !== '') kept.push(pieces[p]!);
      kept.push(pieces[pieces.length - 1]!);
      segments[i] = kept;
    }
    flags[i] = f;
  }
  return new CompiledRules(indices, bodies, flags, segments);
}
