/**
 * The skipped URLs already reported, so that a URL many pages link to is reported once (log
 * line, event, `onSkippedRequest`) rather than once per page. Bounded: past `max` URLs the
 * oldest are forgotten, and may then be reported again.
 * @example
 * const reported = new ReportedSkips(10_000);
 * if (reported.first(url)) log.info(`Skipped (robots.txt): ${url}`);
 */
export class ReportedSkips {
  readonly #max: number;
  readonly #urls = new Set<string>();

  constructor(max: number) {
    this.#max = max;
  }

  /** `true` the first time `url` is seen (it is remembered from then on), `false` after. */
  first(url: string): boolean {
    if (this.#urls.has(url)) return false;
    this.#urls.add(url);
    if (this.#urls.size > this.#max) {
      // A Set iterates in insertion order: the first one is the oldest.
      for (const oldest of this.#urls) {
        this.#urls.delete(oldest);
        break;
      }
    }
    return true;
  }

  get size(): number {
    return this.#urls.size;
  }
}
