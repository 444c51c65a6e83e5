import { LRUCache } from 'lru-cache';
import type { Clock } from '../time/clock.js';

/**
 * What {@link RobotsEntries} needs of an entry: when it expires, and the last fetch's status.
 * @example
 * const entry: RetryAware = { stored: { expiresAt: 0, latest: { status: 'unreachable' } } };
 */
export interface RetryAware {
  readonly stored: {
    readonly expiresAt: number;
    readonly latest: { readonly status: string };
  };
}

/** Whether dropping `entry` now would refetch robots.txt from a failed origin before its retry. */
function holdsBackRetry(entry: RetryAware, now: number): boolean {
  return entry.stored.latest.status === 'unreachable' && entry.stored.expiresAt > now;
}

/**
 * The in-memory robots.txt entries: at most `max` origins, least recently used dropped first,
 * except that an entry holding back a retry of an unreachable origin goes after all the others:
 * dropping it would send robots.txt fetches to a failing server before its retry interval (or
 * `Retry-After`) is over, once per request when a crawl cycles through more origins than fit.
 * @example
 * const entries = new RobotsEntries<CacheEntry>(10_000, systemClock);
 * entries.set('https://example.com', entry);
 */
export class RobotsEntries<Entry extends RetryAware> {
  readonly #max: number;
  readonly #clock: Clock;
  readonly #ordinary: LRUCache<string, Entry>;
  /**
   * Entries that held back a retry when set, least recently used first. A Map, not a second
   * LRUCache: lru-cache allocates room for `max` entries up front, and these are usually few.
   */
  readonly #retrying = new Map<string, Entry>();

  constructor(max: number, clock: Clock) {
    this.#max = max;
    this.#clock = clock;
    this.#ordinary = new LRUCache<string, Entry>({ max });
  }

  /** The entry for `origin`, marked as the most recently used. */
  get(origin: string): Entry | undefined {
    const ordinary = this.#ordinary.get(origin);
    if (ordinary !== undefined) return ordinary;
    const retrying = this.#retrying.get(origin);
    if (retrying !== undefined) {
      this.#retrying.delete(origin);
      this.#retrying.set(origin, retrying);
    }
    return retrying;
  }

  /** The entry for `origin`, its recency unchanged. */
  peek(origin: string): Entry | undefined {
    return this.#ordinary.peek(origin) ?? this.#retrying.get(origin);
  }

  set(origin: string, entry: Entry): void {
    const now = this.#clock.now();
    const known = this.#ordinary.delete(origin) || this.#retrying.delete(origin);
    if (!known && this.size >= this.#max) this.#dropOne(now);
    if (holdsBackRetry(entry, now)) this.#retrying.set(origin, entry);
    else this.#ordinary.set(origin, entry);
  }

  delete(origin: string): void {
    this.#ordinary.delete(origin);
    this.#retrying.delete(origin);
  }

  clear(): void {
    this.#ordinary.clear();
    this.#retrying.clear();
  }

  get size(): number {
    return this.#ordinary.size + this.#retrying.size;
  }

  /**
   * Drops the least recently used retrying entry if its retry is now due, else the least
   * recently used ordinary one, else (all hold back a retry: the bound comes first) the former.
   */
  #dropOne(now: number): void {
    const oldest = this.#retrying.entries().next();
    if (!oldest.done && !holdsBackRetry(oldest.value[1], now)) {
      this.#retrying.delete(oldest.value[0]);
    } else if (this.#ordinary.size > 0) {
      this.#ordinary.pop();
    } else if (!oldest.done) {
      this.#retrying.delete(oldest.value[0]);
    }
  }
}
