import { describe, expect, it } from 'vitest';
import { createMemoryRobotsStore } from '@polite-crawler/fetch';
import type { PoliteEvent, RobotsStore, StoredRobots } from '@polite-crawler/fetch';
import { useRigs } from '../fetch/helpers/setup.js';
import { FakeClock, until } from '../fetch/helpers/fake-clock.js';

// Clocks that disagree: a store's writer whose clock is years ahead, a server whose clock is
// not the crawler's. Lifetimes count on the reader's clock; a Retry-After date on the server's.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const TEN_YEARS = 3_652 * DAY;
const RULES = 'User-agent: *\nDisallow: /private\n';
const ALLOW_ALL = 'User-agent: *\nAllow: /\n';

const { server, polite } = useRigs();

/** An entry as a process whose clock runs `skew` ms ahead would have written it just now. */
function futureDated(robotsUrl: string, body: string, now: number, skew: number): StoredRobots {
  const fetchedAt = now + skew;
  return {
    version: 1,
    robotsUrl,
    latest: { status: 'ok', httpStatus: 200, redirects: [], fetchedAt },
    good: {
      body: Buffer.from(body).toString('base64'),
      bytes: body.length,
      truncated: false,
      httpStatus: 200,
      redirects: [],
      fetchedAt,
      etag: '"skewed"',
    },
    expiresAt: fetchedAt + DAY,
  };
}

/** A RobotsStore of the test's own: what `set` writes is what `get` answers, and it counts reads. */
function recordingStore(): RobotsStore & { entries: Map<string, StoredRobots>; reads: number } {
  const entries = new Map<string, StoredRobots>();
  const store = {
    entries,
    reads: 0,
    get: (origin: string) => {
      store.reads += 1;
      const entry = entries.get(origin);
      return Promise.resolve(entry === undefined ? undefined : structuredClone(entry));
    },
    set: (origin: string, entry: StoredRobots) => {
      entries.set(origin, structuredClone(entry));
      return Promise.resolve();
    },
    delete: (origin: string) => {
      entries.delete(origin);
      return Promise.resolve();
    },
  };
  return store;
}

describe('a stored entry dated ten years ahead', () => {
  it('is trusted robotsMaxTtl from when this process first read it, then revalidated', async () => {
    const clock = new FakeClock();
    const conditional: (string | undefined)[] = [];
    const s = await server((req, res) => {
      if (req.url !== '/robots.txt') return void res.end('page');
      conditional.push(req.headers['if-none-match']);
      res.writeHead(200, { 'content-type': 'text/plain', etag: '"fresh"' }).end(RULES);
    }, clock);
    const store = createMemoryRobotsStore();
    // Read an hour after the writer stored it: first sight, not the write, starts the count.
    await store.set(
      s.origin,
      futureDated(`${s.origin}/robots.txt`, ALLOW_ALL, clock.now(), TEN_YEARS),
    );
    await clock.advance(HOUR);
    const { policy } = polite({ clock, store, robotsMaxTtl: DAY });
    // The stored rules (allow all) are used: the entry is well-formed, only its dates are off.
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({ allowed: true });
    await clock.advance(DAY - 1);
    expect(await policy.explain(`${s.origin}/private`)).toMatchObject({
      allowed: true,
      robotsTxt: { cache: 'hit' },
    });
    expect(s.hits('/robots.txt')).toHaveLength(0);
    await clock.advance(1);
    // robotsMaxTtl after first sight: revalidated with the stored validator, new rules in force.
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({ allowed: false });
    expect(s.hits('/robots.txt')).toHaveLength(1);
    expect(conditional).toEqual(['"skewed"']);
    // What this process wrote back is on its own clock.
    const written = (await store.get(s.origin))!;
    expect(written.latest.fetchedAt).toBe(clock.now());
    expect(written.expiresAt).toBe(clock.now() + DAY);
  });

  it('the same entry read again (evicted from memory) keeps its first sighting', async () => {
    const clock = new FakeClock();
    const s = await server((req, res) => {
      if (req.url !== '/robots.txt') return void res.end('page');
      res.writeHead(200, { 'content-type': 'text/plain' }).end(RULES);
    }, clock);
    const store = recordingStore();
    // A store that refuses writes (its writer keeps the skewed entry): only reads matter here.
    const readOnly: RobotsStore = { ...store, set: () => Promise.resolve() };
    const other = await server((_req, res) => res.end(''), clock);
    store.entries.set(
      s.origin,
      futureDated(`${s.origin}/robots.txt`, ALLOW_ALL, clock.now(), TEN_YEARS),
    );
    // maxOrigins 1: checking the other origin drops this one from the in-memory cache.
    const { policy } = polite({ clock, store: readOnly, robotsMaxTtl: DAY, maxOrigins: 1 });
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({ allowed: true });
    await clock.advance(DAY / 2);
    await policy.check(`${other.origin}/`);
    const reads = store.reads;
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({ allowed: true });
    expect(store.reads).toBe(reads + 1);
    expect(s.hits('/robots.txt')).toHaveLength(0);
    await clock.advance(DAY / 2);
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({ allowed: false });
    expect(s.hits('/robots.txt')).toHaveLength(1);
  });

  it('does not stretch stale-if-unreachable: its good copy is served 30 days from first sight, not ten years', async () => {
    const clock = new FakeClock();
    const s = await server((req, res) => {
      if (req.url !== '/robots.txt') return void res.end('page');
      res.writeHead(503, { 'content-type': 'text/plain' }).end();
    }, clock);
    const store = recordingStore();
    store.entries.set(
      s.origin,
      futureDated(`${s.origin}/robots.txt`, ALLOW_ALL, clock.now(), TEN_YEARS),
    );
    const events: PoliteEvent[] = [];
    const { policy } = polite({
      clock,
      store,
      robotsMaxTtl: DAY,
      staleIfUnreachable: 30 * DAY,
      onEvent: (event) => events.push(event),
    });
    const seen = clock.now();
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({ allowed: true });
    // Unreachable from then on: the good copy is served stale, retried hourly at most.
    await clock.advance(DAY);
    expect(await policy.explain(`${s.origin}/private`)).toMatchObject({
      allowed: true,
      stale: true,
    });
    expect(store.entries.get(s.origin)!.good!.fetchedAt).toBe(seen);
    while (clock.now() < seen + 30 * DAY - HOUR) {
      await clock.advance(HOUR);
      expect(await policy.check(`${s.origin}/private`)).toMatchObject({ allowed: true });
    }
    await clock.advance(HOUR);
    // Thirty days after first sight the copy is no longer served: unreachable means disallowed.
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({
      allowed: false,
      reason: 'unreachable',
    });
    expect(events.some((e) => e.type === 'robots-fetched')).toBe(true);
  });
});

