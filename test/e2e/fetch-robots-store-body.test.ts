/**
 * With a store, the in-memory entry drops the bytes of a parsed robots.txt (the matcher needs
 * the parsed rules only). Whatever is written to the store afterwards still carries them: read
 * back from the store's copy of the same response, or — when the store lost it — fetched again
 * without validators; a copy whose bytes are not at hand is never written without them.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryRobotsStore } from '@polite-crawler/fetch';
import type { StoredRobots } from '@polite-crawler/fetch';
import type { Handler } from '../helpers/recording-server.js';
import { useRigs } from '../fetch/helpers/setup.js';

const DAY = 24 * 3_600_000;
const RULES = 'User-agent: *\nDisallow: /private\n';

const { server, polite } = useRigs();

/** robots.txt answering `mode`: 200 with an ETag, 304 to a matching If-None-Match, or 503. */
function robotsServer(): { handler: Handler; mode: { now: 200 | 304 | 503 } } {
  const mode = { now: 200 as 200 | 304 | 503 };
  return {
    mode,
    handler: (req, res) => {
      if (req.url !== '/robots.txt') return void res.end('page');
      if (mode.now === 503) return void res.writeHead(503).end();
      if (mode.now === 304 && req.headers['if-none-match'] === '"v1"')
        return void res.writeHead(304, { etag: '"v1"' }).end();
      res.writeHead(200, { etag: '"v1"', 'content-type': 'text/plain' }).end(RULES);
    },
  };
}

const bodyOf = (entry: StoredRobots | undefined): string | undefined =>
  entry?.good === undefined ? undefined : Buffer.from(entry.good.body, 'base64').toString();

describe('a store keeps the body; the in-memory entry needs only the parsed rules', () => {
  it('a 304 revalidation writes the copy back to the store with its bytes', async () => {
    const robots = robotsServer();
    const s = await server(robots.handler);
    const store = createMemoryRobotsStore();
    const { policy, clock } = polite({ store });
    expect((await policy.check(`${s.origin}/private`)).allowed).toBe(false);
    robots.mode.now = 304;
    await clock.advance(DAY);
    expect((await policy.check(`${s.origin}/private`)).allowed).toBe(false);
    const hits = s.hits('/robots.txt');
    expect(hits).toHaveLength(2);
    expect(hits[1]!.headers['if-none-match']).toBe('"v1"');
    const stored = await store.get(s.origin);
    expect(stored?.good).toMatchObject({ fetchedAt: clock.now(), bytes: RULES.length });
    expect(bodyOf(stored)).toBe(RULES);
  });

  it('when the store lost the entry, the next fetch sends no validators and stores the bytes again', async () => {
    const robots = robotsServer();
    const s = await server(robots.handler);
    const store = createMemoryRobotsStore();
    const { policy, clock } = polite({ store });
    await policy.check(`${s.origin}/`);
    await store.delete(s.origin);
    robots.mode.now = 304;
    await clock.advance(DAY);
    expect((await policy.check(`${s.origin}/private`)).allowed).toBe(false);
    const hits = s.hits('/robots.txt');
    expect(hits).toHaveLength(2);
    // A 304 could not have been written to the store with the bytes: a plain GET brings them.
    expect(hits[1]!.headers['if-none-match']).toBeUndefined();
    expect(bodyOf(await store.get(s.origin))).toBe(RULES);
  });

  it('unreachable with a stale copy whose bytes the store lost: served here, stored without the copy', async () => {
    const robots = robotsServer();
    const s = await server(robots.handler);
    const store = createMemoryRobotsStore();
    const { policy, clock } = polite({ store });
    await policy.check(`${s.origin}/`);
    await store.delete(s.origin);
    robots.mode.now = 503;
    await clock.advance(DAY);
    // This process still has the parsed copy: it serves it stale.
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({
      allowed: false,
      reason: 'disallowed',
      stale: true,
    });
    expect((await policy.check(`${s.origin}/open`)).allowed).toBe(true);
    // The store gets the outcome without a copy it cannot vouch for: others fail closed.
    const stored = await store.get(s.origin);
    expect(stored?.latest.status).toBe('unreachable');
    expect(stored?.good).toBeUndefined();
  });

  it('unreachable with a stale copy the store still has: the store keeps the copy with its bytes', async () => {
    const robots = robotsServer();
    const s = await server(robots.handler);
    const store = createMemoryRobotsStore();
    const { policy, clock } = polite({ store });
    await policy.check(`${s.origin}/`);
    robots.mode.now = 503;
    await clock.advance(DAY);
    expect((await policy.check(`${s.origin}/private`)).stale).toBe(true);
    const stored = await store.get(s.origin);
    expect(stored?.latest.status).toBe('unreachable');
    expect(bodyOf(stored)).toBe(RULES);
  });
});
