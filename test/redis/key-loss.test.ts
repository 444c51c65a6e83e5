/**
 * Key loss with requests in flight, with real worker processes and a real redis-server: the
 * connection stays up (FLUSHALL, eviction under volatile-lru) or drops (SIGKILL and an empty
 * restart). Each fault is applied twice per crawl, each time while a page is being served.
 * Assertions are the site owner's view: never two pages of the origin in flight at once, and
 * consecutive arrivals the interval apart (less the allowance explained in
 * fleet-processes.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { finished, outcomes, useRedisRig } from './helpers/redis-rig.js';
import { ARRIVAL_SLACK, gaps } from '../helpers/arrival-spacing.js';

const INTERVAL = 300;
/** Each page is held this long by the site: every fault lands while one is in flight. */
const HOLD = 1_200;
const rig = useRedisRig('k', {
  afterEachTest: async (redis) => {
    await redis.command(['CONFIG', 'SET', 'maxmemory', '0']);
    await redis.command(['CONFIG', 'SET', 'maxmemory-policy', 'noeviction']);
  },
});

/**
 * Evicts keys with a TTL now (volatile-lru, memory limit for one command), as memory pressure
 * would, until `watched` is among them: Redis bounds the time one eviction pass may take, so a
 * single burst can leave some volatile keys in place (at most 20 bursts). Whether `watched` was
 * seen gone.
 */
async function evictVolatileKeys(watched: string): Promise<boolean> {
  await rig.redis.command(['CONFIG', 'SET', 'maxmemory-policy', 'volatile-lru']);
  const { createClient } = await import('@redis/client');
  const client = await createClient({ url: rig.redis.url }).connect();
  try {
    for (let burst = 0; burst < 20; burst += 1) {
      // One pipelined burst: the limit is in force for the single write that triggers eviction.
      await Promise.allSettled([
        client.sendCommand(['CONFIG', 'SET', 'maxmemory', '1']),
        client.sendCommand(['SET', 'eviction-trigger', 'x']),
        client.sendCommand(['CONFIG', 'SET', 'maxmemory', '0']),
      ]);
      if (Number(await client.sendCommand(['EXISTS', watched])) === 0) return true;
    }
    return false;
  } finally {
    client.destroy();
  }
}

const faults = {
  flushall: async () => {
    await rig.redis.command(['FLUSHALL']);
  },
  'empty restart': async () => {
    await rig.redis.kill();
    await rig.redis.restart();
  },
};

describe('key loss never lets a request through early', { timeout: 120_000 }, () => {
  it.each([
    ['flushall', 2],
    ['eviction', 2],
    ['empty restart', 3],
  ] as const)('%s with a page in flight (twice), %i workers queueing', async (fault, count) => {
    const site = await rig.startSite(1, (path) =>
      path === '/robots.txt' ? { body: 'User-agent: *\nAllow: /\n' } : { holdMs: HOLD },
    );
    const origin = site.origins[0]!;
    const perWorker = 2;
    // With the connection up, one more worker sends its first requests right after the first
    // fault (fresh requests, not queued ones: they find the origin's state gone and look new).
    const late = fault === 'empty restart' ? 0 : 1;
    const workers = rig.workers(
      count + late,
      [],
      {
        concurrency: 1,
        minInterval: INTERVAL,
        leaseTtl: 1_500,
        unavailableTimeout: 20_000,
        startGate: true,
      },
      (i, keyPrefix) => ({
        urls: Array.from({ length: perWorker }, (_, n) => `${origin}/w${i}/p${n}`),
        gateKey: i >= count ? `${keyPrefix}late` : `${keyPrefix}go`,
      }),
    );
    const keyPrefix = rig.prefix;
    // Every worker is up before the crawl starts (start-up under load takes seconds).
    for (const worker of workers) {
      await expect
        .poll(() => worker.lines.some((l) => l.ready) || worker.child.exitCode !== null, {
          timeout: 45_000,
        })
        .toBe(true);
    }
    for (let i = 0; i < count; i += 1) await rig.redis.command(['RPUSH', `${keyPrefix}go`, 'go']);
    // Every worker took its go before any fault (a restart would cut a worker still blocked
    // on the gate, and lose the gate with it).
    await expect
      .poll(() => rig.redis.command<number>(['LLEN', `${keyPrefix}go`]), { timeout: 30_000 })
      .toBe(0);
    const total = (count + late) * perWorker;
    let hits = 0;
    for (const at of [1, 3]) {
      await expect
        .poll(() => site.pages(origin).length, { timeout: 30_000, interval: 20 })
        .toBeGreaterThanOrEqual(at);
      // The page that just arrived is held for HOLD ms: it is in flight now.
      if (fault === 'eviction') {
        const pace = `${keyPrefix}{${origin}}:pace`;
        expect(await rig.redis.command<number>(['EXISTS', pace])).toBe(1);
        // Seen gone by the eviction itself: a worker may book the origin again right after.
        if (await evictVolatileKeys(pace)) hits += 1;
      } else {
        await faults[fault]();
        hits += 1;
      }
      if (late > 0 && at === 1) await rig.redis.command(['RPUSH', `${keyPrefix}late`, 'go']);
    }
    // The fault did happen each time (eviction: the origin's pace key was gone after it).
    expect(hits).toBe(2);
    await finished(workers);
    expect(outcomes(workers).filter((o) => o.status !== 200)).toEqual([]);
    const pages = site.pages(origin);
    expect(pages).toHaveLength(total);
    expect(Math.max(...pages.map((p) => p.inFlight))).toBe(1);
    for (const gap of gaps(pages)) expect(gap).toBeGreaterThanOrEqual(HOLD - ARRIVAL_SLACK);
    // robots.txt: each process keeps its own copy; a loss costs at most one more fetch.
    expect(site.of(origin, '/robots.txt').length).toBeLessThanOrEqual(2);
  });
});
