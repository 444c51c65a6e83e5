/**
 * The fleet pacer's scripts against a real redis-server: several fleets (each stands for a
 * process) sharing one Redis. Assertions are on what Redis booked (`startedAt`, Redis clock)
 * and on Redis's own keys, never on how long the test took.
 */
import { describe, expect, it, vi } from 'vitest';
import { isFleetUnavailableError } from '@polite-crawler/redis';
import type { FleetEvent, FleetSlot, RedisFleet } from '@polite-crawler/redis';
import { useRedisRig } from './helpers/redis-rig.js';

const rig = useRedisRig('t', { defaults: { leaseTtl: 3_000 } });

const origin = 'http://127.0.0.1:1';

describe('grant and release', () => {
  it('grants a free origin at once and spaces the next start by the interval, across processes', async () => {
    const {
      fleets: [a, b],
    } = await rig.fleets(2);
    const pa = a!.policyOptions.pacer;
    const pb = b!.policyOptions.pacer;
    const rules = { concurrency: 2, interval: 120 };
    const take = async (pacer: typeof pa): Promise<FleetSlot> => {
      const slot = await pacer.acquire(origin, rules);
      slot.release();
      return slot;
    };
    const slots = await Promise.all([take(pa), take(pb), take(pa), take(pb)]);
    const starts = slots.map((s) => s.startedAt).sort((x, y) => x - y);
    for (let i = 1; i < starts.length; i += 1) {
      expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(120);
    }
  });

  it('holds concurrency across processes: a third request waits for a release', async () => {
    const {
      fleets: [a, b],
    } = await rig.fleets(2);
    const pa = a!.policyOptions.pacer;
    const pb = b!.policyOptions.pacer;
    const rules = { concurrency: 2, interval: 0 };
    const first = await pa.acquire(origin, rules);
    const second = await pb.acquire(origin, rules);
    let thirdGranted = false;
    const third = pb.acquire(origin, rules).then((slot) => {
      thirdGranted = true;
      return slot;
    });
    // Redis itself says two leases are held and one request is queued.
    await expect
      .poll(() => rig.redis.command<number>(['ZCARD', `${prefixOf(a!)}{${origin}}:queue`]))
      .toBe(1);
    expect(thirdGranted).toBe(false);
    const held = await leasesIn(`${prefixOf(a!)}{${origin}}:pace`);
    expect(held).toHaveLength(2);
    first.release();
    const slot = await third;
    expect(slot.startedAt).toBeGreaterThanOrEqual(second.startedAt);
    second.release();
    slot.release();
  });

  it('applies the strictest settings of the processes asking', async () => {
    const {
      fleets: [a, b],
    } = await rig.fleets(2);
    const lax = a!.policyOptions.pacer;
    const strict = b!.policyOptions.pacer;
    const s1 = await strict.acquire(origin, { concurrency: 1, interval: 200 });
    s1.release();
    // The lax process asks for concurrency 5 and no spacing; the strict one's settings hold.
    const s2 = await lax.acquire(origin, { concurrency: 5, interval: 0 });
    s2.release();
    expect(s2.startedAt - s1.startedAt).toBeGreaterThanOrEqual(200);
  });

  it('pauses an origin fleet-wide (Retry-After): no start before the pause ends', async () => {
    const {
      fleets: [a, b],
    } = await rig.fleets(2);
    const pa = a!.policyOptions.pacer;
    const pb = b!.policyOptions.pacer;
    const s1 = await pa.acquire(origin, { concurrency: 1, interval: 0 });
    pa.pause(origin, 300);
    s1.release();
    const pausedUntil = Number(
      await expect
        .poll(() =>
          rig.redis.command<string | null>(['HGET', `${prefixOf(a!)}{${origin}}:pace`, 'pause']),
        )
        .not.toBeNull()
        .then(() =>
          rig.redis.command<string>(['HGET', `${prefixOf(a!)}{${origin}}:pace`, 'pause']),
        ),
    );
    const s2 = await pb.acquire(origin, { concurrency: 1, interval: 0 });
    expect(s2.startedAt).toBeGreaterThanOrEqual(pausedUntil);
    s2.release();
  });

  it('serves queued requests first come, first served across processes', async () => {
    const {
      fleets: [a, b],
    } = await rig.fleets(2);
    const pa = a!.policyOptions.pacer;
    const pb = b!.policyOptions.pacer;
    const rules = { concurrency: 1, interval: 0 };
    const holder = await pa.acquire(origin, rules);
    const order: string[] = [];
    const queuePrefix = `${prefixOf(a!)}{${origin}}:queue`;
    const waits: Promise<void>[] = [];
    // b asks first, a second, b third: the queue order decides, not which process frees the slot.
    for (const [name, pacer] of [
      ['b1', pb],
      ['a1', pa],
      ['b2', pb],
    ] as const) {
      const count = waits.length;
      waits.push(
        pacer.acquire(origin, rules).then((slot) => {
          order.push(name);
          slot.release();
        }),
      );
      await expect.poll(() => rig.redis.command<number>(['ZCARD', queuePrefix])).toBe(count + 1);
    }
    holder.release();
    await Promise.all(waits);
    expect(order).toEqual(['b1', 'a1', 'b2']);
  });

  it('idle origins leave nothing behind: every key of an origin has a TTL', async () => {
    const {
      fleets: [a],
    } = await rig.fleets(1);
    const slot = await a!.policyOptions.pacer.acquire(origin, { concurrency: 1, interval: 50 });
    slot.release();
    const all = await rig.redis.command<string[]>(['KEYS', `${prefixOf(a!)}*`]);
    // One key per fleet has no TTL on purpose: the record of key losses (a few bytes).
    expect(all).toContain(`${prefixOf(a!)}fleet`);
    const keys = all.filter((key) => key !== `${prefixOf(a!)}fleet`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const ttl = await rig.redis.command<number>(['PTTL', key]);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(3_000 + 50);
    }
  });
});

