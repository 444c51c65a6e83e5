import { MarkedAncestors } from './marked-ancestors.js';
import { hasPrefix, hasSuffix } from './pattern-match.js';

/**
 * Character positions one query may spend testing wildcard rules one at a time, before the
 * rest are decided together by a {@link WildcardSweep}. Each wildcard rule whose literal
 * prefix the path starts with is charged the path's length, which is what its `indexOf`
 * calls may read. 2^17 (131,072) is under half a millisecond of such reading and above what
 * any query of the 13,436-file corpus spends (the corpus test counts the sweeps): ordinary
 * files never build the automaton, while a file written to be slow costs this much at most,
 * then one sweep.
 */
export const WILDCARD_BUDGET = 1 << 17;

const NONE = -1;
/** Stamps are compared for equality only; restart before a Uint32Array would wrap. */
const LAST_STAMP = 0xfffffffe;

/**
 * Decides a set of wildcard rules (RFC 9309 §2.2.2: `*` matches any run, a final `$`
 * anchors) against one path in one left-to-right pass, instead of one `indexOf` scan of
 * the path per rule.
 *
 * A rule `first*p1*p2*…*pk` (first piece checked as a prefix) is matched the way
 * `wildcardMatch` matches it: each piece at its leftmost place after the previous one,
 * which is exact for `*`-only globs. Here every rule is a small state machine that waits
 * for its next piece: it began waiting at path index `s`, and an occurrence of that piece
 * ending at `j` satisfies it when it starts at `s` or later (`j - |piece| + 1 >= s`); the
 * rule then waits for its following piece from `j + 1`. The occurrences come, in order of
 * their end, from one Aho–Corasick automaton over the distinct pieces (built once per rule
 * set). Rules wait for a piece in a FIFO queue per piece: they join in nondecreasing order
 * of `s`, so on each occurrence the satisfied rules are a prefix of the queue. An anchored
 * rule's last piece is not searched for: the rule matches when the path ends with it and
 * the other pieces end before it begins.
 *
 * Chain work: the pieces ending at index `j` are the automaton state's piece and those
 * reached from it by "longest other piece that is a suffix" links (a, aa, aaa, … make
 * such chains long). Only the pieces that rules are waiting for are visited: they are
 * marked in a {@link MarkedAncestors} over those links, which finds the next one up the
 * chain in O(log pieces). A visit that releases no rule is charged to the rule at the head
 * of that piece's queue, which joined it less than |piece| characters before.
 *
 * Work per sweep: O(path × log(pieces)) at worst (one look-up at each index where some
 * piece ends), plus O((pieces of the candidate rules + their total length) × log(pieces))
 * for the joins, releases and charged visits, plus the prefix and suffix checks: no
 * term in rules × path.
 *
 * Memory: about 13 bytes per automaton node (at most one per character of the distinct
 * pieces), 22 per distinct piece (40–70 more when some piece is a suffix of another: the
 * chain look-ups), 40 per wildcard rule plus 4 per piece of it; typed arrays but for the
 * rules' first and last pieces. For 17,000 rules like `/*abbabaabbbabaaab` that is about
 * 2 MB, next to the 5 MB their compiled rules take.
 */
