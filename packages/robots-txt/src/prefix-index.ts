/**
 * For large rule sets: the rules grouped by their literal prefix (the pattern up to its
 * first `*`), with the distinct prefixes sorted and each linked to its longest proper
 * prefix in the set. The prefixes of a path that occur in the set are then one binary
 * search and a walk up those links: O(log(rules) + path length) character reads per query,
 * and a handful of rule tests in practice, instead of one test per rule.
 */
export class PrefixIndex {
  /** Distinct literal prefixes, sorted. */
  readonly #keys: string[];
  /** Index of the longest key that is a proper prefix of each key, or -1. */
  readonly #parents: Int32Array;
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
    // In sorted order the prefixes of a key come before it, and those of the current key
    // form a chain: keep that chain on a stack.
    const parents = new Int32Array(keys.length);
    const chain: number[] = [];
    for (let k = 0; k < keys.length; k++) {
      while (chain.length > 0 && !keys[k]!.startsWith(keys[chain[chain.length - 1]!]!)) chain.pop();
      parents[k] = chain.length > 0 ? chain[chain.length - 1]! : -1;
      chain.push(k);
    }
    this.#keys = keys;
    this.#parents = parents;
    this.#starts = starts;
    this.#positions = positions;
  }

  /**
   * The smallest position (decision order) among rules whose literal prefix is a prefix
   * of `path` and for which `test` holds, or -1.
   */
  firstMatch(path: string, test: (position: number) => boolean): number {
    const keys = this.#keys;
    const parents = this.#parents;
    const starts = this.#starts;
    const positions = this.#positions;
    // The last key ≤ path. Every key that is a prefix of the path is a prefix of it too,
    // no longer than their common part (a longer one would sort between it and the path).
    let k = this.#lastAtMost(path);
    const common = this.#common;
    while (k >= 0 && keys[k]!.length > common) k = parents[k]!;
    let best = -1;
    for (; k >= 0; k = parents[k]!) {
      for (let j = starts[k]!; j < starts[k + 1]!; j++) {
        const position = positions[j]!;
        if (best >= 0 && position >= best) break;
        if (test(position)) {
          best = position;
          break;
        }
      }
    }
    return best;
  }

  /** Length of the common prefix of the path and the key found by the last search. */
  #common = 0;

  /**
   * Index of the last key ≤ `path` (-1 if none), by binary search. Keys between two
   * bounds share with the path at least the shorter of the bounds' common prefixes with
   * it, so each comparison starts there: the search reads O(log(keys) + path length)
   * characters.
   */
  #lastAtMost(path: string): number {
    const keys = this.#keys;
    const pathLength = path.length;
    let lo = 0;
    let hi = keys.length;
    let commonLo = 0; // with keys[lo - 1]
    let commonHi = 0; // with keys[hi]
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const key = keys[mid]!;
      const keyLength = key.length;
      let i = commonLo < commonHi ? commonLo : commonHi;
      while (i < keyLength && i < pathLength && key.charCodeAt(i) === path.charCodeAt(i)) i++;
      if (i === keyLength || (i < pathLength && key.charCodeAt(i) < path.charCodeAt(i))) {
        lo = mid + 1;
        commonLo = i;
      } else {
        hi = mid;
        commonHi = i;
      }
    }
    this.#common = commonLo;
    return lo - 1;
  }
}
