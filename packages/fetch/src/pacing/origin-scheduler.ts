import type { EventSink } from '../policy/events.js';
import { headerLines } from '../response/header-input.js';
import { parseRetryAfter } from './retry-after.js';
import { onAbort, raceSignal } from '../time/signals.js';
import type { Clock } from '../time/clock.js';
import type { HeaderInput } from '../policy/robots-policy.js';

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

/** A caller waiting for a slot: a node of its origin's FIFO queue (doubly linked, O(1) removal). */
interface Waiter {
  readonly resolve: () => void;
  previous: Waiter | undefined;
  next: Waiter | undefined;
}

interface OriginState {
  /** Slots taken (tasks running, or waiting out the spacing while holding their slot). */
  active: number;
  /** Oldest waiter first. */
  head: Waiter | undefined;
  tail: Waiter | undefined;
  /** Earliest start of the next request (clock ms). */
  nextStart: number;
  /** Paused by Retry-After until (clock ms). */
  pausedUntil: number;
}

/**
 * Per-origin pacing: at most `concurrency` tasks at once, starts at least `minInterval` (or
 * the origin's crawl-delay) apart, and no start while the origin is paused by a Retry-After.
 * Waiters are served first come, first served. Origins never slow each other down. Idle
 * origins' state is dropped beyond `maxTrackedOrigins` (least recently used first, those with
 * nothing left to wait for before those still paused or spaced).
 *
 * The common case costs no promise: {@link OriginScheduler.acquire} takes a free slot
 * synchronously when nobody waits and the origin may start now.
 * @example
 * await scheduler.run('https://example.com', (signal) => fetch(url, { signal }));
 */
export class OriginScheduler {
  readonly #settings: OriginSchedulerSettings;
  readonly #states = new Map<string, OriginState>();
  readonly #closing = new AbortController();
  /** The origin last marked recently used (the last key of `#states`, when it is there). */
  #recent: string | undefined;

  constructor(settings: OriginSchedulerSettings) {
    this.#settings = settings;
  }

