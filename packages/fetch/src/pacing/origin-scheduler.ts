import type { Clock } from '../time/clock.js';
import { onAbort } from '../time/signals.js';
import { NO_BACKOFF, nextBackoff, smoothLatency, spacingOf } from './backoff.js';
import type { BackoffState } from './backoff.js';
import type { PaceChange, PaceOutcome, PaceRules, Pacer, PacerSlot } from './pacer.js';

interface Settings {
  readonly maxTrackedOrigins: number;
  readonly clock: Clock;
}

/** A caller waiting for a slot: a node of its origin's FIFO queue (doubly linked, O(1) removal). */
interface Waiter {
  readonly rules: PaceRules;
  readonly resolve: () => void;
  previous: Waiter | undefined;
  next: Waiter | undefined;
}

interface OriginState {
  /** Slots taken (requests in flight, or waiting out the spacing while holding their slot). */
  active: number;
  /** Oldest waiter first. */
  head: Waiter | undefined;
  tail: Waiter | undefined;
  /** Earliest start of the next request (clock ms). */
  nextStart: number;
  /** The latest start (clock ms). */
  lastStart: number;
  /** Paused by Retry-After until (clock ms). */
  pausedUntil: number;
  /** Back-off after distress outcomes (see `backoff.ts`). */
  backoff: BackoffState;
  /** Smoothed response time, ms; `undefined` before the first response. */
  latency: number | undefined;
}

/** One granted slot; its second release does nothing. */
class Slot implements PacerSlot {
  #scheduler: OriginScheduler | undefined;
  readonly #origin: string;
  readonly #state: OriginState;
  readonly #rules: PaceRules;

  constructor(scheduler: OriginScheduler, origin: string, state: OriginState, rules: PaceRules) {
    this.#scheduler = scheduler;
    this.#origin = origin;
    this.#state = state;
    this.#rules = rules;
  }

  release(outcome?: PaceOutcome): PaceChange | undefined {
    const scheduler = this.#scheduler;
    if (scheduler === undefined) return undefined;
    this.#scheduler = undefined;
    return scheduler.giveBack(this.#origin, this.#state, this.#rules, outcome);
  }
}

/**
 * The in-memory {@link Pacer}, the default: per origin, at most `rules.concurrency` slots at
 * once, starts at least `rules.interval` apart (wider while the origin backs off after distress
 * outcomes, and at least `rules.latencyFactor` × its smoothed response time), and no start
 * while the origin is paused by a Retry-After. Waiters are served first come, first served. Origins never slow each other down.
 * Idle origins' state is dropped beyond `maxTrackedOrigins` (least recently used first, those
 * with nothing left to wait for before those still paused or spaced). A free slot is returned
 * as it is, without a promise (see {@link Pacer.acquire}).
 * @example
 * const got = scheduler.acquire('https://example.com', { concurrency: 1, interval: 1_000 });
 * const slot = got instanceof Promise ? await got : got;
 * try { await fetch(url); } finally { slot.release(); }
 */
export class OriginScheduler implements Pacer {
  readonly #settings: Settings;
  readonly #states = new Map<string, OriginState>();
  readonly #closing = new AbortController();
  /** The origin last marked recently used (the last key of `#states`, when it is there). */
  #recent: string | undefined;

  constructor(settings: Settings) {
    this.#settings = settings;
  }

  acquire(origin: string, rules: PaceRules, signal?: AbortSignal): PacerSlot | Promise<PacerSlot> {
    const closing = this.#closing.signal;
    if (closing.aborted) return Promise.reject(closing.reason as Error);
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const state = this.#state(origin);
    if (state.active < rules.concurrency && state.head === undefined) {
      state.active += 1;
      if (this.#tryStart(state, rules)) return new Slot(this, origin, state, rules);
      return this.#waitForStart(origin, state, rules, signal);
    }
    return this.#enqueue(state, rules, signal).then(() =>
      this.#waitForStart(origin, state, rules, signal),
    );
  }

  /** Internal (a {@link Slot}'s): gives a slot back, with how its request went. */
  giveBack(
    origin: string,
    state: OriginState,
    rules: PaceRules,
    outcome: PaceOutcome | undefined,
  ): PaceChange | undefined {
    const change = outcome === undefined ? undefined : this.#note(state, rules, outcome);
    this.#release(origin, state);
    return change;
  }

  #release(origin: string, state: OriginState): void {
    state.active -= 1;
    const waiter = state.head;
    if (waiter !== undefined && state.active < waiter.rules.concurrency) {
      this.#unlink(state, waiter);
      state.active += 1;
      waiter.resolve();
    }
    this.#touch(origin, state);
  }

