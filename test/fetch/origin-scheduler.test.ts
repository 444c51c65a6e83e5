import { describe, expect, it } from 'vitest';
import { OriginScheduler } from '../../packages/fetch/src/pacing/origin-scheduler.js';
import type { PaceRules, PacerSlot } from '../../packages/fetch/src/pacing/pacer.js';
import { FakeClock, tick } from './helpers/fake-clock.js';

const ORIGIN = 'http://a.localhost';
const ONE: PaceRules = { concurrency: 1, interval: 0 };

function scheduler(): { scheduler: OriginScheduler; clock: FakeClock } {
  const clock = new FakeClock();
  return { clock, scheduler: new OriginScheduler({ maxTrackedOrigins: 100, clock }) };
}

async function ticks(n = 20): Promise<void> {
  for (let i = 0; i < n; i += 1) await tick();
}

/** The slot of an acquire answered at once (the hot path: no promise). */
function now(got: PacerSlot | Promise<PacerSlot>): PacerSlot {
  expect(got).not.toBeInstanceOf(Promise);
  return got as PacerSlot;
}

function later(got: PacerSlot | Promise<PacerSlot>): Promise<PacerSlot> {
  expect(got).toBeInstanceOf(Promise);
  return got as Promise<PacerSlot>;
}

describe('acquire / release (the hot path)', () => {
  it('takes a free slot at once, without a promise, and gives it to the oldest waiter on release', async () => {
    const { scheduler: s } = scheduler();
    const first = now(s.acquire(ORIGIN, ONE));
    const order: string[] = [];
    const second = later(s.acquire(ORIGIN, ONE)).then((slot) => (order.push('second'), slot));
    const third = later(s.acquire(ORIGIN, ONE)).then((slot) => (order.push('third'), slot));
    await ticks();
    expect(order).toEqual([]);
    first.release();
    const secondSlot = await second;
    await ticks();
    expect(order).toEqual(['second']);
    secondSlot.release();
    (await third).release();
    expect(order).toEqual(['second', 'third']);
    // Free again, nobody waiting: at once.
    now(s.acquire(ORIGIN, ONE)).release();
  });

  it('a slot released twice is given back once', async () => {
    const { scheduler: s } = scheduler();
    const two = { concurrency: 2, interval: 0 };
    const a = now(s.acquire(ORIGIN, two));
    now(s.acquire(ORIGIN, two));
    a.release();
    a.release();
    now(s.acquire(ORIGIN, two));
    // Both slots are taken again: the second release of `a` freed nothing.
    const waiting = later(s.acquire(ORIGIN, two));
    await ticks();
    await expect(Promise.race([waiting, Promise.resolve('waiting')])).resolves.toBe('waiting');
  });

  it('never jumps the queue: a free slot with waiters still queues the newcomer', async () => {
    const { scheduler: s } = scheduler();
    const two = { concurrency: 2, interval: 0 };
    const a = now(s.acquire(ORIGIN, two));
    now(s.acquire(ORIGIN, two));
    const order: string[] = [];
    const waiting = later(s.acquire(ORIGIN, two)).then((slot) => (order.push('waiter'), slot));
    a.release();
    // The slot went to the waiter, so a newcomer waits behind it.
    const newcomer = later(s.acquire(ORIGIN, two));
    const waiterSlot = await waiting;
    expect(order).toEqual(['waiter']);
    waiterSlot.release();
    (await newcomer).release();
  });

  it('a waiter whose signal aborts leaves the queue at once; the next one gets the slot', async () => {
    const { scheduler: s } = scheduler();
    const first = now(s.acquire(ORIGIN, ONE));
    const controller = new AbortController();
    const why = new Error('caller aborted');
    const aborted = s.acquire(ORIGIN, ONE, controller.signal);
    let next = false;
    const after = later(s.acquire(ORIGIN, ONE)).then(() => (next = true));
    controller.abort(why);
    await expect(aborted).rejects.toBe(why);
    first.release();
    await after;
    expect(next).toBe(true);
  });

  it('close() rejects the waiters (with a signal of their own too) with its reason; a slot taken before stays releasable', async () => {
    const { scheduler: s } = scheduler();
    const first = now(s.acquire(ORIGIN, ONE));
    const waiting = s.acquire(ORIGIN, ONE);
    const withSignal = s.acquire(ORIGIN, ONE, new AbortController().signal);
    const why = new Error('closed');
    await s.close(why);
    await expect(waiting).rejects.toBe(why);
    await expect(withSignal).rejects.toBe(why);
    first.release();
    await expect(s.acquire(ORIGIN, ONE)).rejects.toBe(why);
  });

  it('spaces starts by the interval of the rules each acquire brings', async () => {
    const { scheduler: s, clock } = scheduler();
    const start = clock.now();
    now(s.acquire(ORIGIN, { concurrency: 1, interval: 30 })).release();
    let started = 0;
    const second = later(s.acquire(ORIGIN, { concurrency: 1, interval: 50 })).then((slot) => {
      started = clock.now();
      return slot;
    });
    await clock.advance(29);
    expect(started).toBe(0);
    await clock.advance(1);
    (await second).release();
    expect(started).toBe(start + 30);
    // This start booked its own interval (50 ms).
    let third = 0;
    const waiting = later(s.acquire(ORIGIN, ONE)).then(() => (third = clock.now()));
    await clock.advance(49);
    expect(third).toBe(0);
    await clock.advance(1);
    await waiting;
    expect(third).toBe(start + 80);
  });

  it('pause() holds every start of the origin back; the longest pause wins', async () => {
    const { scheduler: s, clock } = scheduler();
    const start = clock.now();
    s.pause(ORIGIN, 1_000);
    s.pause(ORIGIN, 500);
    expect(s.pausedUntil(ORIGIN)).toBe(start + 1_000);
    let startedAt = 0;
    const waiting = later(s.acquire(ORIGIN, ONE)).then(() => (startedAt = clock.now()));
    await clock.advance(999);
    expect(startedAt).toBe(0);
    await clock.advance(1);
    await waiting;
    expect(startedAt).toBe(start + 1_000);
  });
});
