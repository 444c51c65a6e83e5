/**
 * Fleet mode on a real three-master Redis Cluster (redis-server --cluster-enabled yes ×3,
 * redis-cli --cluster create), with real worker processes joining through node-redis's
 * `createCluster` client. Assertions are the site owner's view (robots.txt fetches, arrivals,
 * requests in flight, see fleet-processes.test.ts for the arrival allowance) and Redis's own
 * error counters: no command of the fleet was refused with CROSSSLOT on any node.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createRedisFleet, fleetKeys } from '@polite-crawler/redis';
import { keySlot, slotTag } from '../../packages/redis/src/key-slot.js';
import { endWorkers, finished, outcomes } from './helpers/redis-rig.js';
import { TestCluster } from './helpers/redis-server.js';
import type { TestRedis } from './helpers/redis-server.js';
import { ARRIVAL_SLACK, expectSpaced, gaps } from '../helpers/arrival-spacing.js';
import { Site } from './helpers/site.js';
import { startWorker } from './helpers/workers.js';
import type { Worker } from './helpers/workers.js';

let cluster: TestCluster;
let site: Site | undefined;
const workers: Worker[] = [];
let prefixCount = 0;

beforeAll(async () => {
  cluster = await TestCluster.start();
}, 30_000);
afterAll(async () => {
  await cluster?.stop();
});
afterEach(async () => {
  await endWorkers(workers);
  await site?.close();
  site = undefined;
});

function spawnFleet(
  count: number,
  urls: string[],
  config: Record<string, unknown>,
  each: (i: number, keyPrefix: string) => Record<string, unknown> = () => ({}),
): Worker[] {
  const keyPrefix = `c${++prefixCount}:`;
  const made: Worker[] = [];
  for (let i = 0; i < count; i += 1) {
    const worker = startWorker({
      redisUrl: cluster.urls[0],
      clusterUrls: cluster.urls,
      keyPrefix,
      urls,
      ...config,
      ...each(i, keyPrefix),
    });
    workers.push(worker);
    made.push(worker);
  }
  return made;
}

/** Commands each node refused with CROSSSLOT since it started (`INFO errorstats`). */
async function crossSlotErrors(): Promise<number> {
  let total = 0;
  for (const node of cluster.nodes) {
    const stats = await node.command<string>(['INFO', 'errorstats']);
    total += Number(/errorstat_CROSSSLOT:count=(\d+)/.exec(stats)?.[1] ?? 0);
  }
  return total;
}

/** The master serving `origin`'s keys (its pace key's slot, as Redis computes it). */
async function nodeOfOrigin(origin: string): Promise<TestRedis> {
  return cluster.nodeOf(await cluster.keySlot(fleetKeys('x:').pace(origin)));
}

/**
 * `count` origins of `site` on `count` different masters. The OS picks the ports, so which
 * master an origin's keys land on is chance: the site grows until the spread is there (bounded).
 */
async function spreadOrigins(site: Site, count: number): Promise<string[]> {
  const byNode = new Map<number, string>();
  for (const origin of site.origins) {
    const node = await nodeOfOrigin(origin);
    if (!byNode.has(node.port)) byNode.set(node.port, origin);
  }
  for (let added = 0; byNode.size < count && added < 60; added += 1) {
    const origin = await site.add();
    const node = await nodeOfOrigin(origin);
    if (!byNode.has(node.port)) byNode.set(node.port, origin);
  }
  expect(byNode.size, 'origins on distinct masters').toBe(count);
  return [...byNode.values()];
}

