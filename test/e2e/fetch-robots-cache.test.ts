import { describe, expect, it } from 'vitest';
import {
  createMemoryRobotsStore,
  createRobotsPolicy,
  isRobotsDeniedError,
} from '@polite-crawler/fetch';
import type { Decision, PoliteEvent, RobotsStore, StoredRobots } from '@polite-crawler/fetch';
import type { Handler } from '../helpers/recording-server.js';
import { USER_AGENT, localAgent, useRigs } from '../fetch/helpers/setup.js';
import { FakeClock, tick } from '../fetch/helpers/fake-clock.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const RULES = 'User-agent: *\nDisallow: /private\n';

const { server, polite, defer } = useRigs();

/** A robots.txt server whose answer the test switches: a status, headers and body. */
function switchable(initial: { status: number; headers?: Record<string, string>; body?: string }): {
  handler: Handler;
  set(next: { status: number; headers?: Record<string, string>; body?: string }): void;
} {
  let current = initial;
  return {
    handler: (req, res) => {
      if (req.url !== '/robots.txt') {
        res.end('page');
        return;
      }
      res.writeHead(current.status, { 'content-type': 'text/plain', ...current.headers });
      res.end(current.body ?? '');
    },
    set: (next) => {
      current = next;
    },
  };
}

describe('single flight', () => {
  it('1,000 concurrent requests to a cold origin cause exactly one robots.txt request', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') {
        // Answer on the next turn, so that every caller is already waiting.
        setImmediate(() => res.end('User-agent: *\nAllow: /\n'));
        return;
      }
      res.end('page');
    });
    const { fetch } = polite({ concurrency: 50 });
    const responses = await Promise.all(
      Array.from({ length: 1_000 }, (_, i) => fetch(`${s.origin}/p/${i}`)),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    await Promise.all(responses.map((r) => r.arrayBuffer()));
    expect(s.hits('/robots.txt')).toHaveLength(1);
    expect(s.seen).toHaveLength(1_001);
    expect(s.seen[0]!.path).toBe('/robots.txt');
  });

  it('a caller that aborts its wait does not cancel the shared fetch for the others', async () => {
    let answer: (() => void) | undefined;
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') answer = () => res.end(RULES);
      else res.end('page');
    });
    const { policy } = polite();
    const controller = new AbortController();
    const first = policy.check(`${s.origin}/a`, { signal: controller.signal });
    const second = policy.check(`${s.origin}/private`);
    await new Promise<void>((resolve) => {
      const poll = (): void => (answer === undefined ? void setImmediate(poll) : resolve());
      poll();
    });
    controller.abort(new Error('caller gave up'));
    await expect(first).rejects.toThrow('caller gave up');
    answer!();
    expect(await second).toMatchObject({ allowed: false, reason: 'disallowed' });
    expect(s.hits('/robots.txt')).toHaveLength(1);
  });
});

describe('TTL', () => {
  it('uses a copy for 24 hours, then fetches again', async () => {
    const s = await server(switchable({ status: 200, body: RULES }).handler);
    const { policy, clock } = polite();
    await policy.check(`${s.origin}/`);
    await clock.advance(DAY - 1);
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(1);
    expect(policy.peek(`${s.origin}/private`)).toMatchObject({ allowed: false });
    await clock.advance(1);
    expect(policy.peek(`${s.origin}/private`)).toBeUndefined();
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(2);
  });

  it('honours a shorter Cache-Control max-age, but never below robotsMinTtl', async () => {
    const robots = switchable({
      status: 200,
      headers: { 'cache-control': 'max-age=600' },
      body: RULES,
    });
    const s = await server(robots.handler);
    const { policy, clock } = polite();
    await policy.check(`${s.origin}/`);
    await clock.advance(599_999);
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(1);
    await clock.advance(1);
    robots.set({ status: 200, headers: { 'cache-control': 'no-cache' }, body: RULES });
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(2);
    // no-cache: held for robotsMinTtl (60 s), not refetched per request.
    await clock.advance(59_999);
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(2);
    await clock.advance(1);
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(3);
  });

  it('counts the Age a cache in between reported against max-age', async () => {
    const s = await server(
      switchable({
        status: 200,
        headers: { 'cache-control': 'max-age=3600', age: '3000' },
        body: RULES,
      }).handler,
    );
    const { policy, clock } = polite();
    await policy.check(`${s.origin}/`);
    await clock.advance(599_999);
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(1);
    await clock.advance(1);
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(2);
  });

  it('caps a longer max-age at 24 hours', async () => {
    const s = await server(
      switchable({ status: 200, headers: { 'cache-control': 'max-age=604800' }, body: RULES })
        .handler,
    );
    const { policy, clock } = polite();
    const first = await policy.explain(`${s.origin}/`);
    expect(first.robotsTxt.expiresAt - first.robotsTxt.fetchedAt).toBe(DAY);
    await clock.advance(DAY);
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(2);
  });
});

