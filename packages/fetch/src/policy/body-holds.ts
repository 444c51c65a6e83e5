import { startTimer, systemClock } from '../time/clock.js';
import type { Clock } from '../time/clock.js';

/** What a hold ends: a hop's slot, given back. */
export interface HeldSlot {
  release(): void;
}

/**
 * One slot's hold, as {@link BodyHolds.start} hands it out: {@link BodyHolds.end} takes it back.
 * A link of its policy's list of holds, oldest first.
 * @example
 * const hold = holds.start(slot); // at the response headers
 * holds.end(hold); // at the body's end
 */
export class BodyHold {
  readonly slot: HeldSlot;
  /** When the slot is let go at the latest (clock ms). */
  readonly deadline: number;
  /** Still held: in the list. */
  held = true;
  previous: BodyHold | undefined;
  next: BodyHold | undefined;

  constructor(slot: HeldSlot, deadline: number, previous: BodyHold | undefined) {
    this.slot = slot;
    this.deadline = deadline;
    this.previous = previous;
  }
}

/**
 * The `maxBodyHold` bound of one policy's slots: each slot held past its response headers is let
 * go `hold` ms later at the latest, unless its body ends first.
 *
 * Every slot gets the same hold, so deadlines arrive in the order slots were added: a list
 * (linked through the holds: adding and taking out cost no search and no resizing) and one timer
 * for the oldest deadline serve them all. Most bodies end within moments of their headers, so
 * most holds end long before the timer fires. On real time the timer is left running when the
 * last hold ends (stopping and restarting a timer for every request costs more than the rest of
 * the hold) and does not keep a process alive; an injected clock's (a test's) is stopped then.
 */
export class BodyHolds {
  readonly #clock: Clock;
  readonly #hold: number;
  #oldest: BodyHold | undefined;
  #newest: BodyHold | undefined;
  /** Stops the running timer, if any. */
  #stopTimer: (() => void) | undefined;

  constructor(clock: Clock, hold: number) {
    this.#clock = clock;
    this.#hold = hold;
  }

  /** Starts `slot`'s hold; {@link end} it when its body ends. */
  start(slot: HeldSlot): BodyHold {
    const newest = this.#newest;
    const hold = new BodyHold(slot, this.#clock.now() + this.#hold, newest);
    if (newest === undefined) this.#oldest = hold;
    else newest.next = hold;
    this.#newest = hold;
    this.#stopTimer ??= this.#wait(this.#hold);
    return hold;
  }

  /** The slot was given back before its deadline. */
  end(hold: BodyHold): void {
    if (!hold.held) return;
    this.#unlink(hold);
    if (this.#oldest === undefined && this.#clock !== systemClock) {
      this.#stopTimer?.();
      this.#stopTimer = undefined;
    }
  }

  #unlink(hold: BodyHold): void {
    hold.held = false;
    const { previous, next } = hold;
    if (previous === undefined) this.#oldest = next;
    else previous.next = next;
    if (next === undefined) this.#newest = previous;
    else next.previous = previous;
  }

  #wait(ms: number): () => void {
    return startTimer(this.#clock, ms, () => this.#expire(), { keepsProcessAlive: false });
  }

  /** Lets go every slot whose deadline has passed, then waits for the next one. */
  #expire(): void {
    this.#stopTimer = undefined;
    const now = this.#clock.now();
    for (let hold = this.#oldest; hold !== undefined; hold = this.#oldest) {
      if (hold.deadline > now) {
        this.#stopTimer = this.#wait(hold.deadline - now);
        return;
      }
      this.#unlink(hold);
      hold.slot.release();
    }
  }
}
