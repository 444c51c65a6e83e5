/**
 * A `Map` that holds at most `max` entries: adding a new key to a full map first drops the
 * oldest key added (first in, first out). The one bounded cache of this package, which has no
 * dependencies (a crawler's agents and rule sets are few: recency would buy nothing here).
 * @example
 * const m = new BoundedMap<string, number>(2);
 * m.set('a', 1).set('b', 2).set('c', 3);
 * m.has('a'); // false
 */
export class BoundedMap<K, V> extends Map<K, V> {
  readonly max: number;

  /** @param max At least 1. */
  constructor(max: number) {
    super();
    this.max = Math.max(1, max);
  }

  override set(key: K, value: V): this {
    if (this.size >= this.max && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }

  /** The value of `key`, made by `make` and added when missing. */
  getOrAdd(key: K, make: () => V): V {
    let value = this.get(key);
    if (value === undefined) this.set(key, (value = make()));
    return value;
  }
}
