import type { Clock } from '../time/clock.js';
import type { RobotsStore } from './robots-store.js';

/**
 * Runs one store call so that a broken store cannot break a crawl: a call that throws,
 * returns something other than a promise of the answer, rejects, or takes longer than
 * `timeout` (a client queueing commands while its server is down) resolves to `fallback`.
 * The timer is cleared as soon as the call settles.
 * @example
 * const entry = await guardedStoreCall(() => store.get(origin), undefined, 2_000, clock);
 */
export function guardedStoreCall<T>(
  call: () => Promise<T> | T,
  fallback: T,
  timeout: number,
  clock: Clock,
): Promise<T> {
  let answer: Promise<T>;
  try {
    answer = Promise.resolve(call());
  } catch {
    return Promise.resolve(fallback);
  }
  const timer = new AbortController();
  const expired = clock.sleep(timeout, timer.signal).then(
    () => fallback,
    () => fallback,
  );
  return Promise.race([answer.then(undefined, () => fallback), expired]).finally(() =>
    timer.abort(),
  );
}

/**
 * A {@link RobotsStore} seen through {@link guardedStoreCall}: `get` answers `undefined` and
 * `set`/`delete` give up when the store fails or is slower than `timeout`.
 * @example
 * const store = guardStore(options.store, 2_000, clock);
 * const entry = await store.get(origin); // never rejects
 */
export function guardStore(store: RobotsStore, timeout: number, clock: Clock): RobotsStore {
  return {
    get: (origin) => guardedStoreCall(() => store.get(origin), undefined, timeout, clock),
    set: (origin, entry) =>
      guardedStoreCall(() => store.set(origin, entry), undefined, timeout, clock),
    delete: (origin) => guardedStoreCall(() => store.delete(origin), undefined, timeout, clock),
  };
}
