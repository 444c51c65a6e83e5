import { matchesCompiled, type CompiledPattern } from './match-one-pattern.js';
import { WILDCARD_BUDGET, WildcardSweep } from './wildcard-sweep.js';

/**
 * Finds, among patterns sorted longest first, every one of the greatest length that matches
 * a path. Patterns are tested one by one (`matchesCompiled`) until a query has spent
 * {@link WILDCARD_BUDGET} path characters on wildcard patterns; the rest of that query's
 * wildcard patterns are then decided together by one {@link WildcardSweep} over the path
 * (built on first need), as the Allow/Disallow matcher does. So a file of thousands of
 * `Content-Usage: /*…` rules cannot make a query cost rules × path.
 */
export class UsageMatcher {
  readonly #patterns: readonly CompiledPattern[];
  /** Pattern lengths (the specificity), parallel to #patterns. */
  readonly #lengths: readonly number[];
  readonly #budget: number;
  #sweep: WildcardSweep | undefined;
  #wildcards: Uint32Array | undefined;

  /**
   * @param options.wildcardBudget Overrides {@link WILDCARD_BUDGET} (tests force the sweep with 0).
   */
  constructor(
    patterns: readonly CompiledPattern[],
    lengths: readonly number[],
    options?: { wildcardBudget?: number },
  ) {
    this.#patterns = patterns;
    this.#lengths = lengths;
    this.#budget = options?.wildcardBudget ?? WILDCARD_BUDGET;
  }

  /** Indices of the matching patterns of the greatest matching length, in sorted order. */
  match(path: string): number[] {
    const patterns = this.#patterns;
    const lengths = this.#lengths;
    const found: number[] = [];
    let length = -1;
    let budget = this.#budget;
    let swept = false;
    for (let i = 0; i < patterns.length; i++) {
      if (lengths[i]! < length) break;
      const pattern = patterns[i]!;
      let matches: boolean;
      if (pattern.segments === undefined || (!swept && (budget -= path.length) >= 0)) {
        matches = matchesCompiled(pattern, path);
      } else {
        if (!swept) {
          this.#sweepPath(path);
          swept = true;
        }
        matches = this.#sweep!.matches(i);
      }
      if (matches) {
        length = lengths[i]!;
        found.push(i);
      }
    }
    return found;
  }

  #sweepPath(path: string): void {
    if (this.#sweep === undefined) {
      const positions: number[] = [];
      const segments: (readonly string[])[] = [];
      const anchored: number[] = [];
      this.#patterns.forEach((p, i) => {
        if (p.segments === undefined) return;
        positions.push(i);
        segments.push(p.segments);
        anchored.push(p.anchored ? 1 : 0);
      });
      this.#wildcards = Uint32Array.from(positions.map((_, w) => w));
      this.#sweep = new WildcardSweep(
        Uint32Array.from(positions),
        segments,
        Uint8Array.from(anchored),
        this.#patterns.length,
      );
    }
    const candidates = this.#wildcards!;
    this.#sweep.run(path, candidates, candidates.length);
  }
}