describe('revalidation', () => {
  it('sends If-None-Match / If-Modified-Since after expiry and keeps the rules on 304', async () => {
    const modified = 'Wed, 01 Jan 2025 00:00:00 GMT';
    const s = await server((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res.writeHead(304, { etag: '"v1"' }).end();
        return;
      }
      res
        .writeHead(200, { etag: '"v1"', 'last-modified': modified, 'content-type': 'text/plain' })
        .end(RULES);
    });
    const events: PoliteEvent[] = [];
    const { policy, clock } = polite({ onEvent: (e) => events.push(e) });
    expect((await policy.explain(`${s.origin}/private`)).robotsTxt.cache).toBe('miss');
    await clock.advance(DAY);
    const again = await policy.explain(`${s.origin}/private`);
    expect(again).toMatchObject({ allowed: false, reason: 'disallowed', line: 2 });
    expect(again.robotsTxt).toMatchObject({
      cache: 'revalidated',
      status: 'ok',
      httpStatus: 200,
      fetchedAt: clock.now(),
    });
    const [, conditional] = s.hits('/robots.txt');
    expect(conditional!.headers['if-none-match']).toBe('"v1"');
    expect(conditional!.headers['if-modified-since']).toBe(modified);
    expect(
      events
        .filter((e) => e.type === 'robots-fetched')
        .map((e) => e.type === 'robots-fetched' && e.notModified),
    ).toEqual([false, true]);
    expect((await policy.explain(`${s.origin}/private`)).robotsTxt.cache).toBe('hit');
  });

  it('revalidates with Last-Modified alone', async () => {
    const modified = 'Wed, 01 Jan 2025 00:00:00 GMT';
    const s = await server((req, res) => {
      if (req.headers['if-modified-since'] === modified) {
        res.writeHead(304).end();
        return;
      }
      res.writeHead(200, { 'last-modified': modified }).end(RULES);
    });
    const { policy, clock } = polite();
    await policy.check(`${s.origin}/`);
    await clock.advance(DAY);
    expect((await policy.explain(`${s.origin}/private`)).robotsTxt.cache).toBe('revalidated');
    expect(s.hits('/robots.txt')[1]!.headers['if-none-match']).toBeUndefined();
  });
});

describe('revalidation keeps the max-age of the copy', () => {
  it('a 304 without Cache-Control keeps the 200’s max-age; one with its own replaces it', async () => {
    const HOUR = 3_600_000;
    let notModifiedCacheControl: string | undefined;
    const s = await server((req, res) => {
      if (req.headers['if-none-match'] === '"v1"') {
        res
          .writeHead(304, {
            etag: '"v1"',
            ...(notModifiedCacheControl === undefined
              ? {}
              : { 'cache-control': notModifiedCacheControl }),
          })
          .end();
        return;
      }
      res.writeHead(200, { etag: '"v1"', 'cache-control': 'max-age=3600' }).end(RULES);
    });
    const { policy, clock } = polite();
    const ttl = async (): Promise<number> => {
      const { robotsTxt } = await policy.explain(`${s.origin}/private`);
      return robotsTxt.expiresAt - robotsTxt.fetchedAt;
    };
    expect(await ttl()).toBe(HOUR);
    await clock.advance(HOUR);
    expect(await ttl()).toBe(HOUR);
    expect(s.hits('/robots.txt')).toHaveLength(2);
    notModifiedCacheControl = 'max-age=600';
    await clock.advance(HOUR);
    expect(await ttl()).toBe(600_000);
    // And the next 304 without one keeps the 600 s the last one gave.
    notModifiedCacheControl = undefined;
    await clock.advance(600_000);
    expect(await ttl()).toBe(600_000);
    expect(s.hits('/robots.txt')).toHaveLength(4);
  });
});