  /**
   * Takes a request's outcome in: its response time into the smoothed one, and its back-off
   * step. A distress outcome pushes the next start to at least the new spacing from now; a
   * success that shrinks the spacing brings a start booked under the wider one forward (to the
   * latest start plus the new spacing).
   */
  #note(state: OriginState, rules: PaceRules, outcome: PaceOutcome): PaceChange | undefined {
    const { kind, latency } = outcome;
    if (latency !== undefined && Number.isFinite(latency)) {
      state.latency = smoothLatency(state.latency, latency);
    }
    const before = state.backoff;
    const after = nextBackoff(before, kind, rules.interval, rules.maxBackoff ?? 0);
    if (after === before) return undefined;
    state.backoff = after;
    if (kind === 'distress') {
      state.nextStart = Math.max(state.nextStart, this.#settings.clock.now() + after.spacing);
      return { kind: 'backoff', distress: after.distress, delay: after.spacing };
    }
    state.nextStart = Math.min(state.nextStart, state.lastStart + this.#spacing(state, rules));
    return after.spacing === 0 && before.spacing > 0 ? { kind: 'recovered' } : undefined;
  }

  pause(origin: string, ms: number): void {
    const state = this.#state(origin);
    state.pausedUntil = Math.max(state.pausedUntil, this.#settings.clock.now() + ms);
    this.#touch(origin, state);
  }

  /** Until when `origin` is paused (clock ms), or `undefined`. */
  pausedUntil(origin: string): number | undefined {
    const until = this.#states.get(origin)?.pausedUntil;
    return until !== undefined && until > this.#settings.clock.now() ? until : undefined;
  }

  /** The spacing `origin` is backed off to now, ms (0: none). */
  backoff(origin: string): number {
    return this.#states.get(origin)?.backoff.spacing ?? 0;
  }

  /** Origins whose state is tracked. */
  get size(): number {
    return this.#states.size;
  }

  close(reason: Error): Promise<void> {
    this.#closing.abort(reason);
    return Promise.resolve();
  }

  #state(origin: string): OriginState {
    let state = this.#states.get(origin);
    if (state === undefined) {
      state = {
        active: 0,
        head: undefined,
        tail: undefined,
        nextStart: 0,
        lastStart: 0,
        pausedUntil: 0,
        backoff: NO_BACKOFF,
        latency: undefined,
      };
      this.#states.set(origin, state);
      this.#recent = origin;
    }
    return state;
  }

  /** Starts now if spacing and pauses allow it (booking the next start); `false` otherwise. */
  #tryStart(state: OriginState, rules: PaceRules): boolean {
    const now = this.#settings.clock.now();
    if (state.nextStart > now || state.pausedUntil > now) return false;
    state.lastStart = now;
    state.nextStart = now + this.#spacing(state, rules);
    return true;
  }

  /** The origin's start-to-start spacing now (see `spacingOf`). */
  #spacing(state: OriginState, rules: PaceRules): number {
    if (state.backoff === NO_BACKOFF && state.latency === undefined) return rules.interval;
    return spacingOf(
      rules.interval,
      state.backoff.spacing,
      rules.latencyFactor ?? 0,
      state.latency,
    );
  }

  /**
   * Holding a slot: waits until the origin may start; gives the slot back when `signal` aborts
   * or the scheduler closes.
   */
  async #waitForStart(
    origin: string,
    state: OriginState,
    rules: PaceRules,
    signal: AbortSignal | undefined,
  ): Promise<PacerSlot> {
    const { clock } = this.#settings;
    const closing = this.#closing.signal;
    const wait = signal === undefined ? closing : AbortSignal.any([signal, closing]);
    try {
      wait.throwIfAborted();
      while (!this.#tryStart(state, rules)) {
        const now = clock.now();
        await clock.sleep(Math.max(state.nextStart, state.pausedUntil) - now, wait);
      }
    } catch (error) {
      this.#release(origin, state);
      throw error;
    }
    return new Slot(this, origin, state, rules);
  }

  /**
   * Queues for a slot; resolves once `release` hands one over (already counted as taken).
   * Leaves the queue when `signal` aborts or the scheduler closes.
   */
  #enqueue(state: OriginState, rules: PaceRules, signal: AbortSignal | undefined): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        rules,
        resolve: () => {
          leaveClosing();
          leaveCaller?.();
          resolve();
        },
        previous: state.tail,
        next: undefined,
      };
      if (state.tail === undefined) state.head = waiter;
      else state.tail.next = waiter;
      state.tail = waiter;
      const leave = (why: AbortSignal) => (): void => {
        leaveClosing();
        leaveCaller?.();
        this.#unlink(state, waiter);
        reject(why.reason as Error);
      };
      const closing = this.#closing.signal;
      const leaveClosing = onAbort(closing, leave(closing));
      const leaveCaller = signal === undefined ? undefined : onAbort(signal, leave(signal));
    });
  }

  #unlink(state: OriginState, waiter: Waiter): void {
    if (waiter.previous === undefined) {
      if (state.head !== waiter) return; // already unlinked
      state.head = waiter.next;
    } else waiter.previous.next = waiter.next;
    if (waiter.next === undefined) state.tail = waiter.previous;
    else waiter.next.previous = waiter.previous;
    waiter.previous = undefined;
    waiter.next = undefined;
  }

  /**
   * Marks `origin` recently used; drops idle states beyond the bound, oldest first. A state
   * that still holds back a start (a Retry-After pause, spacing not yet waited out, a back-off
   * not yet recovered) is kept while an idle one without can go instead: dropping it would let
   * the next request start at once. Only when more than the bound are held back at the same time do the oldest of those
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
    this.#evict(
      (candidate) =>
        candidate.pausedUntil <= now &&
        candidate.nextStart <= now &&
        candidate.backoff.spacing === 0,
    );
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
