/**
 * The fleet under the faults a production Redis has, against real redis-server processes (and
 * a TCP fault proxy on 127.0.0.1 for a slow or a silent network). Each test is bounded in
 * seconds; assertions are on what Redis recorded (its keys, its command counters, the starts
 * it booked on its own clock) and on the typed errors callers get, never on how long a test ran.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRedisFleet } from '@polite-crawler/redis';
import type { FleetEvent } from '@polite-crawler/redis';
import { FaultProxy } from './helpers/fault-proxy.js';
import { useRedisRig } from './helpers/redis-rig.js';

const rig = useRedisRig('f', { defaults: { leaseTtl: 3_000 } });
const proxies: FaultProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

/** How many EVALSHA Redis has run so far (its own counter). */
async function evalshaCalls(): Promise<number> {
  const stats = await rig.redis.command<string>(['INFO', 'commandstats']);
  return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

async function redisNow(): Promise<number> {
  const [s, us] = await rig.redis.command<[string, string]>(['TIME']);
  return Number(s) * 1000 + Math.floor(Number(us) / 1000);
}

const origin = 'http://127.0.0.1:1';

describe(
  'a key of the wrong shape: repaired, or a typed error; never a spin, never raw Lua',
  { timeout: 20_000 },
  () => {
    it('a claim key without a TTL gets one: the wait ends after leaseTtl, with a bounded number of calls', async () => {
      const fleet = await rig.fleet({ leaseTtl: 600, wakeFallback: 100 });
      const claimKey = `${fleet.keyPrefix}{${origin}}:claim`;
      await rig.redis.command(['SET', claimKey, 'abcdef0123456789']);
      const before = await evalshaCalls();
      const claim = await fleet.store.claimFetch!(origin);
      const calls = (await evalshaCalls()) - before;
      expect(claim.fetch).toBe(true);
      if (claim.fetch) await claim.release();
      // ~600 ms at one attempt per wakeFallback (100 ms) and per message: a handful, not ~800/s.
      expect(calls).toBeLessThanOrEqual(15);
    });

    it('a foreign value at the claim key is not a claim: the caller fetches at once', async () => {
      const fleet = await rig.fleet();
      const claimKey = `${fleet.keyPrefix}{${origin}}:claim`;
      await rig.redis.command(['SET', claimKey, 'not a claim id']);
      const claim = await fleet.store.claimFetch!(origin);
      expect(claim.fetch).toBe(true);
      if (claim.fetch) await claim.release();
    });

    it("a claim wait stops at the caller's signal, and no call is made after it", async () => {
      const fleet = await rig.fleet({ leaseTtl: 60_000, wakeFallback: 50 });
      const claimKey = `${fleet.keyPrefix}{${origin}}:claim`;
      await rig.redis.command(['SET', claimKey, 'abcdef0123456789']);
      const controller = new AbortController();
      const waiting = fleet.store.claimFetch!(origin, controller.signal);
      setTimeout(() => controller.abort(new Error('caller gave up')), 200);
      await expect(waiting).rejects.toThrow('caller gave up');
      const after = await evalshaCalls();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await evalshaCalls()) - after).toBe(0);
    });

    it.each([
      ['the pace key is a string', (p: string) => ['SET', `${p}pace`, 'x']],
      ['the next start is not a number', (p: string) => ['HSET', `${p}pace`, 'next', 'abc']],
      ['the pause is not a number', (p: string) => ['HSET', `${p}pace`, 'pause', '{}']],
      ['a lease expiry is not a number', (p: string) => ['HSET', `${p}pace`, 'l:x', 'abc']],
      [
        'the fleet key is a string',
        (p: string) => ['SET', `${p.slice(0, p.indexOf('{'))}fleet`, 'x'],
      ],
      ['the queue key is a string', (p: string) => ['SET', `${p}queue`, 'x']],
    ])(
      '%s: repaired, and the origin is treated as lost (one interval, fails closed)',
      async (_name, command) => {
        const fleet = await rig.fleet();
        const base = `${fleet.keyPrefix}{${origin}}:`;
        await rig.redis.command(command(base));
        const pacer = fleet.policyOptions.pacer;
        const asked = await redisNow();
        const slot = await pacer.acquire(origin, { concurrency: 1, interval: 200 });
        slot.release();
        // Not a raw WRONGTYPE / Lua error; and it did not start before one interval had passed
        // when the state could not be read (Redis's clock, both sides).
        if (!command(base)[1]!.endsWith('queue'))
          expect(slot.startedAt).toBeGreaterThanOrEqual(asked + 200);
        // The next one is paced from it as usual.
        const next = await pacer.acquire(origin, { concurrency: 1, interval: 200 });
        next.release();
        expect(next.startedAt - slot.startedAt).toBeGreaterThanOrEqual(200);
      },
    );

    it('a Redis error reply reaches the caller as ERR_FLEET_REDIS with its class only', async () => {
      // A user that may not run scripts: every grant is refused by Redis (NOPERM).
      await rig.redis.command([
        'ACL',
        'SETUSER',
        'noscripts',
        'on',
        '>s3cret-pw',
        '~*',
        '&*',
        '+@all',
        '-evalsha',
        '-eval',
      ]);
      const fleet = await rig.fleet({
        url: `redis://noscripts:s3cret-pw@127.0.0.1:${rig.redis.port}`,
      });
      const refused = fleet.policyOptions.pacer.acquire(origin, { concurrency: 1, interval: 0 });
      await expect(refused).rejects.toMatchObject({ code: 'ERR_FLEET_REDIS', redisCode: 'NOPERM' });
      const error = (await refused.catch((e: unknown) => e)) as Error;
      expect(error.message).not.toMatch(/s3cret|user_script|evalsha/i);
    });
  },
);