describe('fleet mode on a Redis Cluster', { timeout: 60_000 }, () => {
  it('computes the slot of every fleet key as Redis does, markers in their origin slot', async () => {
    const keys = fleetKeys('polite:', true);
    const origins = [
      'https://example.com',
      'http://127.0.0.1:8080',
      'https://xn--bcher-kva.example',
    ];
    for (const origin of origins) {
      for (const key of [keys.pace(origin), keys.robots(origin), keys.marker(origin)])
        expect(keySlot(key)).toBe(await cluster.keySlot(key));
      expect(await cluster.keySlot(keys.marker(origin))).toBe(
        await cluster.keySlot(keys.pace(origin)),
      );
    }
    // A tag for every slot, each hashing to its slot.
    for (const slot of [0, 1, 8_191, 16_383])
      expect(await cluster.keySlot(`{${slotTag(slot)}}`)).toBe(slot);
  });

  it('in-process: a createCluster client is accepted and every origin key lands in its slot', async () => {
    const client = await cluster.client();
    try {
      const fleet = await createRedisFleet({ client, keyPrefix: 'inproc:', leaseTtl: 3_000 });
      expect(fleet.state).toBe('available');
      const origins = ['http://a.test', 'http://b.test', 'http://c.test', 'http://d.test'];
      const pacer = fleet.policyOptions.pacer;
      const slots = await Promise.all(
        origins.map((origin) => pacer.acquire(origin, { concurrency: 1, interval: 0 })),
      );
      // The lease book renews every leaseTtl / 3 across these origins' slots.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      for (const slot of slots) void slot.release();
      await fleet.close();
      const keys = fleetKeys('inproc:', true);
      for (const origin of origins)
        expect(
          await client.sendCommand(keys.marker(origin), true, ['EXISTS', keys.marker(origin)]),
        ).toBe(1);
      expect(new Set(origins.map((o) => keySlot(keys.pace(o)))).size).toBe(origins.length);
    } finally {
      client.destroy();
    }
    expect(await crossSlotErrors()).toBe(0);
  });

  it('three processes: robots.txt once per origin, spacing and concurrency held, no CROSSSLOT', async () => {
    site = await Site.start(3, (path) =>
      path === '/robots.txt' ? { body: 'User-agent: *\nDisallow: /private\n' } : { holdMs: 60 },
    );
    // One origin on each master.
    const origins = await spreadOrigins(site, 3);
    const urls = origins.flatMap((o) => [1, 2, 3, 4].map((n) => `${o}/page/${n}`));
    const fleet = spawnFleet(3, urls, { concurrency: 1, minInterval: 300, leaseTtl: 900 });
    await finished(fleet);
    expect(outcomes(fleet).filter((o) => o.status !== 200)).toEqual([]);
    for (const origin of origins) {
      expect(site.of(origin, '/robots.txt')).toHaveLength(1);
      const pages = site.pages(origin);
      expect(pages).toHaveLength(12);
      expect(Math.max(...pages.map((p) => p.inFlight))).toBe(1);
      expectSpaced(pages, 300);
    }
    expect(await crossSlotErrors()).toBe(0);
  });

  it('FLUSHALL on the master of an origin with a page in flight: spacing holds', async () => {
    const HOLD = 1_200;
    site = await Site.start(1, (path) =>
      path === '/robots.txt' ? { body: 'User-agent: *\nAllow: /\n' } : { holdMs: HOLD },
    );
    const origin = site.origins[0]!;
    const master = await nodeOfOrigin(origin);
    // Worker 0 crawls the origin; worker 1, up before the flush, sends its first request right
    // after it, before worker 0's next renewal: the origin's slot is new to it and its marker
    // is gone, so only the master's witness (gone too) tells it that keys were lost.
    const fleet = spawnFleet(
      2,
      [],
      { concurrency: 1, minInterval: 300, leaseTtl: 3_000, unavailableTimeout: 20_000 },
      (i, keyPrefix) => ({
        startGate: true,
        gateKey: `${keyPrefix}go${i}`,
        urls: [`${origin}/w${i}`],
      }),
    );
    for (const worker of fleet) {
      await expect
        .poll(() => worker.lines.some((l) => l.ready) || worker.child.exitCode !== null, {
          timeout: 45_000,
        })
        .toBe(true);
    }
    const keyPrefix = `c${prefixCount}:`;
    const client = await cluster.client();
    try {
      await client.rPush(`${keyPrefix}go0`, 'go');
      await expect
        .poll(() => site!.pages(origin).length, { timeout: 40_000, interval: 20 })
        .toBe(1);
      // The page that just arrived is held for HOLD ms: it is in flight now.
      await master.command(['FLUSHALL']);
      await client.rPush(`${keyPrefix}go1`, 'go');
    } finally {
      client.destroy();
    }
    await finished(fleet);
    expect(outcomes(fleet).filter((o) => o.status !== 200)).toEqual([]);
    const pages = site.pages(origin);
    expect(pages).toHaveLength(2);
    expect(Math.max(...pages.map((p) => p.inFlight))).toBe(1);
    for (const gap of gaps(pages)) expect(gap).toBeGreaterThanOrEqual(HOLD - ARRIVAL_SLACK);
    expect(site.of(origin, '/robots.txt').length).toBeLessThanOrEqual(2);
    expect(await crossSlotErrors()).toBe(0);
  });

  it('a master killed mid-crawl: nothing goes out unpaced, requests fail closed in bounded time', async () => {
    site = await Site.start(1, (path) =>
      path === '/robots.txt' ? { body: 'User-agent: *\nAllow: /\n' } : { holdMs: 200 },
    );
    const origin = site.origins[0]!;
    const master = await nodeOfOrigin(origin);
    const INTERVAL = 500;
    const fleet = spawnFleet(
      1,
      [0, 1, 2, 3, 4, 5, 6, 7].map((n) => `${origin}/p${n}`),
      { concurrency: 1, minInterval: INTERVAL, leaseTtl: 1_500, unavailableTimeout: 2_000 },
    );
    await expect
      .poll(() => site!.pages(origin).length, { timeout: 40_000, interval: 20 })
      .toBeGreaterThanOrEqual(2);
    await master.kill();
    const killedAt = performance.now();
    try {
      const { code, stderr } = await fleet[0]!.exited;
      const endedAt = performance.now();
      expect(code, stderr).toBe(0);
      // Bounded: the silence budget (2 s) plus the last grant's booked spacing and a margin.
      expect(endedAt - killedAt).toBeLessThan(10_000);
      const outcomes = fleet[0]!.lines.filter((l) => l.url !== undefined);
      const failed = outcomes.filter((o) => o.status !== 200);
      expect(failed.length).toBeGreaterThan(0);
      for (const outcome of failed)
        expect(['ERR_FLEET_UNAVAILABLE', 'ERR_FLEET_REDIS']).toContain(outcome.error);
      const pages = site.pages(origin);
      expect(pages.length).toBe(outcomes.length - failed.length);
      expect(Math.max(...pages.map((p) => p.inFlight))).toBe(1);
      expectSpaced(pages, INTERVAL);
    } finally {
      await master.restart();
      await cluster.waitOk();
    }
  });
});