describe('leases', () => {
  it('a live holder keeps its slot past leaseTtl (renewal)', async () => {
    const {
      fleets: [a, b],
    } = await rig.fleets(2, { leaseTtl: 300 });
    const held = await a!.policyOptions.pacer.acquire(origin, {
      concurrency: 1,
      interval: 0,
    });
    const waiting = b!.policyOptions.pacer.acquire(origin, {
      concurrency: 1,
      interval: 0,
    });
    // Wait (on Redis's own clock) until well past leaseTtl: the lease was renewed, so b still waits.
    const key = `${prefixOf(a!)}{${origin}}:pace`;
    const firstScore = await leaseExpiry(key);
    await expect.poll(() => leaseExpiry(key), { timeout: 5_000 }).toBeGreaterThan(firstScore + 600);
    expect(firstScore).toBeGreaterThan(0);
    held.release();
    const slot = await waiting;
    // b started only once a released it, more than two lease lifetimes after a's start.
    expect(slot.startedAt).toBeGreaterThan(held.startedAt + 600);
    slot.release();
  });

  it('close() gives back every held slot', async () => {
    const {
      fleets: [a, b],
    } = await rig.fleets(2);
    const pacer = a!.policyOptions.pacer;
    await pacer.acquire(origin, { concurrency: 1, interval: 0 });
    const waiting = b!.policyOptions.pacer.acquire(origin, { concurrency: 1, interval: 0 });
    await a!.close();
    const slot = await waiting;
    slot.release();
    await expect(pacer.acquire(origin, { concurrency: 1, interval: 0 })).rejects.toThrow(/closed/);
  });

  it('rejects a waiter with its signal reason and frees its place in the queue', async () => {
    const {
      fleets: [a],
    } = await rig.fleets(1);
    const pacer = a!.policyOptions.pacer;
    const held = await pacer.acquire(origin, { concurrency: 1, interval: 0 });
    const controller = new AbortController();
    const waiting = pacer.acquire(origin, { concurrency: 1, interval: 0 }, controller.signal);
    const queue = `${prefixOf(a!)}{${origin}}:queue`;
    await expect.poll(() => rig.redis.command<number>(['ZCARD', queue])).toBe(1);
    const reason = new Error('stop');
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect.poll(() => rig.redis.command<number>(['ZCARD', queue])).toBe(0);
    held.release();
  });
});

