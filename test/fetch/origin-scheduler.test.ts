import { describe, expect, it } from 'vitest';
import { OriginScheduler } from '../../packages/fetch/src/pacing/origin-scheduler.js';
import type { OriginSchedulerSettings } from '../../packages/fetch/src/pacing/origin-scheduler.js';
import { createEventSink } from '../../packages/fetch/src/policy/events.js';
import { FakeClock, tick } from './helpers/fake-clock.js';

const ORIGIN = 'http://a.localhost';

function scheduler(settings: Partial<OriginSchedulerSettings> = {}): {
  scheduler: OriginScheduler;
  clock: FakeClock;
} {
  const clock = new FakeClock();
  return {
    clock,
    scheduler: new OriginScheduler({
      concurrency: 1,
      minInterval: 0,
      maxRetryAfter: 60_000,
      maxTrackedOrigins: 100,
      clock,
      events: createEventSink(undefined),
      crawlDelayFor: () => 0,
      ...settings,
    }),
  };
}

async function ticks(n = 20): Promise<void> {
  for (let i = 0; i < n; i += 1) await tick();
}

describe('acquire / release (the polite fetch hot path)', () => {
  it('takes a free slot at once, without a promise, and gives it to the oldest waiter on release', async () => {
    const { scheduler: s } = scheduler();
    expect(s.acquire(ORIGIN)).toBeUndefined();
    const order: string[] = [];
    const second = s.acquire(ORIGIN)!.then(() => order.push('second'));
    const third = s.acquire(ORIGIN)!.then(() => order.push('third'));
    await ticks();
    expect(order).toEqual([]);
    s.release(ORIGIN);
    await second;
    await ticks();
    expect(order).toEqual(['second']);
    s.release(ORIGIN);
    await third;
    expect(order).toEqual(['second', 'third']);
    s.release(ORIGIN);
    // Free again, nobody waiting: at once.
    expect(s.acquire(ORIGIN)).toBeUndefined();
  });

  it('never jumps the queue: a free slot with waiters still queues the newcomer', async () => {
    const { scheduler: s } = scheduler({ concurrency: 2 });
    expect(s.acquire(ORIGIN)).toBeUndefined();
    expect(s.acquire(ORIGIN)).toBeUndefined();
    const order: string[] = [];
    const waiting = s.acquire(ORIGIN)!.then(() => order.push('waiter'));
    s.release(ORIGIN);
    // The slot went to the waiter, so a newcomer waits behind it.
    const newcomer = s.acquire(ORIGIN);
    expect(newcomer).toBeInstanceOf(Promise);
    await waiting;
    expect(order).toEqual(['waiter']);
    s.release(ORIGIN);
    await newcomer;
  });

  it('a waiter whose signal aborts leaves the queue at once; the next one gets the slot', async () => {
    const { scheduler: s } = scheduler();
    expect(s.acquire(ORIGIN)).toBeUndefined();
    const controller = new AbortController();
    const why = new Error('caller aborted');
    const aborted = s.acquire(ORIGIN, controller.signal)!;
    let next = false;
    const after = s.acquire(ORIGIN)!.then(() => (next = true));
    controller.abort(why);
    await expect(aborted).rejects.toBe(why);
    s.release(ORIGIN);
    await after;
    expect(next).toBe(true);
  });

  it('close() rejects the waiters with its reason; a slot taken before stays releasable', async () => {
    const { scheduler: s } = scheduler();
    expect(s.acquire(ORIGIN)).toBeUndefined();
    const waiting = s.acquire(ORIGIN)!;
    const why = new Error('closed');
    s.close(why);
    await expect(waiting).rejects.toBe(why);
    s.release(ORIGIN);
    await expect(s.acquire(ORIGIN)!).rejects.toBe(why);
  });

  it('spaces starts by the crawl-delay it is given, then by the one it looks up', async () => {
    const { scheduler: s, clock } = scheduler({ minInterval: 10, crawlDelayFor: () => 50 });
    const start = clock.now();
    expect(s.acquire(ORIGIN, undefined, 30)).toBeUndefined();
    s.release(ORIGIN);
    let started = 0;
    const second = s.acquire(ORIGIN)!.then(() => (started = clock.now()));
    await clock.advance(29);
    expect(started).toBe(0);
    await clock.advance(1);
    await second;
    expect(started).toBe(start + 30);
    s.release(ORIGIN);
    // This start used the looked-up crawl-delay (50 ms).
    let third = 0;
    const waiting = s.acquire(ORIGIN)!.then(() => (third = clock.now()));
    await clock.advance(49);
    expect(third).toBe(0);
    await clock.advance(1);
    await waiting;
    expect(third).toBe(start + 80);
  });
});

describe('run', () => {
  it('never runs the task inside run() itself: a pause right after it still applies', async () => {
    const { scheduler: s, clock } = scheduler();
    const start = clock.now();
    let startedAt: number | undefined;
    const running = s.run(ORIGIN, () => {
      startedAt = clock.now();
      return Promise.resolve();
    });
    expect(startedAt).toBeUndefined();
    s.pause(ORIGIN, start + 1_000);
    await ticks();
    expect(startedAt).toBeUndefined();
    await clock.advance(1_000);
    await running;
    expect(startedAt).toBe(start + 1_000);
  });
});
