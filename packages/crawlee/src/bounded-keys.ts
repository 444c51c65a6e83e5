/**
 * A set of at most `max` keys: past it, the oldest (least recently added) is forgotten, so what
 * the adapter remembers per URL or request stays bounded however long the crawl. It remembers
 * the skipped URLs already reported (each is reported once, however many pages link to it; a
 * forgotten one may be reported again) and the refused requests whose failure line is dropped.
 * @example
 * const keys = new BoundedKeys(2).add('a').add('b').add('c'); // holds 'b' and 'c'
 * if (reported.first(url)) log.info(`Skipped (robots.txt): ${url}`);
 */
export class BoundedKeys extends Set<string> {
  readonly #max: number;

  constructor(max: number) {
    super();
    this.#max = max;
  }

  /** Adds `key` as the newest (again, if it was there). */
  override add(key: string): this {
    this.delete(key);
    super.add(key);
    // A Set iterates in insertion order: the first one is the oldest.
    if (this.size > this.#max) this.delete(this.values().next().value as string);
    return this;
  }

  /** `true` the first time `key` is seen (it is remembered from then on), `false` after. */
  first(key: string): boolean {
    if (this.has(key)) return false;
    this.add(key);
    return true;
  }
}
