/**
 * For large rule sets: the rules grouped by their literal prefix (the pattern up to its
 * first `*`), with the distinct prefixes sorted. The prefixes of a path that occur in the
 * set are found by binary search, shortest target first: after each probe the next target
 * is strictly shorter, so a query costs O(path length × log(rules)) string comparisons at
 * worst, and a handful in practice, instead of one test per rule.
 */
export class PrefixIndex {
  /** Distinct literal prefixes, sorted. */
  readonly #keys: string[];
  /** `positions[starts[k], starts[k + 1])` are the rules (decision order) of `keys[k]`. */
  readonly #starts: Uint32Array;
  readonly #positions: Uint32Array;

  /** @param prefixes The literal prefix of the rule at each position (decision order). */
  constructor(prefixes: readonly string[]) {
    // Group the positions (ascending) by prefix, then sort the distinct prefixes with the
    // native string sort.
    const groups = new Map<string, number[]>();
    for (let i = 0; i < prefixes.length; i++) {
      const prefix = prefixes[i]!;
      const group = groups.get(prefix);
      if (group === undefined) groups.set(prefix, [i]);
      else group.push(i);
    }
    const keys = [...groups.keys()].sort();
    const starts = new Uint32Array(keys.length + 1);
    const positions = new Uint32Array(prefixes.length);
    let at = 0;
    for (let k = 0; k < keys.length; k++) {
      starts[k] = at;
      for (const position of groups.get(keys[k]!)!) positions[at++] = position;
    }
    starts[keys.length] = at;
    this.#keys = keys;
    this.#starts = starts;
    this.#positions = positions;
  }

  /**
   * The smallest position (decision order) among rules whose literal prefix is a prefix
   * of `path` and for which `test` holds, or -1.
   */
  firstMatch(path: string, test: (position: number) => boolean): number {
    const keys = this.#keys;
    const starts = this.#starts;
    const positions = this.#positions;
    let best = -1;
    let hi = upperBound(keys, path, keys.length) - 1;
    while (hi >= 0) {
      const key = keys[hi]!;
      if (path.startsWith(key)) {
        for (let k = starts[hi]!; k < starts[hi + 1]!; k++) {
          const position = positions[k]!;
          if (best >= 0 && position >= best) break;
          if (test(position)) {
            best = position;
            break;
          }
        }
        if (key.length === 0) break;
        // Shorter prefixes of the path are prefixes of this key: they sort before it.
        hi = upperBound(keys, key.slice(0, -1), hi) - 1;
      } else {
        // key ≤ path but not its prefix: every prefix of the path in the set is a prefix
        // of their common part.
        let l = 0;
        while (l < key.length && key.charCodeAt(l) === path.charCodeAt(l)) l++;
        hi = upperBound(keys, path.slice(0, l), hi) - 1;
      }
    }
    return best;
  }
}

/** First index in `keys[0, end)` whose key is greater than `target` (`end` if none). */
function upperBound(keys: readonly string[], target: string, end: number): number {
  let lo = 0;
  let hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
