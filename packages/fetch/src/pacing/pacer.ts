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
}

/**
 * A granted slot. `release()` gives it back; idempotent (a second call does nothing).
 * @example
 * const slot = await pacer.acquire(origin, rules);
 * try { await send(); } finally { slot.release(); }
 */
export interface PacerSlot {
  release(): void;
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

/**
 * Whether an acquire's answer is still to come (a promise, or any thenable from a pacer of
 * another realm).
 * @example
 * const got = pacer.acquire(origin, rules);
 * const slot = isPending(got) ? await got : got;
 */
export function isPending<T extends object>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown }).then === 'function';
}