describe('unreachable after a good copy: stale-if-unreachable', () => {
  it('keeps serving the good copy for 30 days after it was fetched, retrying on a bounded interval', async () => {
    const robots = switchable({ status: 200, body: RULES });
    const s = await server(robots.handler);
    const { policy, clock, fetch } = polite();
    await policy.check(`${s.origin}/`);
    const fetchedAt = clock.now();
    robots.set({ status: 503 });
    await clock.advance(DAY);
    const stale = await policy.explain(`${s.origin}/private`);
    expect(stale).toMatchObject({
      allowed: false,
      reason: 'disallowed',
      robotsStatus: 'ok',
      stale: true,
    });
    expect(stale.robotsTxt).toMatchObject({ cache: 'stale', fetchedAt });
    expect(stale.robotsTxt.latest).toMatchObject({ status: 'unreachable', httpStatus: 503 });
    expect((await fetch(`${s.origin}/open`)).status).toBe(200);
    expect(s.hits('/robots.txt')).toHaveLength(2);
    // Retried after the unreachable interval (60 s), not on every request.
    await clock.advance(59_999);
    await policy.check(`${s.origin}/open`);
    expect(s.hits('/robots.txt')).toHaveLength(2);
    await clock.advance(1);
    await policy.check(`${s.origin}/open`);
    expect(s.hits('/robots.txt')).toHaveLength(3);
    // One millisecond before 30 days since the good copy was fetched: still served.
    await clock.advance(fetchedAt + 30 * DAY - 1 - clock.now());
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({
      allowed: false,
      reason: 'disallowed',
      stale: true,
    });
    expect((await policy.check(`${s.origin}/open`)).allowed).toBe(true);
    // Still unreachable 30 days after the good copy was fetched: disallow all.
    await clock.advance(1);
    const expired = await policy.check(`${s.origin}/open`);
    expect(expired).toMatchObject({ allowed: false, reason: 'unreachable', stale: false });
    const error = await fetch(`${s.origin}/open`).catch((e: unknown) => e);
    expect(isRobotsDeniedError(error) && error.reason).toBe('unreachable');
  });

  it('does not serve a stale copy when staleIfUnreachable is 0', async () => {
    const robots = switchable({ status: 200, body: RULES });
    const s = await server(robots.handler);
    const { policy, clock } = polite({ staleIfUnreachable: 0 });
    await policy.check(`${s.origin}/`);
    robots.set({ status: 500 });
    await clock.advance(DAY);
    expect(await policy.check(`${s.origin}/open`)).toMatchObject({
      allowed: false,
      reason: 'unreachable',
    });
  });

  it('a 404 after a good copy drops it (robots.txt was removed)', async () => {
    const robots = switchable({ status: 200, body: RULES });
    const s = await server(robots.handler);
    const { policy, clock } = polite();
    await policy.check(`${s.origin}/`);
    robots.set({ status: 404 });
    await clock.advance(DAY);
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({
      allowed: true,
      reason: 'unavailable',
    });
  });
});