export class WildcardSweep {
  // The automaton, nodes numbered breadth first (root 0): the children of node v are the
  // nodes firstChild[v] … firstChild[v + 1] - 1, ordered by the character leading to them.
  readonly #firstChild: Int32Array;
  readonly #label: Uint8Array;
  readonly #fail: Int32Array;
  /** The longest piece that is a suffix of the node's string (the node's own piece first), or -1. */
  readonly #report: Int32Array;
  /** The root's child for each ASCII character (0: none). */
  readonly #rootNext: Int32Array;
  // Per piece (distinct, non-empty).
  readonly #pieceLength: Int32Array;
  /** The longest other piece that is a suffix of this one, or -1. */
  readonly #pieceUp: Int32Array;
  // Per wildcard rule w (the caller's numbering).
  readonly #position: Uint32Array;
  readonly #first: readonly string[];
  /** The last piece of an anchored rule (may be empty); undefined when not anchored. */
  readonly #tail: readonly (string | undefined)[];
  /** Pieces to find, in order: `pieceIds[pieceStart[w], pieceStart[w + 1])`. */
  readonly #pieceStart: Uint32Array;
  readonly #pieceIds: Int32Array;
  readonly #maxFirst: number;
  // State of the current sweep; an entry counts only when its stamp is the current one.
  #stamp = 0;
  readonly #matched: Uint32Array;
  readonly #pieceStamp: Uint32Array;
  readonly #head: Int32Array;
  readonly #tailOf: Int32Array;
  /** The pieces that rules are waiting for, on the forest of `pieceUp` links. */
  readonly #awaited: MarkedAncestors;
  readonly #cursor: Uint32Array;
  readonly #since: Int32Array;
  readonly #next: Int32Array;
  readonly #startStamp: Uint32Array;
  readonly #startHead: Int32Array;

  /**
   * @param positions Per wildcard rule, its position in decision order (`size` positions in all).
   * @param segments Per wildcard rule, its pieces between `*` as `wildcardSegments` gives them.
   * @param anchored Per wildcard rule, 1 when its pattern ended in `$`.
   * @param options.stamp The stamp to count on from (tests start it near {@link LAST_STAMP}).
   */
  constructor(
    positions: Uint32Array,
    segments: readonly (readonly string[])[],
    anchored: Uint8Array,
    size: number,
    options?: { stamp?: number },
  ) {
    const rules = positions.length;
    const first: string[] = new Array<string>(rules);
    const tail: (string | undefined)[] = new Array<string | undefined>(rules);
    const pieceStart = new Uint32Array(rules + 1);
    /** The pieces to find, all rules in a row; the automaton numbers the distinct ones. */
    const found: string[] = [];
    let maxFirst = 0;
    for (let w = 0; w < rules; w++) {
      const kept = segments[w]!;
      const last = kept.length - 1;
      first[w] = kept[0]!;
      if (kept[0]!.length > maxFirst) maxFirst = kept[0]!.length;
      tail[w] = anchored[w] === 1 ? kept[last] : undefined;
      pieceStart[w] = found.length;
      // Middle pieces are never empty; the last counts unless it is empty or anchored.
      const end = anchored[w] === 1 || kept[last] === '' ? last : last + 1;
      for (let k = 1; k < end; k++) found.push(kept[k]!);
    }
    pieceStart[rules] = found.length;
    const automaton = buildAutomaton(found);
    this.#firstChild = automaton.firstChild;
    this.#label = automaton.label;
    this.#fail = automaton.fail;
    this.#report = automaton.report;
    this.#rootNext = automaton.rootNext;
    this.#pieceUp = automaton.pieceUp;
    this.#pieceLength = automaton.pieceLength;
    this.#position = positions;
    this.#first = first;
    this.#tail = tail;
    this.#pieceStart = pieceStart;
    this.#pieceIds = automaton.pieceIds;
    this.#maxFirst = maxFirst;
    const p = automaton.pieceLength.length;
    this.#matched = new Uint32Array(size);
    this.#pieceStamp = new Uint32Array(p);
    this.#head = new Int32Array(p);
    this.#tailOf = new Int32Array(p);
    this.#awaited = new MarkedAncestors(automaton.pieceUp);
    this.#cursor = new Uint32Array(rules);
    this.#since = new Int32Array(rules);
    this.#next = new Int32Array(rules);
    this.#startStamp = new Uint32Array(maxFirst + 1);
    this.#startHead = new Int32Array(maxFirst + 1);
    this.#stamp = options?.stamp ?? 0;
  }

  /** True when the rule at `position` matched the path of the last {@link run}. */
  matches(position: number): boolean {
    return this.#matched[position] === this.#stamp;
  }

