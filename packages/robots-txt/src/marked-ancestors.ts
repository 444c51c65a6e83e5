const NONE = -1;
const NO_NODES = new Int32Array(0);

/**
 * A forest whose nodes can be marked and unmarked, answering "the deepest marked node
 * among `v` and its ancestors" in O(log n). {@link WildcardSweep} uses it on its chains of
 * pieces (each piece's parent: the longest other piece that is a suffix of it), so that at
 * each path index it visits only the pieces that rules are waiting for.
 *
 * Each node gets two places out of 2n: an even one where a depth-first walk enters it
 * (twice its preorder number) and an odd one past its whole subtree, where it is left. A
 * marked node adds +1 at the first and -1 at the second; the deepest marked node among
 * `v` and its ancestors is then the one entered at the largest place `l` up to `v`'s own
 * where the sum over [l, place of v] is 1 or more (a node entered and left in between
 * adds nothing; one left in between but entered before subtracts). A segment tree of sums
 * and best suffix sums finds that place in one descent.
 *
 * Updates are lazy. Until the first query after a {@link clear}, marks only set a flag;
 * the first query writes the leaves of the nodes marked then. After that a mark writes
 * its two leaves, and the inner nodes are brought up to date at the next query, path by
 * path or, when that would cost more, all at once. A sweep that never asks (no piece a
 * rule waits for ends anywhere in the path) pays O(1) per mark and per clear. A forest
 * of roots only (no piece a suffix of another) needs no tree at all.
 */
export class MarkedAncestors {
  /** Each node's two places. */
  readonly #enter: Int32Array;
  readonly #leave: Int32Array;
  /** The node entered at each even place (-1 at the odd ones). */
  readonly #at: Int32Array;
  /** Number of leaves: a power of two, at least 2n (0 for a forest of roots only). */
  readonly #leaves: number;
  /** Per tree node: the sum of its range, and the largest sum of a non-empty suffix of it. */
  readonly #sum: Int32Array;
  readonly #suffix: Int32Array;
  readonly #marked: Uint8Array;
  /** Nodes marked since the last {@link clear} (each once), to unmark them there. */
  readonly #seen: Int32Array;
  readonly #inSeen: Uint8Array;
  #seenCount = 0;
  #markedCount = 0;
  /**
   * Leaves changed since the inner nodes were last brought up to date. Room for
   * leaves / levels of them, plus one: updating that many paths (levels nodes each) costs
   * about as much as rebuilding all the inner nodes, so past that a rebuild does it.
   */
  readonly #dirty: Int32Array;
  #dirtyCount = 0;
  /** More leaves changed than path updates would beat a full rebuild. */
  #rebuild = false;
  /** The leaves hold the marks (else all zero, like the inner nodes). */
  #live = false;

  /** @param parent Each node's parent, or -1 for a root; parents may come in any order. */
  constructor(parent: Int32Array) {
    const n = parent.length;
    this.#marked = new Uint8Array(n);
    this.#seen = new Int32Array(n);
    this.#inSeen = new Uint8Array(n);
    if (parent.every((p) => p === NONE)) {
      this.#enter = this.#leave = this.#at = this.#sum = this.#suffix = this.#dirty = NO_NODES;
      this.#leaves = 0;
      return;
    }
    // Subtree sizes, children before parents: order the nodes by depth.
    const depth = new Int32Array(n).fill(NONE);
    for (let v = 0; v < n; v++) depthOf(parent, depth, v);
    // A counting sort by depth.
    const first = new Int32Array(n + 1);
    for (let v = 0; v < n; v++) first[depth[v]! + 1]!++;
    for (let d = 1; d <= n; d++) first[d]! += first[d - 1]!;
    const byDepth = new Int32Array(n);
    for (let v = 0; v < n; v++) byDepth[first[depth[v]!]!++] = v;
    const size = new Int32Array(n).fill(1);
    for (let k = n - 1; k >= 0; k--) {
      const v = byDepth[k]!;
      const p = parent[v]!;
      if (p !== NONE) size[p]! += size[v]!;
    }
    // Depth-first places: a parent's range is handed out to its children in turn.
    const start = new Int32Array(n);
    const next = new Int32Array(n);
    let roots = 0;
    for (const v of byDepth) {
      const p = parent[v]!;
      if (p === NONE) {
        start[v] = roots;
        roots += size[v]!;
      } else {
        start[v] = next[p]!;
        next[p]! += size[v]!;
      }
      next[v] = start[v] + 1;
    }
    const enter = new Int32Array(n);
    const leave = new Int32Array(n);
    const at = new Int32Array(2 * n).fill(NONE);
    for (let v = 0; v < n; v++) {
      enter[v] = 2 * start[v]!;
      leave[v] = 2 * (start[v]! + size[v]!) - 1;
      at[enter[v]!] = v;
    }
    this.#enter = enter;
    this.#leave = leave;
    this.#at = at;
    let leaves = 2;
    let levels = 1;
    while (leaves < 2 * n) {
      leaves *= 2;
      levels++;
    }
    this.#leaves = leaves;
    this.#sum = new Int32Array(2 * leaves);
    this.#suffix = new Int32Array(2 * leaves);
    this.#dirty = new Int32Array(Math.ceil(leaves / levels) + 1);
  }