describe('unreachable without a good copy', () => {
  it('stays disallowed and is retried after a short interval, never on every request', async () => {
    const robots = switchable({ status: 503 });
    const s = await server(robots.handler);
    const { policy, clock } = polite({ unreachableRetryInterval: 30_000 });
    for (let i = 0; i < 20; i += 1) {
      expect(await policy.check(`${s.origin}/x${i}`)).toMatchObject({
        allowed: false,
        reason: 'unreachable',
      });
    }
    expect(s.hits('/robots.txt')).toHaveLength(1);
    robots.set({ status: 200, body: RULES });
    await clock.advance(29_999);
    expect((await policy.check(`${s.origin}/x`)).allowed).toBe(false);
    await clock.advance(1);
    expect(await policy.check(`${s.origin}/x`)).toMatchObject({ allowed: true, reason: 'allowed' });
    expect(s.hits('/robots.txt')).toHaveLength(2);
  });

  it('honours Retry-After, capped at maxUnreachableRetryInterval', async () => {
    const robots = switchable({ status: 503, headers: { 'retry-after': '300' } });
    const s = await server(robots.handler);
    const { policy, clock } = polite();
    const first = await policy.explain(`${s.origin}/`);
    expect(first.robotsTxt.expiresAt - clock.now()).toBe(300_000);
    expect(first.robotsTxt.latest.retryAfterMs).toBe(300_000);
    await clock.advance(299_999);
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(1);
    robots.set({ status: 429, headers: { 'retry-after': '999999' } });
    await clock.advance(1);
    const capped = await policy.explain(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(2);
    expect(capped.robotsTxt.expiresAt - clock.now()).toBe(3_600_000);
  });

  it('a Retry-After shorter than the interval does not make it poll faster', async () => {
    const s = await server(switchable({ status: 503, headers: { 'retry-after': '1' } }).handler);
    const { policy, clock } = polite();
    const first = await policy.explain(`${s.origin}/`);
    expect(first.robotsTxt.expiresAt - clock.now()).toBe(60_000);
  });
});

describe('store', () => {
  it('two policies sharing a store fetch robots.txt once; entries are plain JSON', async () => {
    const s = await server(
      switchable({ status: 200, body: RULES, headers: { etag: '"e"' } }).handler,
    );
    const store = createMemoryRobotsStore({ maxOrigins: 10 });
    const clock = new FakeClock();
    const agent = localAgent();
    defer(() => agent.close());
    const make = () =>
      createRobotsPolicy({ userAgent: USER_AGENT, store, clock, dispatcher: agent });
    const a = make();
    const b = make();
    defer(
      () => a.close(),
      () => b.close(),
    );
    expect((await a.check(`${s.origin}/private`)).allowed).toBe(false);
    const explained = await b.explain(`${s.origin}/private`);
    expect(explained).toMatchObject({ allowed: false, line: 2 });
    expect(explained.robotsTxt.cache).toBe('hit');
    expect(s.hits('/robots.txt')).toHaveLength(1);
    const stored = (await store.get(s.origin)) as StoredRobots;
    expect(JSON.parse(JSON.stringify(stored))).toEqual(stored);
    expect(Buffer.from(stored.good!.body, 'base64').toString()).toBe(RULES);
    expect(stored).toMatchObject({
      version: 1,
      robotsUrl: `${s.origin}/robots.txt`,
      latest: { status: 'ok', httpStatus: 200 },
    });
    // An expired stored copy is revalidated from the store's validators.
    await clock.advance(DAY);
    const c = make();
    defer(() => c.close());
    expect((await c.check(`${s.origin}/private`)).allowed).toBe(false);
    expect(s.hits('/robots.txt')[1]!.headers['if-none-match']).toBe('"e"');
  });

  it('forget() drops an origin from memory and the store', async () => {
    const s = await server(switchable({ status: 200, body: RULES }).handler);
    const store = createMemoryRobotsStore();
    const { policy } = polite({ store });
    await policy.check(`${s.origin}/`);
    await policy.forget(s.origin);
    expect(await store.get(s.origin)).toBeUndefined();
    expect(policy.peek(`${s.origin}/`)).toBeUndefined();
    await policy.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(2);
  });

  it('a store that fails is treated as empty, never breaking checks', async () => {
    const s = await server(switchable({ status: 200, body: RULES }).handler);
    const broken = {
      get: () => Promise.reject(new Error('store down')),
      set: () => Promise.reject(new Error('store down')),
      delete: () => Promise.resolve(),
    };
    const { policy } = polite({ store: broken });
    expect(await policy.check(`${s.origin}/private`)).toMatchObject({
      allowed: false,
      reason: 'disallowed',
    });
  });
});

describe('store: what another process wrote, and a store that misbehaves', () => {
  const STORE_TIMEOUT = 2_000;

  it('a policy whose own copy expired takes the fresher copy another policy wrote to the store', async () => {
    const s = await server(switchable({ status: 200, body: RULES }).handler);
    const store = createMemoryRobotsStore();
    const clock = new FakeClock();
    const { policy: a } = polite({ store, clock, robotsMaxTtl: HOUR });
    const { policy: b } = polite({ store, clock, robotsMaxTtl: HOUR });
    await a.check(`${s.origin}/`);
    expect((await b.explain(`${s.origin}/`)).robotsTxt.cache).toBe('hit');
    await clock.advance(HOUR + 1);
    await a.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(2);
    // b's copy in memory has expired too, but the store holds a's fresh one.
    const explained = await b.explain(`${s.origin}/private`);
    expect(explained).toMatchObject({ allowed: false, robotsTxt: { cache: 'hit' } });
    expect(s.hits('/robots.txt')).toHaveLength(2);
  });

  it('a store that throws, answers without a promise or rejects counts as empty', async () => {
    const s = await server(switchable({ status: 200, body: RULES }).handler);
    const stores = [
      {
        get: () => {
          throw new Error('sync failure');
        },
        set: () => {
          throw new Error('sync failure');
        },
        delete: () => {
          throw new Error('sync failure');
        },
      },
      { get: () => undefined, set: () => undefined, delete: () => undefined },
      {
        get: () => Promise.reject(new Error('down')),
        set: () => Promise.reject(new Error('down')),
        delete: () => Promise.reject(new Error('down')),
      },
    ];
    for (const store of stores) {
      const { policy } = polite({ store: store as unknown as RobotsStore });
      expect(await policy.check(`${s.origin}/private`)).toMatchObject({ reason: 'disallowed' });
      await expect(policy.forget(s.origin)).resolves.toBeUndefined();
    }
  });

  it('a store call that never settles is given up on after storeTimeout, not a moment before', async () => {
    const s = await server(switchable({ status: 200, body: RULES }).handler);
    const never = new Promise<never>(() => {});
    const clock = new FakeClock();
    const hanging = { get: () => never, set: () => never, delete: () => never };
    const { policy } = polite({ store: hanging, clock, storeTimeout: STORE_TIMEOUT });
    let decided: Decision | undefined;
    const checking = policy.check(`${s.origin}/private`).then((d) => (decided = d));
    // The lookup waits for the store...
    await clock.advance(STORE_TIMEOUT - 1);
    expect(s.hits('/robots.txt')).toHaveLength(0);
    // ...gives up on it at the limit and fetches; then the write waits as long.
    await clock.advance(1);
    await clock.until(() => s.hits('/robots.txt').length === 1, 'the robots.txt fetch');
    await clock.until(() => clock.pending > 0, 'the write');
    await clock.advance(STORE_TIMEOUT - 1);
    expect(decided).toBeUndefined();
    await clock.advance(1);
    expect(await checking).toMatchObject({ allowed: false, reason: 'disallowed' });
    const forgetting = policy.forget(s.origin);
    await clock.advance(STORE_TIMEOUT);
    await expect(forgetting).resolves.toBeUndefined();
  });

  it('entries this library would not have written for the origin count as absent', async () => {
    const s = await server(switchable({ status: 200, body: RULES }).handler);
    const clock = new FakeClock();
    const robotsUrl = `${s.origin}/robots.txt`;
    const latest = { status: 'ok', redirects: [], fetchedAt: clock.now(), httpStatus: 200 };
    const copy = (body: string) => ({
      body: Buffer.from(body).toString('base64'),
      bytes: body.length,
      truncated: false,
      httpStatus: 200,
      redirects: [],
      fetchedAt: clock.now(),
    });
    const allowAll = 'User-agent: *\nAllow: /\n';
    const forged: unknown[] = [
      // A 2xx outcome without its copy (read as "no rules" it would allow everything).
      { version: 1, robotsUrl, latest, expiresAt: clock.now() + HOUR },
      // Another origin's entry.
      {
        version: 1,
        robotsUrl: 'http://elsewhere.example/robots.txt',
        latest,
        good: copy(allowAll),
        expiresAt: clock.now() + HOUR,
      },
      // Another version, or malformed parts.
      { version: 2, robotsUrl, latest, good: copy(allowAll), expiresAt: clock.now() + HOUR },
      {
        version: 1,
        robotsUrl,
        latest: { ...latest, redirects: undefined },
        good: copy(allowAll),
        expiresAt: clock.now() + HOUR,
      },
      {
        version: 1,
        robotsUrl,
        latest,
        good: { ...copy(allowAll), body: '' },
        expiresAt: clock.now() + HOUR,
      },
      'garbage',
    ];
    for (const entry of forged) {
      const store = {
        get: () => Promise.resolve(entry),
        set: () => Promise.resolve(),
        delete: () => Promise.resolve(),
      };
      const { policy } = polite({ store: store as unknown as RobotsStore, clock });
      const fetched = s.hits('/robots.txt').length;
      expect(await policy.check(`${s.origin}/private`), JSON.stringify(entry)).toMatchObject({
        allowed: false,
        reason: 'disallowed',
      });
      expect(s.hits('/robots.txt')).toHaveLength(fetched + 1);
    }
  });

  it('a stored expiry past what the policy allows is cut to its limit from the fetch time', async () => {
    const s = await server(switchable({ status: 200, body: RULES }).handler);
    const clock = new FakeClock();
    const store = createMemoryRobotsStore();
    const { policy: writer } = polite({ store, clock });
    await writer.check(`${s.origin}/`);
    const written = (await store.get(s.origin))!;
    await store.set(s.origin, { ...written, expiresAt: clock.now() + 3_650 * DAY });
    const { policy: reader } = polite({ store, clock });
    await clock.advance(DAY - 1);
    expect((await reader.explain(`${s.origin}/`)).robotsTxt.cache).toBe('hit');
    expect(s.hits('/robots.txt')).toHaveLength(1);
    await clock.advance(1);
    const { policy: later } = polite({ store, clock });
    await later.check(`${s.origin}/`);
    expect(s.hits('/robots.txt')).toHaveLength(2);
  });
});

describe('revalidation never restores rules it no longer has', () => {
  it('a good copy judged too old a moment after it was kept sends no validators', async () => {
    let mode: 200 | 503 | 304 = 200;
    const s = await server((req, res) => {
      if (req.url !== '/robots.txt') return void res.end('page');
      if (mode === 503) return void res.writeHead(503).end();
      if (mode === 304 && req.headers['if-none-match'] === '"v1"')
        return void res.writeHead(304).end();
      res.writeHead(200, { etag: '"v1"', 'cache-control': 'no-cache' });
      res.end('User-agent: *\nDisallow: /\n');
    });
    const STALE = 100_000;
    for (let offset = 1; offset <= 6; offset += 1) {
      // A clock that moves on by 1 ms at every reading, as a busy real clock does.
      let t = Date.UTC(2025, 0, 1);
      const clock = { now: () => t++, sleep: () => new Promise<void>(() => {}) };
      const { policy } = polite({ clock, staleIfUnreachable: STALE });
      mode = 200;
      const first = await policy.explain(`${s.origin}/x`);
      t = first.robotsTxt.fetchedAt + STALE - offset;
      mode = 503;
      const unreachable = await policy.explain(`${s.origin}/x`);
      t = unreachable.robotsTxt.expiresAt + 1;
      mode = 304;
      expect(await policy.check(`${s.origin}/private/x`), `offset ${offset}`).toMatchObject({
        allowed: false,
        reason: 'disallowed',
      });
      await policy.close();
    }
  });
});

describe('close', () => {
  it('resolves only once the robots.txt lookups in flight have let go', async () => {
    const s = await server(switchable({ status: 200, body: RULES }).handler);
    let answer: ((value: undefined) => void) | undefined;
    const slow = {
      get: () => new Promise<undefined>((resolve) => (answer = resolve)),
      set: () => Promise.resolve(),
      delete: () => Promise.resolve(),
    };
    const { policy, clock } = polite({ store: slow });
    const checking = policy.check(`${s.origin}/`).catch((error: unknown) => error);
    await clock.until(() => answer !== undefined, 'the store lookup');
    let closed = false;
    const closing = policy.close().then(() => (closed = true));
    expect(await checking).toMatchObject({ code: 'ERR_ROBOTS_CLOSED' });
    for (let i = 0; i < 20; i += 1) await tick();
    expect(closed).toBe(false);
    answer!(undefined);
    await closing;
    expect(closed).toBe(true);
    expect(s.hits('/robots.txt')).toHaveLength(0);
  });
});

describe('memory bound', () => {
  it('keeps at most maxOrigins entries', async () => {
    const s = await server(switchable({ status: 200, body: RULES }).handler);
    const { policy } = polite({ maxOrigins: 2 });
    const origins = [
      `http://127.0.0.1:${s.port}`,
      `http://localhost:${s.port}`,
      `http://a.localhost:${s.port}`,
    ];
    for (const origin of origins) await policy.check(`${origin}/`);
    expect(policy.peek(`${origins[0]}/`)).toBeUndefined();
    expect(policy.peek(`${origins[2]}/private`)).toMatchObject({ allowed: false });
  });

  /** `count` origins whose robots.txt answers `status`, each on a server of its own. */
  async function origins(count: number, status: number) {
    return Promise.all(
      Array.from({ length: count }, () =>
        server(switchable(status === 200 ? { status, body: RULES } : { status }).handler),
      ),
    );
  }

  it('a check or a peek makes an origin the most recent; a refresh drops nothing', async () => {
    const [a, c] = await origins(2, 200);
    // b's copy lives a minute (the shortest), a's and c's a day.
    const b = await server(
      switchable({ status: 200, headers: { 'cache-control': 'max-age=60' }, body: RULES }).handler,
    );
    const { policy, clock } = polite({ maxOrigins: 2 });
    await policy.check(`${a!.origin}/`);
    await policy.check(`${b.origin}/`);
    await policy.check(`${a!.origin}/x`); // a is now the most recent
    await policy.check(`${c!.origin}/`);
    expect(policy.peek(`${b.origin}/`)).toBeUndefined();
    expect(policy.peek(`${a!.origin}/private`)).toMatchObject({ allowed: false });
    // A peek is a use too (Crawlee's synchronous transformRequestFunction peeks): a, peeked
    // after c was checked, stays; c goes.
    await policy.check(`${b.origin}/`);
    expect(policy.peek(`${c!.origin}/`)).toBeUndefined();
    expect(policy.peek(`${a!.origin}/private`)).toMatchObject({ allowed: false });
    // b expires and is fetched again: its entry is replaced, a's stays.
    await clock.advance(60_000);
    expect(policy.peek(`${b.origin}/`)).toBeUndefined();
    await policy.check(`${b.origin}/`);
    expect(b.hits('/robots.txt')).toHaveLength(3);
    expect(policy.peek(`${b.origin}/private`)).toMatchObject({ allowed: false });
    expect(policy.peek(`${a!.origin}/private`)).toMatchObject({ allowed: false });
  });

  it('drops other entries before an unreachable origin whose retry is not due', async () => {
    const [down] = await origins(1, 503);
    const [a, b] = await origins(2, 200);
    const { policy } = polite({ maxOrigins: 2, unreachableRetryInterval: 60_000 });
    expect(await policy.check(`${down!.origin}/`)).toMatchObject({ reason: 'unreachable' });
    await policy.check(`${a!.origin}/`);
    await policy.check(`${b!.origin}/`);
    // Cycling through more origins than the cache holds does not refetch from the failing one.
    expect(await policy.check(`${down!.origin}/again`)).toMatchObject({ reason: 'unreachable' });
    expect(down!.hits('/robots.txt')).toHaveLength(1);
    expect(policy.peek(`${a!.origin}/`)).toBeUndefined();
    expect(policy.peek(`${b!.origin}/private`)).toMatchObject({ allowed: false });
  });

  it('drops an unreachable origin first once its retry is due', async () => {
    const [down] = await origins(1, 503);
    const [a, b] = await origins(2, 200);
    const { policy, clock } = polite({ maxOrigins: 2, unreachableRetryInterval: 60_000 });
    await policy.check(`${down!.origin}/`);
    await policy.check(`${a!.origin}/`);
    await clock.advance(60_000);
    await policy.check(`${b!.origin}/`);
    expect(policy.peek(`${a!.origin}/private`)).toMatchObject({ allowed: false });
    expect(policy.peek(`${b!.origin}/private`)).toMatchObject({ allowed: false });
  });

  it('keeps the bound when every entry is an unreachable origin: the least recent goes', async () => {
    const [first, second, third] = await origins(3, 503);
    const { policy } = polite({ maxOrigins: 2, unreachableRetryInterval: 60_000 });
    for (const s of [first!, second!, third!]) await policy.check(`${s.origin}/`);
    expect(policy.peek(`${first!.origin}/`)).toBeUndefined();
    expect(policy.peek(`${second!.origin}/`)).toMatchObject({ reason: 'unreachable' });
    expect(policy.peek(`${third!.origin}/`)).toMatchObject({ reason: 'unreachable' });
    await policy.check(`${first!.origin}/`);
    expect(first!.hits('/robots.txt')).toHaveLength(2);
  });
});