  /**
   * Decides the rules `candidates[0, count)` (numbered as in the constructor) against
   * `path`; {@link matches} then answers for their positions (and false for all others).
   */
  run(path: string, candidates: Uint32Array, count: number): void {
    const stamp = this.#nextStamp();
    const n = path.length;
    const first = this.#first;
    const tail = this.#tail;
    const pieceStart = this.#pieceStart;
    const pieceIds = this.#pieceIds;
    const matched = this.#matched;
    const position = this.#position;
    const pieceStamp = this.#pieceStamp;
    const head = this.#head;
    const cursor = this.#cursor;
    const next = this.#next;
    const startStamp = this.#startStamp;
    const startHead = this.#startHead;
    // Rules still undecided (a rule that can no longer match stays so until the end).
    let waiting = 0;
    for (let k = 0; k < count; k++) {
      const w = candidates[k]!;
      const prefix = first[w]!;
      if (!hasPrefix(path, prefix, 0)) continue;
      const end = tail[w];
      if (end !== undefined && (n - end.length < prefix.length || !hasSuffix(path, end))) continue;
      const from = pieceStart[w]!;
      const to = pieceStart[w + 1]!;
      if (from === to) {
        matched[position[w]!] = stamp; // nothing to find between the prefix and the suffix
        continue;
      }
      for (let i = from; i < to; i++) {
        const q = pieceIds[i]!;
        if (pieceStamp[q] !== stamp) {
          pieceStamp[q] = stamp;
          head[q] = NONE;
        }
      }
      cursor[w] = from;
      // The rule starts waiting when the sweep reaches the end of its prefix: queues then
      // stay ordered by the index each rule waits from.
      const s = prefix.length;
      if (startStamp[s] !== stamp) {
        startStamp[s] = stamp;
        startHead[s] = NONE;
      }
      next[w] = startHead[s]!;
      startHead[s] = w;
      waiting++;
    }
    if (waiting > 0) this.#sweep(path, stamp, waiting);
    this.#awaited.clear();
  }

  /** The pass over the path, while rules are undecided. */
  #sweep(path: string, stamp: number, waiting: number): void {
    const n = path.length;
    const report = this.#report;
    const pieceUp = this.#pieceUp;
    const pieceLength = this.#pieceLength;
    const pieceStart = this.#pieceStart;
    const pieceIds = this.#pieceIds;
    const tail = this.#tail;
    const matched = this.#matched;
    const position = this.#position;
    const head = this.#head;
    const cursor = this.#cursor;
    const since = this.#since;
    const awaited = this.#awaited;
    const next = this.#next;
    const startStamp = this.#startStamp;
    const startHead = this.#startHead;
    const maxFirst = this.#maxFirst;
    let state = 0;
    for (let j = 0; j < n && waiting > 0; j++) {
      if (j <= maxFirst && startStamp[j] === stamp) {
        for (let w = startHead[j]!; w !== NONE;) {
          const following = next[w]!;
          this.#join(w, pieceIds[cursor[w]!]!, j);
          w = following;
        }
      }
      state = this.#step(state, path.charCodeAt(j));
      // The pieces ending at j that rules wait for, longest first.
      for (let u = report[state]!; u !== NONE;) {
        const q = awaited.deepest(u);
        if (q === NONE) break;
        const start = j - pieceLength[q]! + 1;
        let w: number;
        while ((w = head[q]!) !== NONE && since[w]! <= start) {
          head[q] = next[w]!;
          const at = ++cursor[w]!;
          if (at === pieceStart[w + 1]!) {
            const end = tail[w];
            if (end === undefined || n - end.length > j) matched[position[w]!] = stamp;
            waiting--;
          } else {
            this.#join(w, pieceIds[at]!, j + 1);
          }
        }
        if (head[q] === NONE) awaited.unmark(q);
        u = pieceUp[q]!;
      }
    }
  }

  /** Rule `w` waits for piece `q`, to begin at index `from` or later. */
  #join(w: number, q: number, from: number): void {
    this.#since[w] = from;
    this.#next[w] = NONE;
    const head = this.#head;
    if (head[q] === NONE) {
      head[q] = w;
      if (!this.#awaited.isMarked(q)) this.#awaited.mark(q);
    } else {
      this.#next[this.#tailOf[q]!] = w;
    }
    this.#tailOf[q] = w;
  }

  /** The automaton's transition from `state` on character `c`. */
  #step(state: number, c: number): number {
    const firstChild = this.#firstChild;
    const label = this.#label;
    for (;;) {
      if (state === 0) return c < 128 ? this.#rootNext[c]! : 0;
      const child = childOf(firstChild, label, state, c);
      if (child !== NONE) return child;
      state = this.#fail[state]!;
    }
  }

  #nextStamp(): number {
    if (this.#stamp >= LAST_STAMP) {
      this.#matched.fill(0);
      this.#pieceStamp.fill(0);
      this.#startStamp.fill(0);
      this.#stamp = 0;
    }
    return ++this.#stamp;
  }
}

