const FLAG_ALLOW = 1;
const FLAG_ANCHORED = 2;
const FLAG_WILDCARD = 4;

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
 */
export class CompiledRules {
  /** Rule index in the file, in decision order. */
  readonly ruleIndex: Uint32Array;
  readonly #bodies: string[];
  readonly #flags: Uint8Array;
  readonly #segments: (readonly string[] | undefined)[];

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
    const bodies = this.#bodies;
    const flags = this.#flags;
    for (let i = 0; i < bodies.length; i++) {
      const f = flags[i]!;
      const body = bodies[i]!;
      if ((f & FLAG_WILDCARD) !== 0) {
        if (wildcardMatch(this.#segments[i]!, (f & FLAG_ANCHORED) !== 0, path)) return i;
      } else if ((f & FLAG_ANCHORED) !== 0) {
        if (path === body) return i;
      } else if (path.startsWith(body)) {
        return i;
      }
    }
    return -1;
  }
}

/**
 * True when `path` matches the pattern whose pieces between `*` are `segments` (first and
 * last always present, possibly empty; empty middle pieces removed), anchored at the end
 * when the pattern ended in `$`.
 */
export function wildcardMatch(segments: readonly string[], anchored: boolean, path: string): boolean {
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
export function compileRules(table: RuleTable, ranges: readonly (readonly [number, number])[]): CompiledRules {
  const { text, at, ruleStartAt, ruleInfoAt } = table;
  const indices: number[] = [];
  for (const [from, to] of ranges) for (let r = from; r < to; r++) indices.push(r);
  const length = (r: number): number => at(ruleStartAt + r + 1) - at(ruleStartAt + r);
  const allow = (r: number): number => at(ruleInfoAt + r) & 1;
  indices.sort((a, b) => length(b) - length(a) || allow(b) - allow(a) || a - b);
  const n = indices.length;
  const bodies: string[] = new Array<string>(n);
  const flags = new Uint8Array(n);
  const segments: (readonly string[] | undefined)[] = new Array<readonly string[] | undefined>(n);
  for (let i = 0; i < n; i++) {
    const r = indices[i]!;
    const start = at(ruleStartAt + r);
    let end = at(ruleStartAt + r + 1);
    let f = allow(r) === 1 ? FLAG_ALLOW : 0;
    if (end > start && text.charCodeAt(end - 1) === 36) {
      f |= FLAG_ANCHORED;
      end--;
    }
    const body = text.slice(start, end);
    bodies[i] = body;
    if (body.includes('*')) {
      f |= FLAG_WILDCARD;
      const pieces = body.split('*');
      const kept = [pieces[0]!];
      for (let k = 1; k < pieces.length - 1; k++) if (pieces[k] !== '') kept.push(pieces[k]!);
      kept.push(pieces[pieces.length - 1]!);
      segments[i] = kept;
    }
    flags[i] = f;
  }
  return new CompiledRules(Uint32Array.from(indices), bodies, flags, segments);
}
