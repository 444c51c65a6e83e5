/**
 * The fleet's robots.txt store against a real redis-server: entries round-trip, distrusted
 * entries count as absent, and `claimFetch` lets exactly one of many concurrent callers fetch.
 */
import { describe, expect, it } from 'vitest';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import type { RobotsFetchClaim, StoredRobots } from '@polite-crawler/fetch';
import { useRedisRig } from './helpers/redis-rig.js';
import type { RedisRig } from './helpers/redis-rig.js';

const rig = useRedisRig('r', { defaults: { leaseTtl: 1_500 } });

const fleetsOf = async (count: number, options?: Parameters<RedisRig['fleets']>[1]) =>
  (await rig.fleets(count, options)).fleets;

const origin = 'https://example.com';
const entry: StoredRobots = {
  version: 1,
  robotsUrl: `${origin}/robots.txt`,
  latest: { status: 'unavailable', redirects: [], fetchedAt: 1_000, httpStatus: 404 },
  expiresAt: 2_000,
};

describe('get, set, delete', () => {
  it('round-trips an entry and keeps the key for robotsRetention at most', async () => {
    const [fleet] = await fleetsOf(1, { robotsRetention: 120_000 });
    const store = fleet!.store;
    expect(await store.get(origin)).toBeUndefined();
    await store.set(origin, entry);
    expect(await store.get(origin)).toEqual(entry);
    const ttl = await rig.redis.command<number>(['PTTL', `${fleet!.keyPrefix}{${origin}}:robots`]);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(120_000);
    await store.delete(origin);
    expect(await store.get(origin)).toBeUndefined();
  });

  it.each([
    ['not JSON', '{"version":1,'],
    ['another version', JSON.stringify({ ...entry, version: 2 })],
    ['another origin', JSON.stringify({ ...entry, robotsUrl: 'https://evil.example/robots.txt' })],
    ['not an object', '42'],
  ])('distrusts an entry that is %s', async (_name, raw) => {
    const [fleet] = await fleetsOf(1);
    await rig.redis.command(['HSET', `${fleet!.keyPrefix}{${origin}}:robots`, 'm', raw, 'g', '1']);
    expect(await fleet!.store.get(origin)).toBeUndefined();
  });

  it('a tampered entry of the right version is still checked by the policy: robots.txt is fetched again', async () => {
    const site = await rig.startSite(1, (path) =>
      path === '/robots.txt' ? { body: 'User-agent: *\nDisallow: /no\n' } : { body: 'x' },
    );
    const target = site.origins[0]!;
    const [fleet] = await fleetsOf(1);
    // Right version and origin, wrong shape (a 2xx outcome without its copy).
    const forged = {
      ...entry,
      robotsUrl: `${target}/robots.txt`,
      latest: { ...entry.latest, status: 'ok' },
      expiresAt: Date.now() + 60_000,
    };
    await rig.redis.command([
      'HSET',
      `${fleet!.keyPrefix}{${target}}:robots`,
      'm',
      JSON.stringify(forged),
      'g',
      '1',
    ]);
    const policy = createRobotsPolicy({
      userAgent: 'FleetBot/1.0 (+https://example.com/bot)',
      ...fleet!.policyOptions,
    });
    const decision = await policy.check(`${target}/no`);
    expect(decision.allowed).toBe(false);
    expect(site.of(target, '/robots.txt')).toHaveLength(1);
    await policy.close();
  });
});

