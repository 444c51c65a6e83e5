import { describe, expect, it } from 'vitest';
import { RobotsEntries } from '../../packages/fetch/src/robots/robots-entries.js';
import type { RetryAware } from '../../packages/fetch/src/robots/robots-entries.js';

/** A clock at a time the test sets. */
function clockAt(time: number) {
  const clock = { time, now: () => clock.time, sleep: () => Promise.resolve() };
  return clock;
}

function ok(expiresAt: number): RetryAware {
  return { stored: { expiresAt, latest: { status: 'ok' } } };
}

function unreachable(expiresAt: number): RetryAware {
  return { stored: { expiresAt, latest: { status: 'unreachable' } } };
}

function held(entries: RobotsEntries<RetryAware>, origins: string[]): string[] {
  return origins.filter((origin) => entries.peek(origin) !== undefined);
}

describe('RobotsEntries', () => {
  it('holds at most max entries, dropping the least recently used ordinary one', () => {
    const entries = new RobotsEntries<RetryAware>(2, clockAt(0));
    entries.set('a', ok(100));
    entries.set('b', ok(100));
    entries.get('a');
    entries.set('c', ok(100));
    expect(held(entries, ['a', 'b', 'c'])).toEqual(['a', 'c']);
    expect(entries.size).toBe(2);
  });

  it('replacing an entry drops nothing', () => {
    const entries = new RobotsEntries<RetryAware>(2, clockAt(0));
    entries.set('a', ok(100));
    entries.set('b', unreachable(100));
    entries.set('b', ok(100));
    entries.set('a', unreachable(100));
    expect(held(entries, ['a', 'b'])).toEqual(['a', 'b']);
    expect(entries.size).toBe(2);
  });

  it('keeps an entry whose retry is not due over ordinary ones', () => {
    const entries = new RobotsEntries<RetryAware>(2, clockAt(0));
    entries.set('down', unreachable(100));
    entries.set('a', ok(100));
    entries.set('b', ok(100));
    entries.set('c', ok(100));
    expect(held(entries, ['down', 'a', 'b', 'c'])).toEqual(['down', 'c']);
  });

  it('drops the least recently used retrying entry first once its retry is due', () => {
    const clock = clockAt(0);
    const entries = new RobotsEntries<RetryAware>(2, clock);
    entries.set('down', unreachable(100));
    entries.set('a', ok(1_000));
    clock.time = 99;
    entries.set('b', ok(1_000));
    expect(held(entries, ['down', 'a', 'b'])).toEqual(['down', 'b']);
    clock.time = 100;
    entries.set('c', ok(1_000));
    expect(held(entries, ['down', 'b', 'c'])).toEqual(['b', 'c']);
  });

  it('when every entry holds back a retry, drops the least recently used one', () => {
    const entries = new RobotsEntries<RetryAware>(2, clockAt(0));
    entries.set('x', unreachable(100));
    entries.set('y', unreachable(100));
    // get() makes x the most recent; peek() does not change the order.
    entries.get('x');
    entries.peek('y');
    entries.set('z', unreachable(100));
    expect(held(entries, ['x', 'y', 'z'])).toEqual(['x', 'z']);
    expect(entries.size).toBe(2);
  });

  it('delete and clear empty both kinds', () => {
    const entries = new RobotsEntries<RetryAware>(4, clockAt(0));
    entries.set('a', ok(100));
    entries.set('down', unreachable(100));
    entries.delete('down');
    expect(held(entries, ['a', 'down'])).toEqual(['a']);
    entries.set('down', unreachable(100));
    entries.clear();
    expect(entries.size).toBe(0);
  });
});