describe('future-dated entries written again, and how many are remembered', () => {
  it('a new future stamp is a new sighting; the good copy keeps its own', async () => {
    const clock = new FakeClock();
    const s = await server((req, res) => {
      if (req.url !== '/robots.txt') return void res.end('page');
      res.writeHead(200, { 'content-type': 'text/plain' }).end(RULES);
    }, clock);
    const store = recordingStore();
    // A store that keeps what the skewed writer wrote (this process's writes are dropped).
    const readOnly: RobotsStore = { ...store, set: () => Promise.resolve() };
    const skewed = futureDated(`${s.origin}/robots.txt`, ALLOW_ALL, clock.now(), TEN_YEARS);
    store.entries.set(s.origin, skewed);
    const { policy } = polite({ clock, store: readOnly, robotsMaxTtl: DAY });
    const seen = clock.now();
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({ allowed: true });
    // The writer later records a failure, still ten years ahead, and keeps the same good copy.
    store.entries.set(s.origin, {
      ...skewed,
      latest: { status: 'unreachable', redirects: [], fetchedAt: skewed.latest.fetchedAt + 60_000 },
      expiresAt: skewed.latest.fetchedAt + 60_000 + DAY,
    });
    await clock.advance(DAY);
    // Read a day later: the failure is sighted now (retry at most an hour from now), the good
    // copy still counts from its first sighting (served stale, 30 days from then).
    expect(await policy.explain(`${s.origin}/private`)).toMatchObject({
      allowed: true,
      stale: true,
      robotsTxt: { fetchedAt: seen },
    });
    await clock.advance(HOUR - 1);
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({ allowed: true });
    expect(s.hits('/robots.txt')).toHaveLength(0);
    await clock.advance(1);
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({ allowed: false });
    expect(s.hits('/robots.txt')).toHaveLength(1);
  });

  it('an entry written again on a right clock ends the sighting: the same future stamp later is new', async () => {
    const clock = new FakeClock();
    const s = await server((req, res) => {
      if (req.url !== '/robots.txt') return void res.end('page');
      res.writeHead(200, { 'content-type': 'text/plain' }).end(RULES);
    }, clock);
    const store = recordingStore();
    const readOnly: RobotsStore = { ...store, set: () => Promise.resolve() };
    const skewed = futureDated(`${s.origin}/robots.txt`, ALLOW_ALL, clock.now(), TEN_YEARS);
    store.entries.set(s.origin, skewed);
    const { policy } = polite({ clock, store: readOnly, robotsMaxTtl: DAY });
    const explain = () => policy.explain(`${s.origin}/private`);
    expect(await explain()).toMatchObject({ robotsTxt: { fetchedAt: clock.now() } });
    await clock.advance(DAY);
    // A writer on a right clock stores it: nothing ahead, nothing to remember.
    store.entries.set(s.origin, futureDated(`${s.origin}/robots.txt`, ALLOW_ALL, clock.now(), 0));
    expect(await explain()).toMatchObject({ robotsTxt: { fetchedAt: clock.now() } });
    await clock.advance(DAY);
    // The skewed writer's old entry comes back: sighted now, not a day ago.
    store.entries.set(s.origin, skewed);
    expect(await explain()).toMatchObject({ robotsTxt: { fetchedAt: clock.now(), cache: 'hit' } });
    expect(s.hits('/robots.txt')).toHaveLength(0);
  });

  it('first sightings are remembered for at most maxOrigins origins; the one sighted longest ago goes', async () => {
    const clock = new FakeClock();
    const sites = await Promise.all(
      [0, 1, 2].map(() =>
        server((req, res) => {
          if (req.url !== '/robots.txt') return void res.end('page');
          res.writeHead(200, { 'content-type': 'text/plain' }).end(RULES);
        }, clock),
      ),
    );
    const [a, b, c] = sites as [(typeof sites)[0], (typeof sites)[0], (typeof sites)[0]];
    const store = recordingStore();
    const readOnly: RobotsStore = { ...store, set: () => Promise.resolve() };
    for (const site of sites) {
      store.entries.set(
        site.origin,
        futureDated(`${site.origin}/robots.txt`, ALLOW_ALL, clock.now(), TEN_YEARS),
      );
    }
    const { policy } = polite({ clock, store: readOnly, robotsMaxTtl: DAY, maxOrigins: 2 });
    const explainA = () => policy.explain(`${a.origin}/private`);
    const firstA = clock.now();
    expect(await explainA()).toMatchObject({ allowed: true, robotsTxt: { fetchedAt: firstA } });
    await clock.advance(1_000);
    await policy.check(`${b.origin}/`);
    await clock.advance(1_000);
    // A third future-dated origin: a's sighting, the oldest, is forgotten (and a leaves memory).
    await policy.check(`${c.origin}/`);
    await clock.advance(1_000);
    expect(await explainA()).toMatchObject({
      allowed: true,
      robotsTxt: { fetchedAt: clock.now() },
    });
    expect(a.hits('/robots.txt')).toHaveLength(0);
  });
});

