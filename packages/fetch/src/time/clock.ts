import { raceSignal } from './signals.js';

/**
 * The source of time for every wait, TTL and timeout the policy applies. Inject one in tests
 * so that nothing ever really waits.
 * @example
 * const clock: Clock = { now: () => Date.now(), sleep: (ms, signal) => setTimeout(ms, undefined, { signal }) };
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds of this clock's time; rejects with `signal.reason` when
   * `signal` aborts first.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** {@link Clock.sleep} on real timers; the timer is cleared on abort. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const slept = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, ms));
  });
  return raceSignal(slept, signal).finally(() => clearTimeout(timer));
}

/**
 * The default {@link Clock}: `Date.now()` and real timers.
 * @example
 * createRobotsPolicy({ userAgent, clock: systemClock }); // same as leaving `clock` out
 */
export const systemClock: Clock = Object.freeze({ now: () => Date.now(), sleep });