describe('claimFetch', () => {
  it('lets exactly one of many concurrent callers fetch; the others read its entry', async () => {
    const fleetList = await fleetsOf(4);
    const stores = fleetList.map((f) => f.store);
    await Promise.all(stores.map((s) => s.get(origin)));
    const claims = stores.map((s) => s.claimFetch!(origin));
    const first = await Promise.race(claims.map((c, i) => c.then((claim) => ({ claim, i }))));
    expect(first.claim.fetch).toBe(true);
    await stores[first.i]!.set(origin, entry);
    await (first.claim as Extract<RobotsFetchClaim, { fetch: true }>).release();
    const all = await Promise.all(claims);
    expect(all.filter((c) => c.fetch)).toHaveLength(1);
    for (const store of stores) expect(await store.get(origin)).toEqual(entry);
  });

  it('a claim left by a dead process expires (leaseTtl) and another process fetches', async () => {
    const [a, b] = await fleetsOf(2, { leaseTtl: 300 });
    // The dead holder: a claim set directly, never renewed nor released.
    await rig.redis.command(['SET', `${a!.keyPrefix}{${origin}}:claim`, 'dead', 'PX', '300']);
    const claim = await b!.store.claimFetch!(origin);
    expect(claim.fetch).toBe(true);
    expect(await rig.redis.command<string>(['GET', `${a!.keyPrefix}{${origin}}:claim`])).not.toBe(
      'dead',
    );
  });

  it('a released claim without a stored entry lets the next waiter fetch', async () => {
    const [a, b] = await fleetsOf(2);
    await a!.store.get(origin);
    await b!.store.get(origin);
    const first = await a!.store.claimFetch!(origin);
    expect(first.fetch).toBe(true);
    const second = b!.store.claimFetch!(origin);
    if (first.fetch) await first.release();
    expect((await second).fetch).toBe(true);
  });

  it('rejects with the signal reason while waiting', async () => {
    const [a, b] = await fleetsOf(2);
    const held = await a!.store.claimFetch!(origin);
    expect(held.fetch).toBe(true);
    const controller = new AbortController();
    const waiting = b!.store.claimFetch!(origin, controller.signal);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it('with Redis down, each process fetches robots.txt itself', async () => {
    // A claim waits for an unanswering Redis as long as a page request would (unavailableTimeout),
    // then lets this process fetch robots.txt itself.
    const [a] = await fleetsOf(1, { commandTimeout: 100, unavailableTimeout: 300 });
    await rig.redis.kill();
    const claim = await a!.store.claimFetch!(origin);
    expect(claim.fetch).toBe(true);
  });

  it('one robots.txt fetch fleet-wide when many policies ask at once', async () => {
    const site = await rig.startSite(1, (path) =>
      path === '/robots.txt'
        ? { body: 'User-agent: *\nDisallow: /no\n', holdMs: 100 }
        : { body: 'x' },
    );
    const target = site.origins[0]!;
    const fleetList = await fleetsOf(5);
    const policies = fleetList.map((f) =>
      createRobotsPolicy({
        userAgent: 'FleetBot/1.0 (+https://example.com/bot)',
        ...f.policyOptions,
      }),
    );
    const decisions = await Promise.all(policies.map((p) => p.check(`${target}/no`)));
    expect(decisions.every((d) => !d.allowed)).toBe(true);
    expect(site.of(target, '/robots.txt')).toHaveLength(1);
    await Promise.all(policies.map((p) => p.close()));
  });

  it.each([
    [
      'FLUSHALL',
      async (): Promise<void> => {
        await rig.redis.command(['FLUSHALL']);
      },
    ],
    [
      'an empty restart',
      async (): Promise<void> => {
        await rig.redis.kill();
        await rig.redis.restart();
      },
    ],
  ] as const)(
    'the claim lost during the fetch (%s): robots.txt at most once more for the origin, with 4 processes waiting',
    async (_name, fault) => {
      const site = await rig.startSite(1, (path) =>
        path === '/robots.txt'
          ? { body: 'User-agent: *\nDisallow: /no\n', holdMs: 800 }
          : { body: 'x' },
      );
      const target = site.origins[0]!;
      const fleetList = await fleetsOf(5, { unavailableTimeout: 10_000, wakeFallback: 50 });
      const policies = fleetList.map((f) =>
        createRobotsPolicy({ userAgent: 'FleetBot/1.0', ...f.policyOptions }),
      );
      const decisions = Promise.all(policies.map((p) => p.check(`${target}/no`)));
      await expect.poll(() => site.of(target, '/robots.txt').length).toBe(1);
      await fault();
      expect((await decisions).every((d) => !d.allowed)).toBe(true);
      expect(site.of(target, '/robots.txt').length).toBeLessThanOrEqual(2);
      await Promise.all(policies.map((p) => p.close()));
    },
  );

  it.each([
    ['4xx', { status: 404 }, true],
    ['unreachable (5xx)', { status: 503 }, false],
  ] as const)('one fetch fleet-wide for a %s outcome too', async (_name, reply, allowed) => {
    const site = await rig.startSite(1, (path) => (path === '/robots.txt' ? reply : { body: 'x' }));
    const target = site.origins[0]!;
    const fleetList = await fleetsOf(3);
    const policies = fleetList.map((f) =>
      createRobotsPolicy({
        userAgent: 'FleetBot/1.0 (+https://example.com/bot)',
        ...f.policyOptions,
      }),
    );
    const decisions = await Promise.all(policies.map((p) => p.check(`${target}/page`)));
    expect(decisions.every((d) => d.allowed === allowed)).toBe(true);
    expect(site.of(target, '/robots.txt')).toHaveLength(1);
    await Promise.all(policies.map((p) => p.close()));
  });
});

describe('pairing', () => {
  it('refuses a store of ones own beside the fleet pacer, at construction', async () => {
    const [fleet] = await fleetsOf(1);
    const { createMemoryRobotsStore } = await import('@polite-crawler/fetch');
    expect(() =>
      createRobotsPolicy({
        userAgent: 'FleetBot/1.0 (+https://example.com/bot)',
        ...fleet!.policyOptions,
        store: createMemoryRobotsStore(),
      }),
    ).toThrow(/fleet's own store/);
    const [other] = await fleetsOf(1);
    expect(() =>
      createRobotsPolicy({
        userAgent: 'FleetBot/1.0 (+https://example.com/bot)',
        pacer: fleet!.policyOptions.pacer,
        store: other!.store,
      }),
    ).toThrow(/fleet's own store/);
  });
});