  /** Runs `task` in `origin`'s slot; `signal` aborts the wait and is passed on to the task. */
  run<T>(
    origin: string,
    task: (signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const closing = this.#closing.signal;
    if (closing.aborted) return Promise.reject(closing.reason as Error);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    // Tracked from the call on; this state is the one the task is paced by.
    const state = this.#state(origin);
    // No caller signal: the scheduler's own close signal is enough (creating an AbortSignal per
    // request costs more than the rest of the pacing put together).
    if (signal === undefined) return this.#runInSlot(origin, state, task, closing);
    // One short-lived signal per task, linked to the caller's and to close(); the links are
    // removed when the task settles, so long-lived signals never collect listeners.
    const controller = new AbortController();
    const leaveClosing = onAbort(closing, () => controller.abort(closing.reason));
    const leaveCaller = onAbort(signal, () => controller.abort(signal.reason));
    const taskSignal = controller.signal;
    const settled = this.#runInSlot(origin, state, task, taskSignal).finally(() => {
      leaveClosing();
      leaveCaller();
    });
    return raceSignal(settled, taskSignal);
  }

  /**
   * Takes one of `origin`'s slots for the caller, who must {@link OriginScheduler.release} it
   * when done. Returns `undefined` when the slot was taken at once (a slot is free, nobody
   * waits, the origin may start now), else a promise that resolves once the slot is taken and
   * the spacing waited out, or rejects when `signal` aborts first. `signal` defaults to the
   * scheduler's close signal and replaces it: pass one linked to both when both matter (as
   * {@link OriginScheduler.run} does). `crawlDelay` is the origin's crawl-delay spacing when
   * the caller already knows it (saves a lookup for the first try).
   * @example
   * const waiting = scheduler.acquire(origin);
   * if (waiting !== undefined) await waiting;
   * try { await work(); } finally { scheduler.release(origin); }
   */
  acquire(origin: string, signal?: AbortSignal, crawlDelay?: number): Promise<void> | undefined {
    return this.#acquire(origin, this.#state(origin), signal, crawlDelay);
  }

  /** Gives back a slot taken with {@link OriginScheduler.acquire}; the oldest waiter gets it. */
  release(origin: string): void {
    const state = this.#states.get(origin);
    if (state !== undefined) this.#release(origin, state);
  }

  #acquire(
    origin: string,
    state: OriginState,
    signal: AbortSignal | undefined,
    crawlDelay: number | undefined,
  ): Promise<void> | undefined {
    const closing = this.#closing.signal;
    if (closing.aborted) return Promise.reject(closing.reason as Error);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (state.active < this.#settings.concurrency && state.head === undefined) {
      state.active += 1;
      if (this.#tryStart(origin, state, crawlDelay)) return undefined;
      return this.#waitForStart(origin, state, signal ?? closing);
    }
    return this.#enqueue(state, signal ?? closing).then(() =>
      this.#waitForStart(origin, state, signal ?? closing),
    );
  }

  #release(origin: string, state: OriginState): void {
    state.active -= 1;
    const waiter = state.head;
    if (waiter !== undefined && state.active < this.#settings.concurrency) {
      this.#unlink(state, waiter);
      state.active += 1;
      waiter.resolve();
    }
    this.#touch(origin, state);
  }

  /** Pauses `origin` until `until` (clock ms), unless already paused longer. */
  pause(origin: string, until: number): void {
    const state = this.#state(origin);
    state.pausedUntil = Math.max(state.pausedUntil, until);
    this.#touch(origin, state);
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

  async #runInSlot<T>(
    origin: string,
    state: OriginState,
    task: (signal: AbortSignal) => Promise<T>,
    signal: AbortSignal,
  ): Promise<T> {
    // The slot is asked for after the caller's synchronous code, never inside `run()` itself
    // (a pause or close right after `run()` applies to this task, as it always did).
    await Promise.resolve();
    try {
      const waiting = this.#acquire(origin, state, signal, undefined);
      if (waiting !== undefined) await waiting;
    } catch (error) {
      // Never started: the origin still counts as used now.
      this.#touch(origin, state);
      throw error;
    }
    try {
      return await task(signal);
    } finally {
      this.#release(origin, state);
    }
  }

  #state(origin: string): OriginState {
    let state = this.#states.get(origin);
    if (state === undefined) {
      state = { active: 0, head: undefined, tail: undefined, nextStart: 0, pausedUntil: 0 };
      this.#states.set(origin, state);
      this.#recent = origin;
    }
    return state;
  }

  /** Starts now if spacing and pauses allow it (booking the next start); `false` otherwise. */
  #tryStart(origin: string, state: OriginState, crawlDelay?: number): boolean {
    const { clock, minInterval, crawlDelayFor } = this.#settings;
    const now = clock.now();
    if (state.nextStart > now || state.pausedUntil > now) return false;
    const delay = crawlDelay ?? crawlDelayFor(origin);
    state.nextStart = now + (delay > minInterval ? delay : minInterval);
    return true;
  }

  /** Holding a slot: waits until the origin may start; gives the slot back when `signal` aborts. */
  async #waitForStart(origin: string, state: OriginState, signal: AbortSignal): Promise<void> {
    const { clock } = this.#settings;
    try {
      signal.throwIfAborted();
      while (!this.#tryStart(origin, state)) {
        const now = clock.now();
        await clock.sleep(Math.max(state.nextStart, state.pausedUntil) - now, signal);
      }
    } catch (error) {
      this.#release(origin, state);
      throw error;
    }
  }

  /** Queues for a slot; resolves once `release` hands one over (already counted as taken). */
  #enqueue(state: OriginState, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: () => {
          leave();
          resolve();
        },
        previous: state.tail,
        next: undefined,
      };
      if (state.tail === undefined) state.head = waiter;
      else state.tail.next = waiter;
      state.tail = waiter;
      const leave = onAbort(signal, () => {
        this.#unlink(state, waiter);
        reject(signal.reason as Error);
      });
    });
  }

  #unlink(state: OriginState, waiter: Waiter): void {
    if (waiter.previous === undefined) state.head = waiter.next;
    else waiter.previous.next = waiter.next;
    if (waiter.next === undefined) state.tail = waiter.previous;
    else waiter.next.previous = waiter.previous;
    waiter.previous = undefined;
    waiter.next = undefined;
  }

  /**
   * Marks `origin` recently used; drops idle states beyond the bound, oldest first. A state
   * that still holds back a start (a Retry-After pause, or spacing not yet waited out) is kept
   * while an idle one without can go instead: dropping it would let the next request start at
   * once. Only when more than the bound are held back at the same time do the oldest of those
   * go too, so the bound always holds.
   */
  #touch(origin: string, state: OriginState): void {
    const states = this.#states;
    const bound = this.#settings.maxTrackedOrigins;
    if (origin !== this.#recent) {
      states.delete(origin);
      states.set(origin, state);
      this.#recent = origin;
    }
    if (states.size <= bound) return;
    const now = this.#settings.clock.now();
    this.#evict((candidate) => candidate.pausedUntil <= now && candidate.nextStart <= now);
    if (states.size > bound) this.#evict(() => true);
  }

  /** Drops idle states for which `droppable` holds, oldest first, down to the bound. */
  #evict(droppable: (state: OriginState) => boolean): void {
    const states = this.#states;
    const bound = this.#settings.maxTrackedOrigins;
    for (const [key, candidate] of states) {
      if (states.size <= bound) break;
      if (candidate.active === 0 && candidate.head === undefined && droppable(candidate)) {
        states.delete(key);
        if (key === this.#recent) this.#recent = undefined;
      }
    }
  }
}
