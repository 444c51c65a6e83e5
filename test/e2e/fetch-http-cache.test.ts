import { describe, expect, it } from 'vitest';
import { cacheStores, interceptors, request } from 'undici';
import * as undici7 from 'undici7';
import {
  isRobotsDeniedError,
  isRobotsInvalidOptionError,
  politeCacheGuard,
  politeInterceptor,
} from '@polite-crawler/fetch';
import { USER_AGENT, localAgent, useRigs } from '../fetch/helpers/setup.js';
import { FakeClock, until } from '../fetch/helpers/fake-clock.js';
import { caught, thrown } from '../fetch/helpers/thrown.js';
import {
  ALLOW_ALL,
  BIG_BODY,
  ETAG,
  ETAG_BODY,
  LAST_MODIFIED,
  SWR_BODY,
  startCacheSite,
} from '../helpers/cache-site.js';
import type { CacheSiteOptions } from '../helpers/cache-site.js';

const { polite, defer } = useRigs();

/** The shared cache site (closed after the test). */
async function site(options: CacheSiteOptions = {}) {
  const s = await startCacheSite(options);
  defer(() => s.close());
  return s;
}

describe('cache: undici’s HTTP cache (RFC 9111) behind the gate', () => {
  it('max-age: a fresh copy is served without a request, with the robots directives of the stored response', async () => {
    const s = await site();
    const { fetch } = polite();
    const first = await fetch(`${s.origin}/fresh`);
    expect(await first.text()).toContain('fresh page');
    const second = await fetch(`${s.origin}/fresh`);
    expect(second.status).toBe(200);
    expect(await second.text()).toContain('fresh page');
    expect(s.hits('/fresh')).toHaveLength(1);
    // The tap is outside the cache: header and meta directives of the cached copy are read.
    expect(second.robots.nosnippet).toBe(true);
    expect(second.robots.noindex).toBe(true);
  });

  it('ETag: a stale copy is revalidated with If-None-Match and a 304 yields the stored body with status 200', async () => {
    const s = await site();
    const { fetch } = polite();
    expect(await (await fetch(`${s.origin}/etag`)).text()).toBe(ETAG_BODY);
    const again = await fetch(`${s.origin}/etag`);
    expect(again.status).toBe(200);
    expect(await again.text()).toBe(ETAG_BODY);
    expect(again.robots.noindex).toBe(true);
    const pages = s.hits('/etag');
    expect(pages.map((page) => page.headers['if-none-match'])).toEqual([undefined, ETAG]);
  });

  it('Last-Modified: a stale copy is revalidated with If-Modified-Since', async () => {
    const s = await site();
    const { fetch } = polite();
    await (await fetch(`${s.origin}/dated`)).text();
    const again = await fetch(`${s.origin}/dated`);
    expect([again.status, await again.text()]).toEqual([200, 'dated']);
    expect(s.hits('/dated')[1]!.headers['if-modified-since']).toBe(LAST_MODIFIED);
  });

  it('stale-while-revalidate: the stale copy is served, and the revalidation undici’s cache would send in the background, in no pacing slot, is not sent', async () => {
    const s = await site();
    const { fetch } = polite();
    expect(await (await fetch(`${s.origin}/swr`)).text()).toBe(SWR_BODY);
    const stale = await fetch(`${s.origin}/swr`);
    expect([stale.status, await stale.text()]).toEqual([200, SWR_BODY]);
    // The next request: a background revalidation would have gone out before it.
    await (await fetch(`${s.origin}/etag`)).text();
    expect(s.hits('/swr')).toHaveLength(1);
  });

  it('a URL robots.txt now disallows is refused even though a fresh copy is cached', async () => {
    let rules = ALLOW_ALL;
    const s = await site({ robots: () => rules });
    const { fetch, clock } = polite({ robotsMaxTtl: 60_000, robotsMinTtl: 0 });
    expect(await (await fetch(`${s.origin}/fresh`)).text()).toContain('fresh page');
    rules = 'User-agent: *\nDisallow: /fresh\n';
    await clock.advance(60_001);
    const error = await caught(fetch(`${s.origin}/fresh`));
    expect(isRobotsDeniedError(error)).toBe(true);
    expect(s.hits('/fresh')).toHaveLength(1);
    expect(s.hits('/robots.txt')).toHaveLength(2);
  });

  it('cache: false sends every request', async () => {
    const s = await site();
    const { fetch } = polite({ cache: false });
    await (await fetch(`${s.origin}/fresh`)).text();
    await (await fetch(`${s.origin}/fresh`)).text();
    expect(s.hits('/fresh')).toHaveLength(2);
  });

  it('takes an undici cache store: a SqliteCacheStore serves a second polite fetch (a crawl that restarts)', async () => {
    const s = await site();
    const store = new cacheStores.SqliteCacheStore({ location: ':memory:' });
    try {
      const before = polite({ cache: store });
      expect(await (await before.fetch(`${s.origin}/fresh`)).text()).toContain('fresh page');
      const after = polite({ cache: store });
      expect(await (await after.fetch(`${s.origin}/fresh`)).text()).toContain('fresh page');
      expect(s.hits('/fresh')).toHaveLength(1);
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

describe('a cached answer is no response of the origin’s', () => {
  it('a fresh copy served during a back-off waits for its turn but does not ease the back-off', async () => {
    const s = await site();
    const clock = new FakeClock();
    const events: string[] = [];
    const { fetch, policy } = polite({
      clock,
      concurrency: 1,
      onEvent: (e) => events.push(e.type),
    });
    await policy.prefetch(s.origin);
    const untimed = { signal: new AbortController().signal };
    /** Fetches `path`, moving the clock to its start; returns how long it waited. */
    const step = async (path: string): Promise<number> => {
      let settled = false;
      const response = fetch(`${s.origin}${path}`, untimed).finally(() => {
        settled = true;
      });
      await until(() => settled || clock.pending > 0, `${path} answered or waiting`);
      const waited = settled ? 0 : clock.deadlines[0]! - clock.now();
      await clock.advance(waited);
      await (await response).text();
      return waited;
    };
    expect(await step('/fresh')).toBe(0); // stored
    expect(await step('/fail')).toBe(0); // 500: the origin backs off 2 s
    expect(await step('/fresh')).toBe(2_000); // from the store, in its turn
    // Had the copy counted as a success, the back-off would be down to 1 s.
    expect(await step('/etag')).toBe(2_000);
    expect(s.hits('/fresh')).toHaveLength(1);
    expect(events.filter((type) => type.startsWith('origin-'))).toEqual([
      'origin-backoff',
      'origin-recovered',
    ]);
  });
});

describe('identical GETs in flight at once (undici’s deduplicate)', () => {
  it('five concurrent identical GETs: one request seen, five full bodies', async () => {
    const s = await site();
    const { fetch, policy } = polite({ concurrency: 5 });
    await policy.check(`${s.origin}/big`);
    const responses = await Promise.all(Array.from({ length: 5 }, () => fetch(`${s.origin}/big`)));
    const texts = await Promise.all(responses.map((response) => response.text()));
    expect(texts.map((text) => text.length)).toEqual([300_000, 300_000, 300_000, 300_000, 300_000]);
    expect(texts.every((text) => text === BIG_BODY)).toBe(true);
    expect(s.hits('/big')).toHaveLength(1);
  });

  it('with cache: false, five concurrent identical GETs are five requests', async () => {
    const s = await site();
    const { fetch, policy } = polite({ concurrency: 5, cache: false });
    await policy.check(`${s.origin}/big`);
    const responses = await Promise.all(Array.from({ length: 5 }, () => fetch(`${s.origin}/big`)));
    await Promise.all(responses.map((response) => response.text()));
    expect(s.hits('/big')).toHaveLength(5);
  });
});

describe('the interceptor with undici’s cache composed inside it', () => {
  it('a fresh copy is served without a request; robots.txt refuses a cached URL once it disallows it', async () => {
    let rules = ALLOW_ALL;
    const s = await site({ robots: () => rules });
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
        const { body } = await request(`${s.origin}/fresh`, { dispatcher });
        expect(await body.text()).toContain('fresh page');
      }
      expect(s.hits('/fresh')).toHaveLength(1);
      rules = 'User-agent: *\nDisallow: /fresh\n';
      await clock.advance(60_001);
      const error = await caught(request(`${s.origin}/fresh`, { dispatcher }));
      expect(isRobotsDeniedError(error)).toBe(true);
      expect(s.hits('/fresh')).toHaveLength(1);
    } finally {
      await polite.close();
      await agent.close();
    }
  });

  it('with politeCacheGuard inside the cache, a stale-while-revalidate copy is served and no background revalidation goes out below the interceptor', async () => {
    const s = await site();
    const agent = localAgent();
    const polite = politeInterceptor({ userAgent: USER_AGENT, minInterval: 0, dispatcher: agent });
    const dispatcher = agent.compose(politeCacheGuard(), interceptors.cache(), polite);
    try {
      for (let i = 0; i < 2; i += 1) {
        const { statusCode, body } = await request(`${s.origin}/swr`, { dispatcher });
        expect([statusCode, await body.text()]).toEqual([200, SWR_BODY]);
      }
      // The next request: a background revalidation would have gone out before it.
      await (await request(`${s.origin}/etag`, { dispatcher })).body.text();
      expect(s.hits('/swr')).toHaveLength(1);
      expect(s.hits('/etag')).toHaveLength(1);
    } finally {
      await polite.close();
      await agent.close();
    }
  });

  it('the guard composes onto undici 7 too (its agent, its cache, its request)', async () => {
    const s = await site();
    const agent = new undici7.Agent();
    const polite = politeInterceptor({ userAgent: USER_AGENT, minInterval: 0 });
    // Typechecks against undici 7's own types: the guard's signature is generic, as the interceptor's.
    const dispatcher = agent.compose(politeCacheGuard(), undici7.interceptors.cache(), polite);
    try {
      for (let i = 0; i < 2; i += 1) {
        const { statusCode, body } = await undici7.request(`${s.origin}/swr`, { dispatcher });
        expect([statusCode, await body.text()]).toEqual([200, SWR_BODY]);
      }
      await (await undici7.request(`${s.origin}/etag`, { dispatcher })).body.text();
      expect(s.hits('/swr')).toHaveLength(1);
    } finally {
      await polite.close();
      await agent.close();
    }
  });
});
