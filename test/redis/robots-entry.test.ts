/**
 * The stored robots.txt entry against a real redis-server: the body is kept as its raw bytes
 * (not base64 in JSON), and an entry over the size limits is refused on write and never read
 * (a foreign 64 MiB value stays in Redis; the policy fetches robots.txt itself and replaces it).
 */
import { describe, expect, it } from 'vitest';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import type { StoredRobots } from '@polite-crawler/fetch';
import {
  FLEET_DEFAULTS,
  ROBOTS_METADATA_MAX_BYTES,
  isFleetEntryTooLargeError,
} from '@polite-crawler/redis';
import type { RedisFleet } from '@polite-crawler/redis';
import { useRedisRig } from './helpers/redis-rig.js';

const rig = useRedisRig('e');

const origin = 'https://example.com';
const keyOf = (fleet: RedisFleet, of = origin): string => `${fleet.keyPrefix}{${of}}:robots`;

/** A stored 2xx outcome whose copy is `body`. */
function okEntry(body: Uint8Array, extra: Partial<StoredRobots['latest']> = {}): StoredRobots {
  return {
    version: 1,
    robotsUrl: `${origin}/robots.txt`,
    latest: { status: 'ok', redirects: [], fetchedAt: 1_000, httpStatus: 200, ...extra },
    good: {
      body: Buffer.from(body).toString('base64'),
      bytes: Math.min(body.byteLength, FLEET_DEFAULTS.robotsMaxBytes),
      truncated: body.byteLength > FLEET_DEFAULTS.robotsMaxBytes,
      httpStatus: 200,
      redirects: [],
      fetchedAt: 1_000,
      etag: '"v1"',
    },
    expiresAt: 2_000,
  };
}

/** Bytes Redis has sent to its clients so far (INFO stats). */
async function netOutput(): Promise<number> {
  const info = await rig.redis.command<string>(['INFO', 'stats']);
  return Number(/total_net_output_bytes:(\d+)/.exec(info)![1]);
}

/** Puts a value of `bytes` bytes in field `field` of `key`, made inside Redis (not sent). */
async function bigField(key: string, field: string, bytes: number): Promise<void> {
  await rig.redis.command([
    'EVAL',
    "redis.call('HSET', KEYS[1], ARGV[1], string.rep('x', tonumber(ARGV[2]))) return 1",
    '1',
    key,
    field,
    String(bytes),
  ]);
}

describe('the body is stored as its bytes', () => {
  it('a body that is not UTF-8 round-trips byte for byte, kept raw in the hash (no base64, no JSON)', async () => {
    const fleet = await rig.fleet();
    // Latin-1 é, a lone 0xFF, a NUL: what a UTF-8 string reply or JSON would change.
    const body = Uint8Array.from([
      ...Buffer.from('User-agent: *\nDisallow: /caf'),
      0xe9,
      0xff,
      0x00,
      0x0a,
    ]);
    const entry = okEntry(body);
    await fleet.store.set(origin, entry);
    expect(await fleet.store.get(origin)).toEqual(entry);
    const key = keyOf(fleet);
    expect(await rig.redis.command<number>(['HSTRLEN', key, 'b'])).toBe(body.byteLength);
    const fields = await rig.redis.command<string[]>(['HKEYS', key]);
    expect(fields.sort()).toEqual(['b', 'g', 'm']);
    const metadata = JSON.parse(
      await rig.redis.command<string>(['HGET', key, 'm']),
    ) as StoredRobots;
    expect(metadata.good).not.toHaveProperty('body');
    expect(metadata.good?.bytes).toBe(body.byteLength);
  });

  it('an entry without a copy stores an empty body', async () => {
    const fleet = await rig.fleet();
    const entry: StoredRobots = {
      version: 1,
      robotsUrl: `${origin}/robots.txt`,
      latest: { status: 'unavailable', redirects: [], fetchedAt: 1_000, httpStatus: 404 },
      expiresAt: 2_000,
    };
    await fleet.store.set(origin, entry);
    expect(await fleet.store.get(origin)).toEqual(entry);
    expect(await rig.redis.command<number>(['HSTRLEN', keyOf(fleet), 'b'])).toBe(0);
  });

  it('an entry in the format of earlier versions (base64 in JSON, field e) counts as missing, and the next write replaces it', async () => {
    const fleet = await rig.fleet();
    const entry = okEntry(Buffer.from('User-agent: *\nDisallow: /\n'));
    await rig.redis.command(['HSET', keyOf(fleet), 'e', JSON.stringify(entry), 'g', '3']);
    expect(await fleet.store.get(origin)).toBeUndefined();
    await fleet.store.set(origin, entry);
    expect(await fleet.store.get(origin)).toEqual(entry);
    expect(await rig.redis.command<number>(['HEXISTS', keyOf(fleet), 'e'])).toBe(0);
    expect(await rig.redis.command<string>(['HGET', keyOf(fleet), 'g'])).toBe('4');
  });
});

