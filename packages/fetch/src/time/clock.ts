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

/**
 * Calls `fire` once `ms` milliseconds of `clock`'s time have passed, unless the returned function
 * is called first. On {@link systemClock} that is a plain timer: a `sleep` stopped through an
 * `AbortController` costs tens of µs, which every page hop would pay (its response timer). An
 * injected clock (a test's) is driven through its `sleep`. `keepsProcessAlive: false`: a real
 * timer that does not keep the process running by itself (Node's `unref`).
 * @example
 * const stop = startTimer(clock, 60_000, () => controller.abort(timeoutError));
 * // the response is in
 * stop();
 */
export function startTimer(
  clock: Clock,
  ms: number,
  fire: () => void,
  { keepsProcessAlive = true }: { keepsProcessAlive?: boolean } = {},
): () => void {
  if (clock === systemClock) {
    const timer = setTimeout(fire, Math.max(0, ms));
    if (!keepsProcessAlive) timer.unref();
    return () => clearTimeout(timer);
  }
  const stop = new AbortController();
  clock.sleep(ms, stop.signal).then(fire, () => {});
  return () => stop.abort();
}
