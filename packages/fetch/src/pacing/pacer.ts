/**
 * One process's own pacing settings for an origin; in a fleet the strictest applies to everyone.
 * @example
 * const rules: PaceRules = { concurrency: 1, interval: 1_000 };
 */
export interface PaceRules {
  /** Requests of this origin in flight at once (>= 1). */
  readonly concurrency: number;
  /** Minimum ms between two starts on this origin: max(minInterval, capped Crawl-delay). */
  readonly interval: number;
  /**
   * Longest back-off after distress outcomes, ms (see {@link PaceOutcome}); 0 or left out: no
   * back-off.
   */
  readonly maxBackoff?: number;
  /**
   * Starts are at least this many times the origin's smoothed response time apart; 0 or left
   * out: the response time is not looked at.
   */
  readonly latencyFactor?: number;
}

/**
 * How a request that held a slot went, reported on {@link PacerSlot.release}:
 * - `success`: the server answered normally (anything but distress);
 * - `distress`: a 500, 502 or 504, a 429 or 503 without `Retry-After`, a 408, a connection
 *   error or a timeout: the origin backs off;
 * - `neutral`: an answer that says nothing about the server's health (a `Retry-After` the
 *   policy already paused for).
 * A slot given back without an outcome (unused, aborted, refused) changes nothing.
 * @example
 * slot.release({ kind: 'success', latency: 120 });
 */
export interface PaceOutcome {
  readonly kind: 'success' | 'distress' | 'neutral';
  /** Ms from the start to the response headers; absent when no response came. */
  readonly latency?: number;
}

/**
 * What an outcome changed in the origin's back-off, as the pacer reports it from `release`:
 * `backoff` after a distress outcome (the `distress`-th in a row; the next start is at least
 * `delay` ms away, and starts stay that far apart until the origin recovers), `recovered` when
 * successes brought it back to its own interval.
 * @example
 * const change: PaceChange = { kind: 'backoff', distress: 2, delay: 4_000 };
 */
export type PaceChange =
  | { readonly kind: 'backoff'; readonly distress: number; readonly delay: number }
  | { readonly kind: 'recovered' };

/**
 * A granted slot. `release()` gives it back; idempotent (a second call does nothing).
 * @example
 * const slot = await pacer.acquire(origin, rules);
 * try { await send(); } finally { slot.release(); }
 */
export interface PacerSlot {
  /**
   * Gives the slot back, with how its request went when it went out (back-off and latency
   * spacing follow from it). A pacer may say what the outcome changed, at once or through a
   * promise (a fleet pacer's round trip); one that returns nothing never reports a change.
   */
  release(outcome?: PaceOutcome): void | PaceChange | PromiseLike<PaceChange | undefined>;
}

/**
 * Grants per-origin slots. The in-memory scheduler (the default) keeps them in this process; a
 * fleet pacer (Redis) replaces it through the policy option `pacer`.
 * @example
 * const policy = createRobotsPolicy({ userAgent, pacer: fleet.policyOptions.pacer });
 */
export interface Pacer {
  /**
   * A slot of `origin` under `rules`. May return the slot synchronously when it is free now (the
   * in-memory pacer's hot path: no promise). Rejects with `signal.reason` when `signal` aborts
   * first, and with the pacer's close reason after `close()`. A request "starts" when this
   * resolves.
   */
  acquire(origin: string, rules: PaceRules, signal?: AbortSignal): PacerSlot | Promise<PacerSlot>;
  /** Retry-After: no slot of `origin` starts for the next `ms` milliseconds (longest pause wins). */
  pause(origin: string, ms: number): void;
  /** Rejects every waiter with `reason`, gives back every held slot. */
  close(reason: Error): Promise<void>;
}
