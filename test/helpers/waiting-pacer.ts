/**
 * The in-memory pacer as shipped, behind the public `Pacer` interface, counting the acquires
 * that are waiting for their slot. A test that must know "every other request is queued at
 * the gate, none can arrive now" waits on that count, never on time.
 */
import type { Clock, Pacer, PacerSlot, PaceRules } from '@polite-crawler/fetch';
import { OriginScheduler } from '../../packages/fetch/src/pacing/origin-scheduler.js';

export class WaitingPacer implements Pacer {
  readonly #inner: OriginScheduler;
  readonly #listeners = new Set<() => void>();
  #waiting = 0;

  /** `clock`: the policy's clock (the scheduler spaces and pauses on it). */
  constructor(clock: Clock) {
    this.#inner = new OriginScheduler({ maxTrackedOrigins: 1_000, clock });
  }

  /** Acquires waiting for their slot now. */
  get waiting(): number {
    return this.#waiting;
  }

  /** Calls `listener` whenever {@link waiting} changes; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves once at least `count` acquires wait for their slot. */
  whenWaiting(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.#waiting < count) return;
        off();
        resolve();
      };
      const off = this.onChange(check);
      check();
    });
  }

  acquire(origin: string, rules: PaceRules, signal?: AbortSignal): PacerSlot | Promise<PacerSlot> {
    const got = this.#inner.acquire(origin, rules, signal);
    if (!(got instanceof Promise)) return got;
    this.#changeBy(1);
    return got.then(
      (slot) => {
        this.#changeBy(-1);
        return slot;
      },
      (error: unknown) => {
        this.#changeBy(-1);
        throw error;
      },
    );
  }

  pause(origin: string, ms: number): void {
    this.#inner.pause(origin, ms);
  }

  close(reason: Error): Promise<void> {
    return this.#inner.close(reason);
  }

  #changeBy(delta: number): void {
    this.#waiting += delta;
    for (const listener of [...this.#listeners]) listener();
  }
}