describe('size limits', () => {
  const limit = FLEET_DEFAULTS.robotsMaxBytes + 1;

  it('robotsMaxBytes defaults to the policy parse limit (500 KiB)', () => {
    expect(FLEET_DEFAULTS.robotsMaxBytes).toBe(512_000);
  });

  it('a body at the limit (robotsMaxBytes plus the byte read past it) is written and read', async () => {
    const fleet = await rig.fleet();
    const entry = okEntry(Buffer.alloc(limit, 0x61));
    await fleet.store.set(origin, entry);
    expect(await fleet.store.get(origin)).toEqual(entry);
    expect(await rig.redis.command<number>(['HSTRLEN', keyOf(fleet), 'b'])).toBe(limit);
  });

  it('a body one byte past the limit is refused on write with a typed error, and nothing is stored', async () => {
    const fleet = await rig.fleet();
    const refused = fleet.store.set(origin, okEntry(Buffer.alloc(limit + 1, 0x61)));
    await expect(refused).rejects.toMatchObject({
      code: 'ERR_FLEET_ENTRY_TOO_LARGE',
      part: 'body',
      bytes: limit + 1,
      limit,
    });
    await refused.catch((error: unknown) => expect(isFleetEntryTooLargeError(error)).toBe(true));
    expect(await rig.redis.command<number>(['EXISTS', keyOf(fleet)])).toBe(0);
  });

  it('a raised robotsMaxBytes raises the body limit with it', async () => {
    const fleet = await rig.fleet({ robotsMaxBytes: 1_048_576 });
    const entry = okEntry(Buffer.alloc(1_048_577, 0x61));
    // bytes as the policy would count them with robotsMaxBytes 1 MiB.
    const good = { ...entry.good!, bytes: 1_048_576, truncated: true };
    await fleet.store.set(origin, { ...entry, good });
    expect((await fleet.store.get(origin))?.good).toEqual(good);
    await expect(
      fleet.store.set(origin, okEntry(Buffer.alloc(1_048_578, 0x61))),
    ).rejects.toMatchObject({ code: 'ERR_FLEET_ENTRY_TOO_LARGE', limit: 1_048_577 });
  });

  /** An entry whose metadata JSON is exactly `bytes` long (a long failure message). */
  function entryWithMetadataOf(bytes: number): StoredRobots {
    const base: StoredRobots = {
      version: 1,
      robotsUrl: `${origin}/robots.txt`,
      latest: {
        status: 'unreachable',
        redirects: [],
        fetchedAt: 1_000,
        failure: { kind: 'network', message: '' },
      },
      expiresAt: 2_000,
    };
    const message = 'm'.repeat(bytes - JSON.stringify(base).length);
    const entry = {
      ...base,
      latest: { ...base.latest, failure: { kind: 'network' as const, message } },
    };
    expect(JSON.stringify(entry)).toHaveLength(bytes);
    return entry;
  }

  it('metadata at its limit (64 KiB) is written and read; one byte past it is refused', async () => {
    const fleet = await rig.fleet();
    const atLimit = entryWithMetadataOf(ROBOTS_METADATA_MAX_BYTES);
    await fleet.store.set(origin, atLimit);
    expect(await fleet.store.get(origin)).toEqual(atLimit);
    await expect(
      fleet.store.set(origin, entryWithMetadataOf(ROBOTS_METADATA_MAX_BYTES + 1)),
    ).rejects.toMatchObject({
      code: 'ERR_FLEET_ENTRY_TOO_LARGE',
      part: 'metadata',
      limit: ROBOTS_METADATA_MAX_BYTES,
    });
    // The refused write left the stored entry as it was.
    expect(await fleet.store.get(origin)).toEqual(atLimit);
  });

  it('a stored body one byte past the limit (written by something else) is never read: missing', async () => {
    const fleet = await rig.fleet();
    const entry = okEntry(Buffer.alloc(limit, 0x61));
    await fleet.store.set(origin, entry);
    expect(await fleet.store.get(origin)).toEqual(entry);
    await bigField(keyOf(fleet), 'b', limit + 1);
    expect(await fleet.store.get(origin)).toBeUndefined();
  });

  it('stored metadata one byte past its limit is never read: missing', async () => {
    const fleet = await rig.fleet();
    await fleet.store.set(origin, okEntry(Buffer.from('User-agent: *\n')));
    await bigField(keyOf(fleet), 'm', ROBOTS_METADATA_MAX_BYTES + 1);
    expect(await fleet.store.get(origin)).toBeUndefined();
  });

  it('a 64 MiB string at the key is read as missing without Redis sending it', async () => {
    const fleet = await rig.fleet();
    const key = keyOf(fleet);
    await rig.redis.command(['SETRANGE', key, String(64 * 1024 * 1024 - 1), 'x']);
    const before = await netOutput();
    expect(await fleet.store.get(origin)).toBeUndefined();
    // The replies of a few small commands (INFO included), not 64 MiB.
    expect((await netOutput()) - before).toBeLessThan(64 * 1024);
  });

  it('a foreign 64 MiB entry fails closed: the policy fetches robots.txt itself, obeys it, and the write replaces the value', async () => {
    const site = await rig.startSite(1, (path) =>
      path === '/robots.txt' ? { body: 'User-agent: *\nDisallow: /no\n' } : { body: 'x' },
    );
    const target = site.origins[0]!;
    const fleet = await rig.fleet();
    const key = keyOf(fleet, target);
    // An entry that would allow everything, with a body padded to 64 MiB.
    const forged = {
      ...okEntry(Buffer.from('User-agent: *\nAllow: /\n')),
      robotsUrl: `${target}/robots.txt`,
      expiresAt: Date.now() + 60_000,
    };
    await fleet.store.set(target, forged);
    await bigField(key, 'b', 64 * 1024 * 1024);
    const policy = createRobotsPolicy({
      userAgent: 'FleetBot/1.0 (+https://example.com/bot)',
      ...fleet.policyOptions,
    });
    try {
      const before = await netOutput();
      expect((await policy.check(`${target}/no`)).allowed).toBe(false);
      // The 64 MiB never left Redis: replies of a few small commands.
      expect((await netOutput()) - before).toBeLessThan(64 * 1024);
      expect(site.of(target, '/robots.txt')).toHaveLength(1);
      expect(await rig.redis.command<number>(['HSTRLEN', key, 'b'])).toBe(
        'User-agent: *\nDisallow: /no\n'.length,
      );
    } finally {
      await policy.close();
    }
  });
});
