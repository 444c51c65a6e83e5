import { distressOf, isDistressStatus } from '../pacing/distress.js';
import type { DistressFailure } from '../pacing/distress.js';
import type { PaceOutcome, PacerSlot } from '../pacing/pacer.js';
import type { Clock } from '../time/clock.js';

/**
 * How one hop went, for the pacer: timed from its start to its response headers (latency-aware
 * pacing) and classed as success, distress or neutral (back-off), then handed to the pacer with
 * the slot. A policy decides once, when it is made, whether its hops note any of it: with
 * back-off and latency pacing both off and a pacer of its own, an outcome would change nothing,
 * and its hops take {@link UNNOTED} (no clock read, no outcome object, no bookkeeping).
 * @example
 * const outcome = notesOutcomes ? new NotedOutcome(clock, origin, policy) : UNNOTED;
 */
export interface HopOutcome {
  /** The hop goes out now (a slot held a while before its request left): its time counts from here. */
  sent(): void;
  /** The response headers are in; `retryAfter`: the response had a Retry-After the policy paused for. */
  response(status: number, retryAfter: boolean): void;
  /** The hop failed without a response, or its body failed: a connection error or a timeout is distress. */
  failure(error: unknown): void;
  /** Gives `slot` back to the pacer, with the outcome. */
  release(slot: PacerSlot): void;
}

/** Where a noted outcome's effect goes: the policy publishes what it changed (events). */
export interface OutcomeChanges {
  noteChange(
    origin: string,
    cause: number | DistressFailure,
    change: ReturnType<PacerSlot['release']>,
  ): void;
}

/** The outcome of a hop whose policy notes none: the slot goes back as it is. */
export const UNNOTED: HopOutcome = Object.freeze({
  sent(): void {},
  response(): void {},
  failure(): void {},
  release(slot: PacerSlot): void {
    slot.release();
  },
});

/**
 * The outcome of a hop whose policy backs off on distress or paces by latency (or shares a
 * fleet's pacer, whose other members may).
 * @example
 * const outcome = new NotedOutcome(clock, 'https://example.com', policy);
 * outcome.response(503, false); // distress
 * outcome.release(slot); // the pacer backs the origin off
 */
export class NotedOutcome implements HopOutcome {
  readonly #clock: Clock;
  readonly #origin: string;
  readonly #changes: OutcomeChanges;
  /** When the hop went out (clock ms): its grant, or `sent()`; its response time counts from it. */
  #startedAt: number;
  /** How the hop went (none yet: the release changes nothing). */
  #outcome: PaceOutcome | undefined;
  /** What made the outcome distress: the status, or the kind of failure. */
  #cause: number | DistressFailure = 0;

  constructor(clock: Clock, origin: string, changes: OutcomeChanges) {
    this.#clock = clock;
    this.#origin = origin;
    this.#changes = changes;
    this.#startedAt = clock.now();
  }

  sent(): void {
    this.#startedAt = this.#clock.now();
  }

  response(status: number, retryAfter: boolean): void {
    const latency = this.#clock.now() - this.#startedAt;
    if (retryAfter) {
      this.#outcome = { kind: 'neutral', latency };
    } else if (isDistressStatus(status)) {
      this.#outcome = { kind: 'distress', latency };
      this.#cause = status;
    } else {
      this.#outcome = { kind: 'success', latency };
    }
  }

  failure(error: unknown): void {
    const failure = distressOf(error);
    if (failure === undefined) return;
    this.#outcome = { kind: 'distress' };
    this.#cause = failure;
  }

  release(slot: PacerSlot): void {
    const outcome = this.#outcome;
    if (outcome === undefined) {
      slot.release();
      return;
    }
    this.#changes.noteChange(this.#origin, this.#cause, slot.release(outcome));
  }
}
