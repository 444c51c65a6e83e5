import type { Clock } from '../time/clock.js';

/** What a hold ends: a hop's slot, given back. */
export interface HeldSlot {
  release(): void;
}

/**
 * One slot's hold, as {@link BodyHolds.start} hands it out: {@link BodyHolds.end} takes it back.
 * @example
 * const hold = holds.start(slot); // at the response headers
 * holds.end(hold); // at the body's end
 */
export class BodyHold {
  readonly slot: HeldSlot;
  /** When the slot is let go at the latest (clock ms). */
  readonly deadline: number;
  /** Ended (the body ended, or the deadline let the slot go). */
  ended = false;
  /** In the set of holds that outlived the turn they started in. */
  tracked = false;

  constructor(slot: HeldSlot, deadline: number) {
    this.slot = slot;
    this.deadline = deadline;
  }
}

/** Why a timer stops early (a constant: an abort without a reason builds a DOMException). */
const NOTHING_HELD = Symbol('nothing held');

/**
 * The `maxBodyHold` bound of one policy's slots: each slot held past its response headers is let
 * go `hold` ms later at the latest, unless its body ends first.
 *
 * Every slot gets the same hold, so deadlines arrive in the order slots were added: one timer for
 * the oldest deadline serves them all, and a slot costs a set entry, not a timer of its own (a
 * timer, an abort controller and an abort per request were a third of the interceptor's cost).
 * A body that comes with its headers ends in the turn its hold started: such holds wait in a list
 * of the turn and never enter the set (a set that empties on every delete is shrunk by a call
 * into the engine's runtime, about 1.5 µs a request in the profile of the in-process benchmark).
 */
export class BodyHolds {
  readonly #clock: Clock;
  readonly #hold: number;
  /** Holds that outlived their turn, oldest first (a Set keeps insertion order). */
  readonly #held = new Set<BodyHold>();
  /** Holds started in this turn, oldest first (moved to the set, if still held, at its end). */
  #fresh: BodyHold[] = [];
  /** Stops the running timer, if any (when no slot is held, none runs: a process can exit). */
  #timer: AbortController | undefined;

  constructor(clock: Clock, hold: number) {
    this.#clock = clock;
    this.#hold = hold;
  }

  /** Starts `slot`'s hold; {@link end} it when its body ends. */
  start(slot: HeldSlot): BodyHold {
    const hold = new BodyHold(slot, this.#clock.now() + this.#hold);
    // The first hold of a turn queues the look at the turn's end (one microtask per turn).
    if (this.#fresh.push(hold) === 1) queueMicrotask(() => this.#settle());
    return hold;
  }

  /** The slot was given back before its deadline. */
  end(hold: BodyHold): void {
    if (hold.ended) return;
    hold.ended = true;
    if (!hold.tracked) return; // still in the turn's list: dropped at its end
    if (!this.#held.delete(hold) || this.#held.size > 0) return;
    this.#timer?.abort(NOTHING_HELD);
    this.#timer = undefined;
  }

  /** The turn's holds that are still held go to the set; a timer waits for the oldest. */
  #settle(): void {
    const fresh = this.#fresh;
    this.#fresh = [];
    for (const hold of fresh) {
      if (hold.ended) continue;
      hold.tracked = true;
      this.#held.add(hold);
    }
    const oldest = this.#held.values().next();
    if (oldest.done !== true && this.#timer === undefined)
      this.#wait(oldest.value.deadline - this.#clock.now());
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
    for (const hold of this.#held) {
      if (hold.deadline > now) {
        this.#wait(hold.deadline - now);
        return;
      }
      this.#held.delete(hold);
      hold.ended = true;
      hold.slot.release();
    }
  }
}
