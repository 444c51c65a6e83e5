import type { Clock } from '@polite-crawler/fetch';

interface Timer {
  readonly at: number;
  readonly seq: number;
  readonly resolve: () => void;
}

/** Yields to the event loop so that resolved timers, promises and sockets make progress. */
export function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * A clock whose time only moves when the test says so: `sleep` resolves when `advance`
 * passes its deadline. Nothing in a test ever really waits.
 */
export class FakeClock implements Clock {
  #now: number;
  #seq = 0;
  #timers: Timer[] = [];

  constructor(start = Date.UTC(2025, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<void>((resolve, reject) => {
      const timer: Timer = {
        at: this.#now + Math.max(0, ms),
        seq: (this.#seq += 1),
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const onAbort = (): void => {
        this.#timers = this.#timers.filter((t) => t !== timer);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#timers.push(timer);
    });
  }

  /** Sleepers waiting now. */
  get pending(): number {
    return this.#timers.length;
  }

  /** The deadlines of the sleepers, earliest first. */
  get deadlines(): number[] {
    return this.#timers.map((t) => t.at).sort((a, b) => a - b);
  }

  /** Moves time forward by `ms`, waking each sleeper at its deadline, in order. */
  async advance(ms: number): Promise<void> {
    const target = this.#now + ms;
    for (;;) {
      await tick();
      const due = this.#timers
        .filter((t) => t.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (due === undefined) break;
      this.#timers = this.#timers.filter((t) => t !== due);
      this.#now = Math.max(this.#now, due.at);
      due.resolve();
    }
    this.#now = target;
    await tick();
  }

  /**
   * Runs `send` (one request) to its end; if it waits on this clock first, moves time to the end
   * of that wait. Returns how long it waited (0 when it went at once).
   */
  async waitedFor(send: () => Promise<unknown>): Promise<number> {
    let settled = false;
    const done = send().finally(() => {
      settled = true;
    });
    await this.until(() => settled || this.pending > 0, 'answered or waiting');
    const waited = settled ? 0 : this.deadlines[0]! - this.#now;
    await this.advance(waited);
    await done;
    return waited;
  }

  /** Waits (by yielding to the event loop, never by time) until `predicate` holds. */
  async until(predicate: () => boolean, what = 'condition', maxTicks = 1_000_000): Promise<void> {
    for (let i = 0; i < maxTicks; i += 1) {
      if (predicate()) return;
      await tick();
    }
    throw new Error(`gave up waiting for ${what}`);
  }
}

/** Waits by yielding to the event loop until `predicate` holds (bounded). */
export async function until(
  predicate: () => boolean,
  what = 'condition',
  maxTicks = 1_000_000,
): Promise<void> {
  for (let i = 0; i < maxTicks; i += 1) {
    if (predicate()) return;
    await tick();
  }
  throw new Error(`gave up waiting for ${what}`);
}