describe('the budget is Redis silence, not waiting time', { timeout: 30_000 }, () => {
  it('a slow but answering Redis (200 ms round trips, 48 queued) never fails a request', async () => {
    const proxy = await FaultProxy.start(rig.redis.port);
    proxies.push(proxy);
    const events: FleetEvent[] = [];
    const fleet = await rig.fleet({
      url: proxy.url,
      unavailableTimeout: 1_000,
      onEvent: (e) => events.push(e),
    });
    proxy.mode = { kind: 'delay', ms: 100 };
    const pacer = fleet.policyOptions.pacer;
    const outcomes = await Promise.all(
      Array.from({ length: 48 }, async () => {
        try {
          const slot = await pacer.acquire(origin, { concurrency: 8, interval: 0 });
          await new Promise((resolve) => setTimeout(resolve, 20));
          slot.release();
          return 'ok';
        } catch (error) {
          return (error as { code?: string }).code ?? String(error);
        }
      }),
    );
    // Each request queued behind others made several calls of 200 ms each: more than 1 s in
    // all for most, yet Redis was never silent for 1 s.
    expect(outcomes.filter((o) => o !== 'ok')).toEqual([]);
    expect(events.map((e) => e.type)).not.toContain('fleet-unavailable');
  });

  it('a silent Redis (proxy drops every byte, no reset) fails a request after unavailableTimeout of silence', async () => {
    const proxy = await FaultProxy.start(rig.redis.port);
    proxies.push(proxy);
    const fleet = await rig.fleet({ url: proxy.url, unavailableTimeout: 400 });
    proxy.mode = { kind: 'silent' };
    await expect(
      fleet.policyOptions.pacer.acquire(origin, { concurrency: 1, interval: 0 }),
    ).rejects.toMatchObject({ code: 'ERR_FLEET_UNAVAILABLE' });
  });

  it('unavailableTimeout 0 is refused at construction', async () => {
    await expect(
      createRedisFleet({ url: rig.redis.url, unavailableTimeout: 0 }),
    ).rejects.toMatchObject({
      code: 'ERR_FLEET_INVALID_OPTION',
      option: 'unavailableTimeout',
    });
  });
});

describe('no secrets in messages or stored entries', { timeout: 20_000 }, () => {
  it('an invalid url does not show its credentials in FleetInvalidOptionError', async () => {
    const refused: unknown = await createRedisFleet({
      url: 'http://crawler:s3cret-pw@127.0.0.1:6379',
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'ERR_FLEET_INVALID_OPTION', option: 'url' });
    expect((refused as Error).message).not.toContain('s3cret');
  });

  it('a robots.txt redirect with user:pass@ is stored without it', async () => {
    const fleet = await rig.fleet();
    const site = 'https://example.com';
    await fleet.store.set(site, {
      version: 1,
      robotsUrl: `${site}/robots.txt`,
      latest: {
        status: 'unavailable',
        redirects: ['https://owner:s3cret-pw@files.example.com/robots.txt'],
        fetchedAt: 1_000,
        httpStatus: 404,
      },
      expiresAt: 2_000,
    });
    const raw = await rig.redis.command<string>([
      'HGET',
      `${fleet.keyPrefix}{${site}}:robots`,
      'm',
    ]);
    expect(raw).not.toContain('s3cret');
    expect(raw).not.toContain('owner');
    expect((await fleet.store.get(site))?.latest.redirects).toEqual([
      'https://files.example.com/robots.txt',
    ]);
  });
});

describe('a silent connection is replaced', { timeout: 20_000 }, () => {
  it('after a request fails closed on a silent connection, the fleet opens a new one and crawls again', async () => {
    const proxy = await FaultProxy.start(rig.redis.port);
    proxies.push(proxy);
    const fleet = await rig.fleet({ url: proxy.url, unavailableTimeout: 400 });
    const pacer = fleet.policyOptions.pacer;
    (await pacer.acquire(origin, { concurrency: 1, interval: 0 })).release();
    const before = proxy.accepted;
    proxy.mode = { kind: 'silent' };
    await expect(pacer.acquire(origin, { concurrency: 1, interval: 0 })).rejects.toMatchObject({
      code: 'ERR_FLEET_UNAVAILABLE',
    });
    // The network heals; the silent connection itself never resets.
    proxy.mode = { kind: 'pass' };
    await expect.poll(() => proxy.accepted, { timeout: 5_000 }).toBeGreaterThan(before);
    const slot = await pacer.acquire(origin, { concurrency: 1, interval: 0 });
    slot.release();
    expect(fleet.state).toBe('available');
  });
});