describe('Redis unavailable', () => {
  it('fails closed after unavailableTimeout with ERR_FLEET_UNAVAILABLE, then resumes', async () => {
    const events: FleetEvent['type'][] = [];
    const {
      fleets: [a],
    } = await rig.fleets(1, {
      unavailableTimeout: 200,
      onEvent: (event) => events.push(event.type),
    });
    const pacer = a!.policyOptions.pacer;
    await rig.redis.kill();
    const error: unknown = await Promise.resolve(
      pacer.acquire(origin, { concurrency: 1, interval: 0 }),
    ).catch((e: unknown) => e);
    expect(isFleetUnavailableError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'ERR_FLEET_UNAVAILABLE', origin });
    expect((error as { waited: number }).waited).toBeGreaterThanOrEqual(200);
    await rig.redis.restart();
    // The client reconnects on its own back-off (up to 1 s apart): a request made before that
    // would see Redis silent for more than 200 ms and fail closed again.
    await vi.waitFor(() => expect(a!.state).toBe('available'), { timeout: 5_000 });
    const slot = await pacer.acquire(origin, { concurrency: 1, interval: 0 });
    slot.release();
    expect(events).toEqual(['fleet-available', 'fleet-unavailable', 'fleet-available']);
  });

  it('resolves createRedisFleet while Redis is down and reports it, then works once it is up', async () => {
    await rig.redis.kill();
    const events: FleetEvent['type'][] = [];
    const {
      fleets: [a],
    } = await rig.fleets(1, { onEvent: (event) => events.push(event.type) });
    expect(a!.state).toBe('unavailable');
    const waiting = a!.policyOptions.pacer.acquire(origin, { concurrency: 1, interval: 0 });
    await rig.redis.restart();
    const slot = await waiting;
    slot.release();
    expect(events).toEqual(['fleet-unavailable', 'fleet-available']);
  });

  it('a paused (SIGSTOP) Redis never lets a request through: it rejects, the late grant is given back', async () => {
    const {
      fleets: [a],
    } = await rig.fleets(1, { unavailableTimeout: 200 });
    const pacer = a!.policyOptions.pacer;
    rig.redis.pause();
    const error: unknown = await Promise.resolve(
      pacer.acquire(origin, { concurrency: 1, interval: 0 }),
    ).catch((e: unknown) => e);
    expect(isFleetUnavailableError(error)).toBe(true);
    rig.redis.resume();
    // The grant Redis ran late was released again: the origin is free for the next request.
    await expect
      .poll(async () => (await leasesIn(`${prefixOf(a!)}{${origin}}:pace`)).length)
      .toBe(0);
    const slot = await pacer.acquire(origin, { concurrency: 1, interval: 0 });
    slot.release();
  });

  it('re-creates the leases of running requests after a restart that lost every key', async () => {
    const {
      fleets: [a, b],
    } = await rig.fleets(2, { leaseTtl: 600 });
    const held = await a!.policyOptions.pacer.acquire(origin, {
      concurrency: 1,
      interval: 0,
    });
    await rig.redis.kill();
    await rig.redis.restart();
    // Renewal (at once on reconnect) puts a's lease back: b must wait for a's release.
    const pace = `${prefixOf(a!)}{${origin}}:pace`;
    await expect.poll(async () => (await leasesIn(pace)).length, { timeout: 5_000 }).toBe(1);
    let granted = false;
    const waiting = b!.policyOptions.pacer
      .acquire(origin, { concurrency: 1, interval: 0 })
      .then((s) => {
        granted = true;
        return s;
      });
    await expect
      .poll(() => rig.redis.command<number>(['ZCARD', `${prefixOf(a!)}{${origin}}:queue`]))
      .toBe(1);
    expect(granted).toBe(false);
    held.release();
    (await waiting).release();
  });

  it('a queued request that finds its origin lost by Redis waits one interval (fails closed)', async () => {
    // wakeFallback 10: the waiter asks again within 10 ms of the loss, long before the interval.
    const {
      fleets: [a, b],
    } = await rig.fleets(2, { wakeFallback: 10 });
    const rules = { concurrency: 1, interval: 300 };
    const held = await a!.policyOptions.pacer.acquire(origin, rules);
    const waiting = b!.policyOptions.pacer.acquire(origin, rules);
    await expect
      .poll(() => rig.redis.command<number>(['ZCARD', `${prefixOf(a!)}{${origin}}:queue`]))
      .toBe(1);
    // Every key gone, as after a restart without persistence; a's booking of the next start
    // went with them, and a holds no lease any more that renewal would put back.
    await rig.redis.command(['FLUSHALL']);
    held.release();
    const next = await waiting;
    next.release();
    expect(next.startedAt - held.startedAt).toBeGreaterThanOrEqual(rules.interval);
  });
});

function prefixOf(fleet: RedisFleet): string {
  return fleet.keyPrefix;
}

/** The leases held in an origin's pace hash: `[id, expiry (Redis ms)]`. */
async function leasesIn(pace: string): Promise<[string, number][]> {
  const reply = await rig.redis.command<unknown>(['HGETALL', pace]);
  const entries: [string, unknown][] = Array.isArray(reply)
    ? Array.from({ length: reply.length / 2 }, (_, i) => [String(reply[2 * i]), reply[2 * i + 1]])
    : Object.entries(reply as Record<string, unknown>);
  return entries
    .filter(([field]) => field.startsWith('l:'))
    .map(([field, value]) => [field.slice(2), Number(value)]);
}

/** The expiry (Redis ms) of the first lease in the pace hash `key`. */
async function leaseExpiry(key: string): Promise<number> {
  return (await leasesIn(key))[0]?.[1] ?? 0;
}
