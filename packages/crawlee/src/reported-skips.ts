/**
 * A set of at most `max` keys: past it, the oldest (first added) is forgotten. What the adapter
 * remembers per URL or request stays bounded however long the crawl.
 * @example
 * const keys = new BoundedKeys(2).add('a').add('b').add('c'); // holds 'b' and 'c'
 */
export class BoundedKeys extends Set<string> {
  readonly #max: number;

  constructor(max: number) {
    super();
    this.#max = max;
  }

  override add(key: string): this {
    super.add(key);
    // A Set iterates in insertion order: the first one is the oldest.
    if (this.size > this.#max) this.delete(this.values().next().value as string);
    return this;
  }
}

/**
 * The skipped URLs already reported, so that a URL many pages link to is reported once (log
 * line, event, `onSkippedRequest`) rather than once per page; a forgotten one may be reported again.
 * @example
 * const reported = new ReportedSkips(10_000);
 * if (reported.first(url)) log.info(`Skipped (robots.txt): ${url}`);
 */
export class ReportedSkips extends BoundedKeys {
  /** `true` the first time `url` is seen (it is remembered from then on), `false` after. */
  first(url: string): boolean {
    if (this.has(url)) return false;
    this.add(url);
    return true;
  }
}
