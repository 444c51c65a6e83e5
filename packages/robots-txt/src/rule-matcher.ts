import { PARSE_DEFAULTS } from './parse-defaults.js';

/** One path rule as the matcher takes it. */
export interface MatcherRule {
  /** The normalised pattern (see `normalizePattern`): `*` any run, a final `$` the end. */
  readonly pattern: string;
  /** Higher ranks decide first; equal ranks keep the order given. */
  readonly rank: number;
  /**
   * What a rule counts as when its match cannot be decided within the budget: `true`
   * (a `Disallow`, a usage rule) counts as matching, `false` (an `Allow`) as not matching.
   * Either way the answer is never more permissive than the exact one.
   */
  readonly failClosed: boolean;
}

const ANCHORED = 1;
const WILDCARD = 2;
const FAIL_CLOSED = 4;

/**
 * The one matcher of path rules (RFC 9309 §2.2.2), for Allow/Disallow and for
 * `Content-Usage` / `Content-Signal` rules alike: the rules are kept in rank order (the
 * caller's order for ties), each with its literal prefix (the pattern up to its first `*`);
 * a query reads them in that order, tests the ones whose prefix the path starts with, and
 * stops after the first rank that matches.
 *
 * A rule without `*` is decided by its prefix alone (and the length, when it ends in `$`).
 * A rule with `*` is matched piece by piece, each piece at its leftmost place after the
 * previous one (exact for `*`-only globs, never backtracking), and is charged the path's
 * length, which is what its searches may read (an anchored rule whose last piece does not
 * end the path is rejected first, for free).
 *
 * Worst case per query: the prefix checks read at most the rules' total pattern length
 * (≤ the parsed bytes, 500 KiB by default), plus the budget: at most `PARSE_DEFAULTS.matchBudget`
 * (2^17) path characters for wildcard rules. A wildcard rule reached after the budget is
 * spent is not tested: it counts as matching when `failClosed` (a `Disallow`: the path is
 * disallowed) and as not matching otherwise (an `Allow`), and the query is marked
 * {@link undecided}: the answer is then never a wrong "allowed". No query of the
 * 13,436-file corpus comes near the budget (test/robots-txt/corpus.test.ts); a file of
 * thousands of `/*…` rules written to be slow does (test/bench/robots-txt-worst-case.bench.ts).
 */
export class RuleMatcher {
  readonly size: number;
  /** Index (as given) of the rule at each position of rank order. */
  readonly #index: Int32Array;
  readonly #rank: Float64Array;
  readonly #flags: Uint8Array;
  /** Pattern up to its first `*` (or final `$`). */
  readonly #prefix: string[];
  /** Length of the pattern without its final `$`. */
  readonly #length: Int32Array;
  /** Pieces between `*` of a wildcard rule (first and last kept even when empty). */
  readonly #pieces: (readonly string[] | undefined)[];
  readonly #budget: number;
  #undecided = false;

  constructor(rules: readonly MatcherRule[], budget: number = PARSE_DEFAULTS.matchBudget) {
    const n = rules.length;
    // Array.prototype.sort is stable: equal ranks keep the order given.
    const order = rules.map((_, i) => i).sort((a, b) => rules[b]!.rank - rules[a]!.rank);
    this.size = n;
    this.#budget = budget;
    this.#index = Int32Array.from(order);
    this.#rank = Float64Array.from(order, (i) => rules[i]!.rank);
    this.#flags = new Uint8Array(n);
    this.#length = new Int32Array(n);
    this.#prefix = [];
    this.#pieces = [];
    for (let p = 0; p < n; p++) {
      const rule = rules[order[p]!]!;
      let body = rule.pattern;
      let flags = rule.failClosed ? FAIL_CLOSED : 0;
      if (body.endsWith('$')) {
        flags |= ANCHORED;
        body = body.slice(0, -1);
      }
      let pieces: string[] | undefined;
      if (body.includes('*')) {
        flags |= WILDCARD;
        pieces = body
          .split('*')
          .filter((piece, k, all) => k === 0 || k === all.length - 1 || piece !== '');
      }
      this.#flags[p] = flags;
      this.#length[p] = body.length;
      this.#prefix.push(pieces === undefined ? body : pieces[0]!);
      this.#pieces.push(pieces);
    }
  }

  /** Whether the last query left a rule undecided: the budget ran out (see the class). */
  get undecided(): boolean {
    return this.#undecided;
  }

  /** Index (as given) of the first rule in rank order that matches `path`, or -1. */
  first(path: string): number {
    const p = this.#scan(path, undefined);
    return p < 0 ? -1 : this.#index[p]!;
  }

  /** Indices (as given, ascending) of every rule of the highest rank that matches `path`. */
  all(path: string): number[] {
    const found: number[] = [];
    this.#scan(path, found);
    return found.sort((a, b) => a - b);
  }

  /** Position of the first match; `found` collects every match of its rank. */
  #scan(path: string, found: number[] | undefined): number {
    const prefix = this.#prefix;
    const flags = this.#flags;
    const rank = this.#rank;
    let budget = this.#budget;
    let first = -1;
    this.#undecided = false;
    for (let p = 0; p < this.size; p++) {
      if (first >= 0 && (found === undefined || rank[p]! < rank[first]!)) break;
      if (!path.startsWith(prefix[p]!)) continue;
      const f = flags[p]!;
      let matches: boolean;
      if ((f & WILDCARD) === 0) {
        matches = (f & ANCHORED) === 0 || path.length === this.#length[p];
      } else if ((f & ANCHORED) !== 0 && !path.endsWith(this.#pieces[p]!.at(-1)!)) {
        // The end is cheap to check first, and most anchored patterns fail there.
        matches = false;
      } else if ((budget -= path.length) >= 0) {
        matches = piecesMatch(this.#pieces[p]!, (f & ANCHORED) !== 0, path);
      } else {
        this.#undecided = true;
        matches = (f & FAIL_CLOSED) !== 0;
      }
      if (!matches) continue;
      if (first < 0) first = p;
      found?.push(this.#index[p]!);
      // Past the budget the caller fails closed: the other rules cannot change that.
      if (found !== undefined && this.#undecided) break;
    }
    return first;
  }
}

/**
 * True when `path`, which starts with `pieces[0]` (and ends with the last piece when
 * `anchored`), matches the pattern whose pieces between `*` these are. Each piece is found
 * at its leftmost place after the previous one: exact for `*`-only globs, O(path) searches.
 */
function piecesMatch(pieces: readonly string[], anchored: boolean, path: string): boolean {
  const last = pieces.length - 1;
  const tail = pieces[last]!;
  let at = pieces[0]!.length;
  for (let k = 1; k < last; k++) {
    const found = path.indexOf(pieces[k]!, at);
    if (found < 0) return false;
    at = found + pieces[k]!.length;
  }
  if (anchored) return path.length - tail.length >= at;
  return tail === '' || path.indexOf(tail, at) >= 0;
}
