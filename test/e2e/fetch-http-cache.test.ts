import { describe, expect, it } from 'vitest';
import { cacheStores, interceptors, request } from 'undici';
import {
  isRobotsDeniedError,
  isRobotsInvalidOptionError,
  politeInterceptor,
} from '@polite-crawler/fetch';
import { USER_AGENT, localAgent, useRigs } from '../fetch/helpers/setup.js';
import { FakeClock } from '../fetch/helpers/fake-clock.js';
import { caught, thrown } from '../fetch/helpers/thrown.js';

const { server, polite } = useRigs();

const pageHits = (seen: readonly { path: string }[]): number =>
  seen.filter((request) => request.path !== '/robots.txt').length;

describe('cache: undici’s HTTP cache (RFC 9111) behind the gate', () => {
  it('max-age: a fresh copy is served without a request, with the robots directives of the stored response', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      else
        res
          .writeHead(200, {
            'content-type': 'text/html',
            'cache-control': 'max-age=3600',
            'x-robots-tag': 'nosnippet',
          })
          .end('<html><head><meta name="robots" content="noindex"></head><body>page</body></html>');
    });
    const { fetch } = polite();
    const first = await fetch(`${s.origin}/page`);
    expect(await first.text()).toContain('page');
    const second = await fetch(`${s.origin}/page`);
    expect(second.status).toBe(200);
    expect(await second.text()).toContain('page');
    expect(pageHits(s.seen)).toBe(1);
    // The tap is outside the cache: header and meta directives of the cached copy are read.
    expect(second.robots.nosnippet).toBe(true);
    expect(second.robots.noindex).toBe(true);
  });

  it('ETag: a stale copy is revalidated with If-None-Match and a 304 yields the stored body with status 200', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      else if (req.headers['if-none-match'] === '"v1"')
        res.writeHead(304, { etag: '"v1"', 'cache-control': 'no-cache' }).end();
      else
        res
          .writeHead(200, {
            etag: '"v1"',
            'cache-control': 'no-cache',
            'content-type': 'text/plain',
            'x-robots-tag': 'noindex',
          })
          .end('version one');
    });
    const { fetch } = polite();
    expect(await (await fetch(`${s.origin}/doc`)).text()).toBe('version one');
    const again = await fetch(`${s.origin}/doc`);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe('version one');
    expect(again.robots.noindex).toBe(true);
    const pages = s.seen.filter((request) => request.path === '/doc');
    expect(pages).toHaveLength(2);
    expect(pages[0]!.headers['if-none-match']).toBeUndefined();
    expect(pages[1]!.headers['if-none-match']).toBe('"v1"');
  });

  it('Last-Modified: a stale copy is revalidated with If-Modified-Since', async () => {
    const modified = 'Mon, 02 Nov 2026 10:00:00 GMT';
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      else if (req.headers['if-modified-since'] === modified) res.writeHead(304).end();
      else
        res.writeHead(200, { 'last-modified': modified, 'cache-control': 'no-cache' }).end('dated');
    });
    const { fetch } = polite();
    await (await fetch(`${s.origin}/dated`)).text();
    const again = await fetch(`${s.origin}/dated`);
    expect([again.status, await again.text()]).toEqual([200, 'dated']);
    expect(
      s.seen.filter((request) => request.path === '/dated')[1]!.headers['if-modified-since'],
    ).toBe(modified);
  });

  it('a URL robots.txt now disallows is refused even though a fresh copy is cached', async () => {
    let rules = 'User-agent: *\nAllow: /\n';
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end(rules);
      else res.writeHead(200, { 'cache-control': 'max-age=86400' }).end('cached page');
    });
    const { fetch, clock } = polite({ robotsMaxTtl: 60_000, robotsMinTtl: 0 });
    expect(await (await fetch(`${s.origin}/page`)).text()).toBe('cached page');
    rules = 'User-agent: *\nDisallow: /page\n';
    await clock.advance(60_001);
    const error = await caught(fetch(`${s.origin}/page`));
    expect(isRobotsDeniedError(error)).toBe(true);
    expect(s.hits('/page')).toHaveLength(1);
    expect(s.hits('/robots.txt')).toHaveLength(2);
  });

  it('cache: false sends every request', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      else res.writeHead(200, { 'cache-control': 'max-age=3600' }).end('page');
    });
    const { fetch } = polite({ cache: false });
    await (await fetch(`${s.origin}/page`)).text();
    await (await fetch(`${s.origin}/page`)).text();
    expect(s.hits('/page')).toHaveLength(2);
  });

  it('takes an undici cache store: a SqliteCacheStore serves a second polite fetch (a crawl that restarts)', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      else res.writeHead(200, { 'cache-control': 'max-age=3600' }).end('persisted');
    });
    const store = new cacheStores.SqliteCacheStore({ location: ':memory:' });
    try {
      const before = polite({ cache: store });
      expect(await (await before.fetch(`${s.origin}/page`)).text()).toBe('persisted');
      const after = polite({ cache: store });
      expect(await (await after.fetch(`${s.origin}/page`)).text()).toBe('persisted');
      expect(s.hits('/page')).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it('refuses a cache option that is not true, false or a store, naming `cache`', () => {
    for (const bad of ['yes', 1, {}, null]) {
      const error = thrown(() => polite({ cache: bad as never }));
      expect(isRobotsInvalidOptionError(error)).toBe(true);
      expect((error as { option: string }).option).toBe('cache');
    }
  });
});

