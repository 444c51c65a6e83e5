/**
 * Local waiters by origin, woken by the fleet's pub/sub messages. Every wait is also bounded
 * by a timer (the caller's fallback for a lost message), so a missed notification costs at
 * most that delay, never a hang.
 * @example
 * await wakeUps.wait(origin, 1_000, signal); // a message for origin, 1 s, or abort
 */
export class WakeUps {
  readonly #waiters = new Map<string, Set<() => void>>();
  /** Each waiter's rank in its origin's line here (lower asked first). */
  readonly #ranks = new WeakMap<() => void, number>();

  /** Waits for a wake-up of `origin`, at most `ms`; `rank` orders {@link WakeUps.wakeFirst}. */
  wait(origin: string, ms: number, signal: AbortSignal | undefined, rank = 0): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      let set = this.#waiters.get(origin);
      if (set === undefined) {
        set = new Set();
        this.#waiters.set(origin, set);
      }
      const waiters = set;
      const all = this.#waiters;
      const timer = setTimeout(done, ms);
      const onAbort = (): void => {
        cleanup();
        reject(signal?.reason as Error);
      };
      function cleanup(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        waiters.delete(done);
        if (waiters.size === 0 && all.get(origin) === waiters) all.delete(origin);
      }
      function done(): void {
        cleanup();
        resolve();
      }
      waiters.add(done);
      this.#ranks.set(done, rank);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  wake(origin: string): void {
    const set = this.#waiters.get(origin);
    if (set !== undefined) for (const done of [...set]) done();
  }

  /**
   * Wakes the waiter of `origin` that asked first: one freed slot is one retry per process,
   * not one per waiter (the others would only be told to wait again).
   */
  wakeFirst(origin: string): void {
    const set = this.#waiters.get(origin);
    if (set === undefined) return;
    let first: (() => void) | undefined;
    let best = Infinity;
    for (const done of set) {
      const rank = this.#ranks.get(done) ?? 0;
      if (rank < best) {
        best = rank;
        first = done;
      }
    }
    first?.();
  }

  wakeAll(): void {
    for (const origin of [...this.#waiters.keys()]) this.wake(origin);
  }
}
