import { setMaxListeners } from 'node:events';
import pLimit from 'p-limit';
import type { LimitFunction } from 'p-limit';
import type { EventSink } from './events.js';
import { headerLines } from './header-input.js';
import { parseRetryAfter } from './retry-after.js';
import { raceSignal } from './signals.js';
import type { Clock, HeaderInput } from './types.js';

/**
 * @example
 * new OriginScheduler({ concurrency: 1, minInterval: 1_000, maxRetryAfter: 600_000, maxTrackedOrigins: 10_000, clock, events, crawlDelayFor: () => 0 });
 */
export interface OriginSchedulerSettings {
  readonly concurrency: number;
  readonly minInterval: number;
  readonly maxRetryAfter: number;
  readonly maxTrackedOrigins: number;
  readonly clock: Clock;
  readonly events: EventSink;
  /** Extra spacing for an origin (its capped crawl-delay), ms; 0 when none. */
  readonly crawlDelayFor: (origin: string) => number;
}

interface OriginState {
  readonly limit: LimitFunction;
  /** Earliest start of the next request (clock ms). */
  nextStart: number;
  /** Paused by Retry-After until (clock ms). */
  pausedUntil: number;
}

/**
 * Per-origin pacing: at most `concurrency` tasks at once, starts at least `minInterval` (or
 * the origin's crawl-delay) apart, and no start while the origin is paused by a Retry-After.
 * Origins never slow each other down. Idle origins' state is dropped beyond
 * `maxTrackedOrigins` (least recently used first).
 * @example
 * await scheduler.run('https://example.com', (signal) => fetch(url, { signal }));
 */
export class OriginScheduler {
  readonly #settings: OriginSchedulerSettings;
  readonly #states = new Map<string, OriginState>();
  readonly #closing = new AbortController();

  constructor(settings: OriginSchedulerSettings) {
    this.#settings = settings;
    // One listener per task in flight (bounded by the work itself), removed as each settles.
    setMaxListeners(0, this.#closing.signal);
  }

  /** Runs `task` in `origin`'s slot; `signal` aborts the wait and is passed on to the task. */
  run<T>(
    origin: string,
    task: (signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    if (this.#closing.signal.aborted) return Promise.reject(this.#closing.signal.reason as Error);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const state = this.#state(origin);
    if (signal === undefined) {
      // No caller signal: the policy's own close signal is enough (creating an AbortSignal per
      // request costs more than the rest of the pacing put together).
      const closing = this.#closing.signal;
      return state
        .limit(async () => {
          closing.throwIfAborted();
          await this.#waitForStart(origin, state, closing);
          return task(closing);
        })
        .finally(() => this.#release(origin, state));
    }
    // One short-lived signal per task, linked to the caller's and to close(); the links are
    // removed when the task settles, so long-lived signals never collect listeners.
    const controller = new AbortController();
    const closing = this.#closing.signal;
    const onClose = (): void => controller.abort(closing.reason);
    const onCaller = (): void => controller.abort(signal?.reason);
    closing.addEventListener('abort', onClose, { once: true });
    signal?.addEventListener('abort', onCaller, { once: true });
    const taskSignal = controller.signal;
    const running = state.limit(async () => {
      taskSignal.throwIfAborted();
      await this.#waitForStart(origin, state, taskSignal);
      return task(taskSignal);
    });
    const settled = running.finally(() => {
      closing.removeEventListener('abort', onClose);
      signal?.removeEventListener('abort', onCaller);
      this.#release(origin, state);
    });
    return raceSignal(settled, taskSignal);
  }

  /** Pauses `origin` until `until` (clock ms), unless already paused longer. */
  pause(origin: string, until: number): void {
    const state = this.#state(origin);
    state.pausedUntil = Math.max(state.pausedUntil, until);
    this.#release(origin, state);
  }

  /** A 429 or 503 with a parseable `Retry-After` pauses the origin (capped at `maxRetryAfter`). */
  noteResponse(origin: string, status: number, headers: HeaderInput): void {
    if (status !== 429 && status !== 503) return;
    const raw = headerLines(headers, 'retry-after')[0];
    const { clock, maxRetryAfter, events } = this.#settings;
    const now = clock.now();
    const requested = parseRetryAfter(raw, now);
    if (raw === undefined || requested === undefined) return;
    const duration = Math.min(requested, maxRetryAfter);
    if (duration <= 0) return;
    const until = now + duration;
    this.pause(origin, until);
    if (events.wants('origin-paused')) {
      events.emit({ type: 'origin-paused', origin, status, until, duration, retryAfter: raw });
    }
  }

  /** Until when `origin` is paused (clock ms), or `undefined`. */
  pausedUntil(origin: string): number | undefined {
    const until = this.#states.get(origin)?.pausedUntil;
    return until !== undefined && until > this.#settings.clock.now() ? until : undefined;
  }

  /** Origins whose state is tracked. */
  get size(): number {
    return this.#states.size;
  }

  close(reason: Error): void {
    this.#closing.abort(reason);
  }

  #state(origin: string): OriginState {
    let state = this.#states.get(origin);
    if (state === undefined) {
      state = { limit: pLimit(this.#settings.concurrency), nextStart: 0, pausedUntil: 0 };
      this.#states.set(origin, state);
    }
    return state;
  }

  async #waitForStart(origin: string, state: OriginState, signal: AbortSignal): Promise<void> {
    const { clock, minInterval } = this.#settings;
    for (;;) {
      const now = clock.now();
      const startAt = Math.max(now, state.nextStart, state.pausedUntil);
      if (startAt <= now) {
        state.nextStart = now + Math.max(minInterval, this.#settings.crawlDelayFor(origin));
        return;
      }
      await clock.sleep(startAt - now, signal);
    }
  }

  /** Marks `origin` recently used; drops idle states beyond the bound, oldest first. */
  #release(origin: string, state: OriginState): void {
    this.#states.delete(origin);
    this.#states.set(origin, state);
    if (this.#states.size <= this.#settings.maxTrackedOrigins) return;
    for (const [key, candidate] of this.#states) {
      if (this.#states.size <= this.#settings.maxTrackedOrigins) break;
      if (candidate.limit.activeCount === 0 && candidate.limit.pendingCount === 0)
        this.#states.delete(key);
    }
  }
}
