/**
 * Local waiters by origin, woken by the fleet's pub/sub messages. Every wait is also bounded
 * by a timer (the caller's fallback for a lost message), so a missed notification costs at
 * most that delay, never a hang.
 * @example
 * await wakeUps.wait(origin, 1_000, signal); // a message for origin, 1 s, or abort
 */
export class WakeUps {
  readonly #waiters = new Map<string, Set<() => void>>();

  wait(origin: string, ms: number, signal: AbortSignal | undefined): Promise<void> {
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
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  wake(origin: string): void {
    const set = this.#waiters.get(origin);
    if (set !== undefined) for (const done of [...set]) done();
  }

  wakeAll(): void {
    for (const origin of [...this.#waiters.keys()]) this.wake(origin);
  }
}
