import type { Clock } from '../time/clock.js';

/** What a hold ends: a hop's slot, given back. */
export interface HeldSlot {
  release(): void;
}

/** Why a timer stops early (a constant: an abort without a reason builds a DOMException). */
const NOTHING_HELD = Symbol('nothing held');

/**
 * The `maxBodyHold` bound of one policy's slots: each slot held past its response headers is let
 * go `hold` ms later at the latest, unless its body ends first.
 *
 * Every slot gets the same hold, so deadlines arrive in the order slots were added: one timer for
 * the oldest deadline serves them all, and a slot costs a map entry, not a timer of its own (a
 * timer, an abort controller and an abort per request were a third of the interceptor's cost).
 */
export class BodyHolds {
  readonly #clock: Clock;
  readonly #hold: number;
  /** Held slots and their deadlines (clock ms), oldest first: a Map keeps insertion order. */
  readonly #deadlines = new Map<HeldSlot, number>();
  /** Stops the running timer, if any (when no slot is held, none runs: a process can exit). */
  #timer: AbortController | undefined;
  /** A check for a hold outliving this turn is queued. */
  #arming = false;

  constructor(clock: Clock, hold: number) {
    this.#clock = clock;
    this.#hold = hold;
  }

  /** Starts `slot`'s hold; {@link end} it when its body ends. */
  start(slot: HeldSlot): void {
    this.#deadlines.set(slot, this.#clock.now() + this.#hold);
    if (this.#timer !== undefined || this.#arming) return;
    // A body that comes with its headers ends in the same turn: a timer is armed only if a hold
    // outlives the turn (most responses on a fast network never need one).
    this.#arming = true;
    queueMicrotask(() => {
      this.#arming = false;
      const oldest = this.#deadlines.values().next();
      if (oldest.done !== true && this.#timer === undefined)
        this.#wait(oldest.value - this.#clock.now());
    });
  }

  /** The slot was given back before its deadline. */
  end(slot: HeldSlot): void {
    if (!this.#deadlines.delete(slot) || this.#deadlines.size > 0) return;
    this.#timer?.abort(NOTHING_HELD);
    this.#timer = undefined;
  }

  #wait(ms: number): void {
    const timer = new AbortController();
    this.#timer = timer;
    this.#clock.sleep(ms, timer.signal).then(
      () => this.#expire(),
      () => undefined, // stopped: nothing is held
    );
  }

  /** Lets go every slot whose deadline has passed, then waits for the next one. */
  #expire(): void {
    this.#timer = undefined;
    const now = this.#clock.now();
    for (const [slot, deadline] of this.#deadlines) {
      if (deadline > now) {
        this.#wait(deadline - now);
        return;
      }
      this.#deadlines.delete(slot);
      slot.release();
    }
  }
}