describe('identical GETs in flight at once (undici’s deduplicate)', () => {
  it('five concurrent identical GETs: one request seen, five full bodies', async () => {
    const body = 'x'.repeat(300_000);
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      // Not storable: only the deduplication can spare the four others.
      else res.writeHead(200, { 'cache-control': 'no-store' }).end(body);
    });
    const { fetch, policy } = polite({ concurrency: 5 });
    await policy.check(`${s.origin}/big`);
    const responses = await Promise.all(Array.from({ length: 5 }, () => fetch(`${s.origin}/big`)));
    const texts = await Promise.all(responses.map((response) => response.text()));
    expect(texts.map((text) => text.length)).toEqual([300_000, 300_000, 300_000, 300_000, 300_000]);
    expect(texts.every((text) => text === body)).toBe(true);
    expect(s.hits('/big')).toHaveLength(1);
  });

  it('with cache: false, five concurrent identical GETs are five requests', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('User-agent: *\nAllow: /\n');
      else res.writeHead(200, { 'cache-control': 'no-store' }).end('page');
    });
    const { fetch, policy } = polite({ concurrency: 5, cache: false });
    await policy.check(`${s.origin}/page`);
    const responses = await Promise.all(Array.from({ length: 5 }, () => fetch(`${s.origin}/page`)));
    await Promise.all(responses.map((response) => response.text()));
    expect(s.hits('/page')).toHaveLength(5);
  });
});

describe('the interceptor with undici’s cache composed inside it', () => {
  it('a fresh copy is served without a request; robots.txt refuses a cached URL once it disallows it', async () => {
    let rules = 'User-agent: *\nAllow: /\n';
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end(rules);
      else res.writeHead(200, { 'cache-control': 'max-age=3600' }).end('page');
    });
    const clock = new FakeClock();
    const agent = localAgent();
    const polite = politeInterceptor({
      userAgent: USER_AGENT,
      minInterval: 0,
      dispatcher: agent,
      clock,
      robotsMaxTtl: 60_000,
      robotsMinTtl: 0,
    });
    // `polite` last: outermost, so the gate runs before the cache.
    const dispatcher = agent.compose(interceptors.cache(), polite);
    try {
      for (let i = 0; i < 2; i += 1) {
        const { body } = await request(`${s.origin}/page`, { dispatcher });
        expect(await body.text()).toBe('page');
      }
      expect(s.hits('/page')).toHaveLength(1);
      rules = 'User-agent: *\nDisallow: /page\n';
      await clock.advance(60_001);
      const error = await caught(request(`${s.origin}/page`, { dispatcher }));
      expect(isRobotsDeniedError(error)).toBe(true);
      expect(s.hits('/page')).toHaveLength(1);
    } finally {
      await polite.close();
      await agent.close();
    }
  });
});