interface Automaton {
  readonly firstChild: Int32Array;
  readonly label: Uint8Array;
  readonly fail: Int32Array;
  readonly report: Int32Array;
  readonly rootNext: Int32Array;
  /** Per distinct piece. */
  readonly pieceLength: Int32Array;
  readonly pieceUp: Int32Array;
  /** The distinct piece number of each of the pieces given. */
  readonly pieceIds: Int32Array;
}

/**
 * The Aho–Corasick automaton of `pieces` (non-empty, ASCII as normalised patterns are; equal
 * pieces share a number), nodes in breadth-first order. O(total length of the pieces).
 */
function buildAutomaton(pieces: readonly string[]): Automaton {
  const trie = new TrieBuilder(pieces);
  const count = trie.build();
  const { firstChild, label, pieceAt } = trie;
  const rootNext = new Int32Array(128);
  for (let u = firstChild[0]!; u < firstChild[1]!; u++) rootNext[label[u]!] = u;
  const fail = new Int32Array(count);
  const report = new Int32Array(count);
  const pieceUp = new Int32Array(trie.pieces).fill(NONE);
  report[0] = NONE;
  // Breadth first: a node's failure link is shallower, so it is known before the node.
  for (let v = 0; v < count; v++) {
    for (let u = firstChild[v]!; u < firstChild[v + 1]!; u++) {
      const c = label[u]!;
      let f = v === 0 ? NONE : fail[v]!;
      let link = 0;
      while (f !== NONE) {
        const t = childOf(firstChild, label, f, c);
        if (t !== NONE) {
          link = t;
          break;
        }
        f = f === 0 ? NONE : fail[f]!;
      }
      fail[u] = link;
      const own = pieceAt[u]!;
      if (own !== NONE) {
        report[u] = own;
        pieceUp[own] = report[link]!;
      } else {
        report[u] = report[link]!;
      }
    }
  }
  return {
    firstChild: firstChild.slice(0, count + 1),
    label: label.slice(0, count),
    fail,
    report,
    rootNext,
    pieceLength: trie.pieceLength.slice(0, trie.pieces),
    pieceUp,
    pieceIds: trie.pieceIds,
  };
}

/**
 * The trie of the pieces, built level by level with no string comparison: the pieces under
 * a node are a run of one permutation, and its children split that run by the next
 * character (a counting sort over the characters present). The pieces are first copied
 * into one byte array, which reads faster than thousands of small strings.
 */
class TrieBuilder {
  readonly firstChild: Int32Array;
  readonly label: Uint8Array;
  /** The distinct piece that ends at each node, or -1. */
  readonly pieceAt: Int32Array;
  /** The distinct piece number of each piece given. */
  readonly pieceIds: Int32Array;
  readonly pieceLength: Int32Array;
  /** Number of distinct pieces. */
  pieces = 0;
  readonly #chars: Uint8Array;
  readonly #offset: Int32Array;
  readonly #length: Int32Array;
  readonly #perm: Int32Array;
  readonly #scratch: Int32Array;
  readonly #lo: Int32Array;
  readonly #hi: Int32Array;
  readonly #depth: Int32Array;
  /** Per character class (0: the piece ends here, c + 1: character c): run sizes, then offsets. */
  readonly #counts = new Int32Array(129);
  readonly #present = new Int32Array(129);
  #count = 1;

