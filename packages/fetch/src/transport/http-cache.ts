import { cacheStores, interceptors } from 'undici';
import type { Dispatcher } from 'undici';
import { RobotsInvalidOptionError } from '../errors/errors.js';
import { markSent, noteAnswered } from './network-mark.js';

/**
 * An undici cache store (`cacheStores.MemoryCacheStore`, `cacheStores.SqliteCacheStore`, or
 * one's own implementing undici's `CacheStore`).
 * @example
 * const store: HttpCacheStore = new cacheStores.SqliteCacheStore({ location: 'crawl-cache.db' });
 */
export type HttpCacheStore = NonNullable<
  NonNullable<Parameters<typeof interceptors.cache>[0]>['store']
>;

/**
 * The bounds of the store `cache: true` makes (undici's `MemoryCacheStore`): a crawl of many
 * pages keeps at most this much. A response whose body is bigger than `maxEntrySize` is not
 * stored (it is still fetched and handed over whole); one more response than `maxCount`, or
 * past `maxSize` bytes, makes the store drop its least recently used entries (a read is a use)
 * down to half the bound.
 * @example
 * MEMORY_CACHE_LIMITS.maxEntrySize; // 4 MiB
 */
export const MEMORY_CACHE_LIMITS = Object.freeze({
  /** Responses kept. */
  maxCount: 1_024,
  /** Bytes of bodies kept in all. */
  maxSize: 64 * 1024 * 1024,
  /** Bytes of one body kept. */
  maxEntrySize: 4 * 1024 * 1024,
});

/**
 * Reads the `cache` option: `false` (no cache), `true` (a bounded in-memory store, see
 * {@link MEMORY_CACHE_LIMITS}) or an undici cache store. Throws {@link RobotsInvalidOptionError}.
 * @example
 * cacheOption(true); // a MemoryCacheStore with MEMORY_CACHE_LIMITS
 */
export function cacheOption(value: unknown): HttpCacheStore | false {
  if (value === undefined || value === true) {
    return new cacheStores.MemoryCacheStore(MEMORY_CACHE_LIMITS);
  }
  if (value === false) return false;
  const store = value as Partial<Record<string, unknown>> | null;
  if (
    typeof store === 'object' &&
    store !== null &&
    typeof store.get === 'function' &&
    typeof store.createWriteStream === 'function' &&
    typeof store.delete === 'function'
  ) {
    return store as unknown as HttpCacheStore;
  }
  throw new RobotsInvalidOptionError(
    'cache',
    value,
    'true, false or an undici cache store (get, createWriteStream, delete)',
  );
}

/**
 * The `cache` option of an adapter as read (an interface, so that an adapter's resolved options
 * name it rather than undici's store type).
 * @example
 * const { store } = cacheSetting(true);
 */
export interface CacheSetting {
  /** The store, or `false` for no cache. */
  readonly store: HttpCacheStore | false;
}

/**
 * Reads an adapter's `cache` option (see {@link cacheOption}).
 * @example
 * cacheSetting(false).store; // false
 */
export function cacheSetting(value: unknown): CacheSetting {
  return { store: cacheOption(value) };
}

/**
 * undici's own HTTP cache (RFC 9111) over `store`, and in front of it undici's `deduplicate`:
 * identical GETs in flight at once are sent once, each caller gets the whole response. The
 * cache is a shared one (a crawler's copies serve many readers: `private` responses and
 * responses to requests with `Authorization` are not stored). In `compose` order (innermost
 * first), to be composed inside the response tap and outside the signer; innermost, the
 * {@link markSent} of what goes on to the network, and just outside the cache the
 * {@link noteAnswered} it reads.
 * @example
 * const pages = dispatcher.compose(...httpCacheInterceptors(store));
 */
export function httpCacheInterceptors(
  store: HttpCacheStore,
): Dispatcher.DispatcherComposeInterceptor[] {
  return [
    markSent(),
    interceptors.cache({ store, type: 'shared' }),
    noteAnswered(),
    interceptors.deduplicate(),
  ];
}