  isMarked(v: number): boolean {
    return this.#marked[v] === 1;
  }

  /** Marks `v` (unmarked). */
  mark(v: number): void {
    this.#marked[v] = 1;
    this.#markedCount++;
    if (this.#inSeen[v] === 0) {
      this.#inSeen[v] = 1;
      this.#seen[this.#seenCount++] = v;
    }
    if (this.#live) this.#write(v, 1);
  }

  /** Unmarks `v` (marked). */
  unmark(v: number): void {
    this.#marked[v] = 0;
    this.#markedCount--;
    if (this.#live) this.#write(v, -1);
  }

  /** The deepest marked node among `v` and its ancestors, or -1. */
  deepest(v: number): number {
    if (this.#markedCount === 0) return NONE;
    if (this.#marked[v] === 1) return v;
    if (this.#leaves === 0) return NONE; // v is a root
    if (!this.#live) {
      this.#live = true;
      for (let k = 0; k < this.#seenCount; k++) {
        const u = this.#seen[k]!;
        if (this.#marked[u] === 1) this.#write(u, 1);
      }
    }
    this.#update();
    const sum = this.#sum;
    const suffix = this.#suffix;
    const leaves = this.#leaves;
    // Right to left over the ranges that make up [0, enter[v]], with the sum of those passed.
    let acc = 0;
    let i = this.#enter[v]! + leaves;
    while (acc + suffix[i]! < 1) {
      acc += sum[i]!;
      while ((i & 1) === 0) i >>= 1; // a left child: its left neighbour is its parent's
      if (i === 1) return NONE;
      i--;
    }
    // Then down to the last place in range i where the sum up to enter[v] reaches 1.
    while (i < leaves) {
      const right = 2 * i + 1;
      if (acc + suffix[right]! >= 1) {
        i = right;
      } else {
        acc += sum[right]!;
        i = 2 * i;
      }
    }
    return this.#at[i - leaves]!;
  }

  /** Unmarks every node: O(nodes marked since the last clear), plus a pending update. */
  clear(): void {
    const seen = this.#seen;
    for (let k = 0; k < this.#seenCount; k++) {
      const v = seen[k]!;
      this.#inSeen[v] = 0;
      if (this.#marked[v] === 1) this.unmark(v);
    }
    this.#seenCount = 0;
    // The leaves are all zero again: bring the inner nodes back to zero too.
    if (this.#live) this.#update();
    this.#live = false;
  }

  /** Adds `delta` times node `v`'s mark to the leaves. */
  #write(v: number, delta: number): void {
    this.#add(this.#enter[v]!, delta);
    this.#add(this.#leave[v]!, -delta);
  }

  #add(place: number, delta: number): void {
    const i = place + this.#leaves;
    const value = this.#sum[i]! + delta;
    this.#sum[i] = value;
    this.#suffix[i] = value;
    if (this.#rebuild) return;
    if (this.#dirtyCount < this.#dirty.length) this.#dirty[this.#dirtyCount++] = i;
    else this.#rebuild = true;
  }

  /** Brings the inner nodes up to date: the changed leaves' paths, or all at once. */
  #update(): void {
    if (this.#rebuild) {
      for (let i = this.#leaves - 1; i >= 1; i--) this.#pull(i);
    } else {
      const dirty = this.#dirty;
      for (let k = 0; k < this.#dirtyCount; k++) {
        for (let i = dirty[k]! >> 1; i >= 1; i >>= 1) this.#pull(i);
      }
    }
    this.#dirtyCount = 0;
    this.#rebuild = false;
  }

  #pull(i: number): void {
    const sum = this.#sum;
    const suffix = this.#suffix;
    const left = 2 * i;
    const right = left + 1;
    sum[i] = sum[left]! + sum[right]!;
    const through = sum[right]! + suffix[left]!;
    suffix[i] = through > suffix[right]! ? through : suffix[right]!;
  }
}

/** The depth of `v` (roots 0), memoised in `depth`; iterative, as chains can be long. */
function depthOf(parent: Int32Array, depth: Int32Array, v: number): number {
  let u = v;
  let steps = 0;
  while (u !== NONE && depth[u] === NONE) {
    u = parent[u]!;
    steps++;
  }
  const top = u === NONE ? -1 : depth[u]!;
  // Walk again from v: the k-th node up from v is at depth top + steps - k.
  u = v;
  for (let k = 0; k < steps; k++) {
    depth[u] = top + steps - k;
    u = parent[u]!;
  }
  return depth[v]!;
}
