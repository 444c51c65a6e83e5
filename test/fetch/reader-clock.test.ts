import { describe, expect, it } from 'vitest';
import { ReaderClock } from '../../packages/fetch/src/robots/reader-clock.js';
import { capLifetime } from '../../packages/fetch/src/robots/stored-entry.js';
import type { StoredRobots } from '../../packages/fetch/src/robots/robots-store.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2025, 0, 1);
const LIMITS = { maxTtl: DAY, maxUnreachableRetryInterval: 3_600_000 };

function entry(latestAt: number, goodAt: number | undefined = latestAt): StoredRobots {
  const status = goodAt === latestAt ? 'ok' : 'unreachable';
  return {
    version: 1,
    robotsUrl: 'https://example.com/robots.txt',
    latest: { status, redirects: [], fetchedAt: latestAt },
    ...(goodAt === undefined
      ? {}
      : {
          good: {
            body: 'YQ==',
            bytes: 1,
            truncated: false,
            httpStatus: 200,
            redirects: [],
            fetchedAt: goodAt,
          },
        }),
    expiresAt: latestAt + DAY,
  };
}

describe('ReaderClock', () => {
  it('leaves an entry dated at or before now as it is (the same object)', () => {
    const clock = new ReaderClock(10);
    const past = entry(NOW - 5_000);
    expect(clock.localize('a', past, NOW)).toBe(past);
    const exact = entry(NOW);
    expect(clock.localize('a', exact, NOW)).toBe(exact);
  });

  it('takes a future fetch time as the first sighting, and keeps it on later reads', () => {
    const clock = new ReaderClock(10);
    const ahead = entry(NOW + 10 * 365 * DAY);
    const first = clock.localize('a', ahead, NOW);
    expect(first.latest.fetchedAt).toBe(NOW);
    expect(first.good!.fetchedAt).toBe(NOW);
    expect(capLifetime(first, LIMITS).expiresAt).toBe(NOW + DAY);
    // The same stamps read again later: still counted from the first sighting.
    const again = clock.localize('a', structuredClone(ahead), NOW + DAY / 2);
    expect(again.latest.fetchedAt).toBe(NOW);
    expect(capLifetime(again, LIMITS).expiresAt).toBe(NOW + DAY);
  });

  it('a new future stamp is a new sighting; the good copy keeps its own', () => {
    const clock = new ReaderClock(10);
    const goodAt = NOW + 10 * 365 * DAY;
    clock.localize('a', entry(goodAt), NOW);
    // The writer later records a failure, still ahead, and keeps the same good copy.
    const later = clock.localize('a', entry(goodAt + 60_000, goodAt), NOW + DAY);
    expect(later.latest.fetchedAt).toBe(NOW + DAY);
    expect(later.good!.fetchedAt).toBe(NOW);
    expect(capLifetime(later, LIMITS).expiresAt).toBe(NOW + DAY + 3_600_000);
  });

  it('forgets an origin once its entry is no longer ahead, and keeps at most max origins', () => {
    const clock = new ReaderClock(2);
    const ahead = entry(NOW + DAY);
    clock.localize('a', ahead, NOW);
    clock.localize('b', ahead, NOW);
    clock.localize('c', ahead, NOW + 1_000); // past the limit: 'a', sighted longest ago, goes
    expect(clock.localize('a', ahead, NOW + 2_000).latest.fetchedAt).toBe(NOW + 2_000);
    expect(clock.localize('c', ahead, NOW + 2_000).latest.fetchedAt).toBe(NOW + 1_000);
    // 'c' written again on a right clock: nothing to remember, then a future stamp is new.
    clock.localize('c', entry(NOW), NOW + 3_000);
    expect(clock.localize('c', ahead, NOW + 4_000).latest.fetchedAt).toBe(NOW + 4_000);
  });
});