  constructor(pieces: readonly string[]) {
    const e = pieces.length;
    let total = 0;
    for (let i = 0; i < e; i++) total += pieces[i]!.length;
    const chars = new Uint8Array(total);
    const offset = new Int32Array(e);
    const length = new Int32Array(e);
    let at = 0;
    for (let i = 0; i < e; i++) {
      const piece = pieces[i]!;
      offset[i] = at;
      length[i] = piece.length;
      for (let k = 0; k < piece.length; k++) chars[at++] = piece.charCodeAt(k) & 0x7f;
    }
    this.#chars = chars;
    this.#offset = offset;
    this.#length = length;
    this.#perm = new Int32Array(e);
    for (let i = 0; i < e; i++) this.#perm[i] = i;
    this.#scratch = new Int32Array(e);
    const nodes = total + 1;
    this.#lo = new Int32Array(nodes);
    this.#hi = new Int32Array(nodes);
    this.#depth = new Int32Array(nodes);
    this.firstChild = new Int32Array(nodes + 1);
    this.label = new Uint8Array(nodes);
    this.pieceAt = new Int32Array(nodes).fill(NONE);
    this.pieceIds = new Int32Array(e);
    this.pieceLength = new Int32Array(e);
    this.#hi[0] = e;
  }

  /** Builds the trie; returns the number of nodes. */
  build(): number {
    for (let v = 0; v < this.#count; v++) this.#split(v);
    this.firstChild[this.#count] = this.#count;
    return this.#count;
  }

  /** The class of piece `id` at depth `d`. */
  #classOf(id: number, d: number): number {
    return this.#length[id] === d ? 0 : this.#chars[this.#offset[id]! + d]! + 1;
  }

  /** Creates the children of node `v`, in order of their character. */
  #split(v: number): void {
    const perm = this.#perm;
    const counts = this.#counts;
    const present = this.#present;
    const d = this.#depth[v]!;
    const from = this.#lo[v]!;
    const to = this.#hi[v]!;
    let classes = 0;
    for (let i = from; i < to; i++) {
      const k = this.#classOf(perm[i]!, d);
      if (counts[k]!++ === 0) present[classes++] = k;
    }
    // Few classes per node (two, for pieces of a and b): an insertion sort.
    for (let x = 1; x < classes; x++) {
      const k = present[x]!;
      let y = x;
      for (; y > 0 && present[y - 1]! > k; y--) present[y] = present[y - 1]!;
      present[y] = k;
    }
    this.firstChild[v] = this.#count;
    let at = from;
    for (let x = 0; x < classes; x++) {
      const k = present[x]!;
      const size = counts[k]!;
      counts[k] = at;
      if (k === 0) {
        // The pieces that end here are equal: one piece number for all of them.
        this.pieceLength[this.pieces] = d;
        this.pieceAt[v] = this.pieces++;
      } else {
        const child = this.#count++;
        this.label[child] = k - 1;
        this.#lo[child] = at;
        this.#hi[child] = at + size;
        this.#depth[child] = d + 1;
      }
      at += size;
    }
    const scratch = this.#scratch;
    const pieceIds = this.pieceIds;
    const ending = this.pieceAt[v]!;
    for (let i = from; i < to; i++) {
      const id = perm[i]!;
      const k = this.#classOf(id, d);
      scratch[counts[k]!++] = id;
      if (k === 0) pieceIds[id] = ending;
    }
    for (let i = from; i < to; i++) perm[i] = scratch[i]!;
    for (let x = 0; x < classes; x++) counts[present[x]!] = 0;
  }
}

/** The child of node `v` reached by character `c`, or -1 (binary search: children are sorted). */
function childOf(firstChild: Int32Array, label: Uint8Array, v: number, c: number): number {
  let lo = firstChild[v]!;
  let hi = firstChild[v + 1]!;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const m = label[mid]!;
    if (m === c) return mid;
    if (m < c) lo = mid + 1;
    else hi = mid;
  }
  return NONE;
}