describe("an HTTP-date Retry-After from a server whose clock differs from the crawler's", () => {
  for (const skew of [30_000, -30_000]) {
    it(`pauses for Retry-After − Date (the crawler's clock ${skew > 0 ? 'fast' : 'slow'} by 30 s)`, async () => {
      const clock = new FakeClock();
      const pause = 60_000;
      const s = await server((req, res) => {
        if (req.url === '/robots.txt') return void res.end('');
        if (req.url === '/busy') {
          // The server's clock is the crawler's minus the skew.
          const serverNow = clock.now() - skew;
          res.writeHead(503, {
            date: new Date(serverNow).toUTCString(),
            'retry-after': new Date(serverNow + pause).toUTCString(),
          });
          return void res.end();
        }
        res.end('ok');
      }, clock);
      const events: PoliteEvent[] = [];
      const { fetch } = polite({ clock, onEvent: (e) => events.push(e) });
      expect((await fetch(`${s.origin}/busy`)).status).toBe(503);
      expect(events).toContainEqual(
        expect.objectContaining({ type: 'origin-paused', duration: pause }),
      );
      const next = fetch(`${s.origin}/after`);
      await until(() => clock.pending > 0, 'paused request');
      await clock.advance(pause - 1);
      expect(s.hits('/after')).toHaveLength(0);
      await clock.advance(1);
      expect((await next).status).toBe(200);
      expect(s.hits('/after')[0]!.at - s.hits('/busy')[0]!.at).toBe(pause);
    });
  }

  it('without a valid Date header the local clock is used', async () => {
    const clock = new FakeClock();
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') return void res.end('');
      if (req.url === '/busy') {
        res.writeHead(429, {
          date: 'not a date',
          'retry-after': new Date(clock.now() + 45_000).toUTCString(),
        });
        return void res.end();
      }
      res.end('ok');
    }, clock);
    const { fetch } = polite({ clock });
    await fetch(`${s.origin}/busy`);
    const next = fetch(`${s.origin}/after`);
    await until(() => clock.pending > 0, 'paused request');
    expect(clock.deadlines[0]! - clock.now()).toBe(45_000);
    await clock.advance(45_000);
    await next;
  });

  it('a robots.txt 503 with an HTTP-date Retry-After is retried after Retry-After − Date', async () => {
    const clock = new FakeClock();
    const skew = 30_000;
    const retry = 2 * HOUR;
    let status = 503;
    const s = await server((req, res) => {
      if (req.url !== '/robots.txt') return void res.end('page');
      const serverNow = clock.now() - skew;
      res.writeHead(status, {
        'content-type': 'text/plain',
        date: new Date(serverNow).toUTCString(),
        'retry-after': new Date(serverNow + retry).toUTCString(),
      });
      res.end(status === 200 ? RULES : '');
    }, clock);
    const { policy } = polite({ clock, maxUnreachableRetryInterval: 6 * HOUR });
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({ allowed: false });
    const explained = await policy.explain(`${s.origin}/`);
    expect(explained.robotsTxt.latest.retryAfterMs).toBe(retry);
    status = 200;
    await clock.advance(retry - 1);
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(1);
    await clock.advance(1);
    expect(await policy.check(`${s.origin}/`)).toMatchObject({ allowed: true });
    expect(s.hits('/robots.txt')).toHaveLength(2);
  });
});
