import type { Clock } from '../time/clock.js';
import type { RobotsFetchClaim, RobotsStore } from './robots-store.js';

const nothing = (): undefined => undefined;

/**
 * One store call that answers `undefined` when it throws, rejects or takes longer than
 * `timeout` (a client queueing commands while its server is down).
 */
function guardedCall<T>(call: () => Promise<T>, timeout: number, clock: Clock) {
  let answer: Promise<T>;
  try {
    answer = Promise.resolve(call());
  } catch {
    return Promise.resolve(undefined);
  }
  const timer = new AbortController();
  const expired = clock.sleep(timeout, timer.signal).then(nothing, nothing);
  return Promise.race([answer.catch(nothing), expired]).finally(() => timer.abort());
}

const FETCH_YOURSELF: RobotsFetchClaim = { fetch: true, release: () => Promise.resolve() };

/**
 * A {@link RobotsStore} that never throws, rejects or hangs: a failing or slow `get` answers
 * `undefined`, `set`/`delete` give up. `claimFetch` is not timed (it waits for another
 * process's fetch), but one that fails other than by `signal` means "fetch it yourself"
 * (the README's store section says why).
 * @example
 * const store = guardStore(options.store, 2_000, clock);
 * const entry = await store.get(origin); // never rejects
 */
export function guardStore(store: RobotsStore, timeout: number, clock: Clock): RobotsStore {
  const guarded = <T>(call: () => Promise<T>) => guardedCall(call, timeout, clock);
  return {
    get: (origin) => guarded(() => store.get(origin)),
    set: (origin, entry) => guarded(() => store.set(origin, entry)),
    delete: (origin) => guarded(() => store.delete(origin)),
    ...(typeof store.claimFetch === 'function'
      ? {
          claimFetch: async (origin: string, signal?: AbortSignal): Promise<RobotsFetchClaim> => {
            try {
              const claim = await store.claimFetch?.(origin, signal);
              if (claim?.fetch === false) return claim;
              if (claim?.fetch !== true || typeof claim.release !== 'function') {
                return FETCH_YOURSELF;
              }
              return { fetch: true, release: () => guarded(() => claim.release()) };
            } catch (error) {
              if (signal?.aborted) throw error;
              return FETCH_YOURSELF;
            }
          },
        }
      : {}),
  };
}
