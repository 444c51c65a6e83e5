import { setMaxListeners } from 'node:events';
import type { EventSink } from './events.js';
import { headerLines } from './header-input.js';
import { parseRetryAfter } from './retry-after.js';
import type { Clock, HeaderInput, Pacer, PacerSlot } from './types.js';

/**
 * @example
 * new PacerScheduler({ pacer, concurrency: 1, minInterval: 1_000, maxRetryAfter: 600_000, maxTrackedOrigins: 10_000, clock, events, crawlDelayFor: () => 0 });
 */
export interface PacerSchedulerSettings {
  readonly pacer: Pacer;
  readonly concurrency: number;
  readonly minInterval: number;
  readonly maxRetryAfter: number;
  readonly maxTrackedOrigins: number;
  readonly clock: Clock;
  readonly events: EventSink;
  /** Extra spacing for an origin (its capped crawl-delay), ms; 0 when none. */
  readonly crawlDelayFor: (origin: string) => number;
}

/**
 * The policy's pacing through a caller-given {@link Pacer} (a fleet pacer) instead of the
 * in-memory scheduler, with the same surface the policy drives: this policy's own settings
 * (concurrency, interval widened by the origin's crawl-delay) go with every request, the pacer
 * decides. Slots are released by origin, as the in-memory scheduler's are: any held slot of
 * the origin is as good as another.
 * @example
 * const waiting = scheduler.acquire(origin);
 * if (waiting !== undefined) await waiting;
 * try { await work(); } finally { scheduler.release(origin); }
 */
export class PacerScheduler {
  readonly #settings: PacerSchedulerSettings;
  readonly #held = new Map<string, PacerSlot[]>();
  /** Retry-After pauses this process asked for, for `pausedUntil` (oldest dropped beyond the bound). */
  readonly #paused = new Map<string, number>();
  readonly #closing = new AbortController();

  constructor(settings: PacerSchedulerSettings) {
    this.#settings = settings;
    // Every waiting request of the policy listens to it: no fixed bound.
    setMaxListeners(0, this.#closing.signal);
  }

  /** Takes a slot of `origin`; `undefined` when the pacer granted it synchronously. */
  acquire(origin: string, signal?: AbortSignal, crawlDelay?: number): Promise<void> | undefined {
    const closing = this.#closing.signal;
    if (closing.aborted) return Promise.reject(closing.reason as Error);
    const { minInterval, concurrency, crawlDelayFor, pacer } = this.#settings;
    const delay = crawlDelay ?? crawlDelayFor(origin);
    const rules = { concurrency, interval: delay > minInterval ? delay : minInterval };
    let granted: PacerSlot | Promise<PacerSlot>;
    try {
      granted = pacer.acquire(origin, rules, signal ?? closing);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    if (!(granted instanceof Promise)) {
      this.#hold(origin, granted);
      return undefined;
    }
    return granted.then((slot) => {
      if (closing.aborted) {
        slot.release();
        throw closing.reason as Error;
      }
      this.#hold(origin, slot);
    });
  }

  /** Gives back one slot of `origin` taken with {@link PacerScheduler.acquire}. */
  release(origin: string): void {
    const slots = this.#held.get(origin);
    const slot = slots?.pop();
    if (slots?.length === 0) this.#held.delete(origin);
    slot?.release();
  }

  async run<T>(
    origin: string,
    task: (signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const closing = this.#closing.signal;
    const linked = signal === undefined ? closing : AbortSignal.any([closing, signal]);
    await Promise.resolve();
    const waiting = this.acquire(origin, linked);
    if (waiting !== undefined) await waiting;
    try {
      return await task(linked);
    } finally {
      this.release(origin);
    }
  }

  /** A 429 or 503 with a parseable `Retry-After` pauses the origin (capped at `maxRetryAfter`). */
  noteResponse(origin: string, status: number, headers: HeaderInput): void {
    if (status !== 429 && status !== 503) return;
    const raw = headerLines(headers, 'retry-after')[0];
    const { clock, maxRetryAfter, events, pacer, maxTrackedOrigins } = this.#settings;
    const now = clock.now();
    const requested = parseRetryAfter(raw, now);
    if (raw === undefined || requested === undefined) return;
    const duration = Math.min(requested, maxRetryAfter);
    if (duration <= 0) return;
    const until = now + duration;
    pacer.pause(origin, duration);
    this.#paused.delete(origin);
    this.#paused.set(origin, Math.max(until, this.#paused.get(origin) ?? 0));
    if (this.#paused.size > maxTrackedOrigins) {
      const oldest = this.#paused.keys().next().value;
      if (oldest !== undefined) this.#paused.delete(oldest);
    }
    if (events.wants('origin-paused')) {
      events.emit({ type: 'origin-paused', origin, status, until, duration, retryAfter: raw });
    }
  }

  /** Until when this process paused `origin` (clock ms), or `undefined`. */
  pausedUntil(origin: string): number | undefined {
    const until = this.#paused.get(origin);
    return until !== undefined && until > this.#settings.clock.now() ? until : undefined;
  }

  get size(): number {
    return this.#held.size;
  }

  /** Rejects this policy's waiters, gives back its slots and closes the pacer. */
  close(reason: Error): Promise<void> {
    this.#closing.abort(reason);
    for (const slots of this.#held.values()) for (const slot of slots) slot.release();
    this.#held.clear();
    return this.#settings.pacer.close(reason);
  }

  #hold(origin: string, slot: PacerSlot): void {
    const slots = this.#held.get(origin);
    if (slots === undefined) this.#held.set(origin, [slot]);
    else slots.push(slot);
  }
}
