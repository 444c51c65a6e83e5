/**
 * The back-off arithmetic every pacer shares (the in-memory scheduler here; the fleet pacer's
 * Lua script does the same steps): pure, on integers of milliseconds.
 *
 * After the k-th distress outcome in a row the origin's spacing is 2^k × its base (its
 * interval, or {@link BACKOFF_BASE} when that is shorter), capped at `maxBackoff`; each success
 * halves it, and the origin is back to its own interval once the halved spacing is no longer
 * above the base, or after {@link RECOVERY_SUCCESSES} successes at the latest.
 */

/** The base of the doubling when the origin's interval is shorter, ms. */
export const BACKOFF_BASE = 1_000;

/** Successes after which an origin is back to its interval, whatever its back-off was. */
export const RECOVERY_SUCCESSES = 8;

/**
 * An origin's back-off. `spacing` 0: none.
 * @example
 * const none: BackoffState = { distress: 0, spacing: 0, successes: 0 };
 */
export interface BackoffState {
  /** Distress outcomes in a row (a success ends the row). */
  readonly distress: number;
  /** The origin's spacing while backed off, ms (0: not backed off). */
  readonly spacing: number;
  /** Successes since the spacing last grew. */
  readonly successes: number;
}

/** No back-off. */
export const NO_BACKOFF: BackoffState = Object.freeze({ distress: 0, spacing: 0, successes: 0 });

/**
 * The back-off after one outcome. A distress doubles the spacing (from twice the base; it also
 * keeps growing from a spacing not yet recovered), capped at `maxBackoff`; 0 turns back-off off.
 * A success halves it. `neutral` changes nothing.
 * @example
 * nextBackoff(NO_BACKOFF, 'distress', 500, 60_000).spacing; // 2000
 */
export function nextBackoff(
  state: BackoffState,
  kind: 'success' | 'distress' | 'neutral',
  interval: number,
  maxBackoff: number,
): BackoffState {
  if (kind === 'neutral' || maxBackoff <= 0) return state;
  const base = Math.max(interval, BACKOFF_BASE);
  if (kind === 'distress') {
    return {
      distress: state.distress + 1,
      spacing: Math.min(maxBackoff, Math.max(2 * base, 2 * state.spacing)),
      successes: 0,
    };
  }
  if (state.spacing === 0) return state.distress === 0 ? state : NO_BACKOFF;
  const halved = Math.floor(state.spacing / 2);
  const successes = state.successes + 1;
  if (halved <= base || successes >= RECOVERY_SUCCESSES) return NO_BACKOFF;
  return { distress: 0, spacing: halved, successes };
}

/**
 * How much of the newest response time the smoothed one takes in (an exponentially weighted
 * moving average: each older sample weighs 0.7 times the one after it).
 */
export const LATENCY_WEIGHT = 0.3;

/**
 * The smoothed response time after one more sample (the first sample is taken as it is).
 * @example
 * smoothLatency(undefined, 200); // 200
 * smoothLatency(200, 1_200); // 500
 */
export function smoothLatency(smoothed: number | undefined, sample: number): number {
  const value = Math.max(0, sample);
  return smoothed === undefined ? value : smoothed + LATENCY_WEIGHT * (value - smoothed);
}

/**
 * The start-to-start spacing of an origin: its interval, widened by its back-off and by
 * `latencyFactor` × its smoothed response time, never below the interval.
 * @example
 * spacingOf(1_000, 0, 1, 1_500); // 1500
 */
export function spacingOf(
  interval: number,
  backoff: number,
  latencyFactor: number,
  latency: number | undefined,
): number {
  const fromLatency =
    latency === undefined || latencyFactor <= 0 ? 0 : Math.ceil(latencyFactor * latency);
  return Math.max(interval, backoff, fromLatency);
}
