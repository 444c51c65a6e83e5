/**
 * HTTP caching (RFC 9111) and one request for identical GETs in flight, through the Crawlee
 * adapter with `cache` on: its HTTP client sends through the policy's transport (undici's cache
 * and deduplicate). Real Crawlee (CheerioCrawler, and the client Crawlee calls), real loopback
 * server (the shared cache site); the server's record is what the site owner saw.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { politeCrawlee, robotsOf } from '@polite-crawler/crawlee';
import type { PageRobots } from '@polite-crawler/crawlee';
import { isRobotsDeniedError, isRobotsInvalidOptionError } from '@polite-crawler/fetch';
import { GotScrapingHttpClient } from '@crawlee/core';
import { FakeClock } from '../fetch/helpers/fake-clock.js';
import { caught, thrown } from '../fetch/helpers/thrown.js';
import {
  ALLOW_ALL,
  BIG_BODY,
  ETAG,
  ETAG_BODY,
  SWR_BODY,
  startCacheSite,
} from '../helpers/cache-site.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { CheerioCrawler } from './helpers/crawlee.js';
import { newRun, politeHttpClient } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

let site: RecordingServer | undefined;
let run: RunRecord | undefined;

afterEach(async () => {
  await run?.policy.close();
  await site?.close();
  site = undefined;
  run = undefined;
});

describe('cache through the Crawlee adapter', () => {
  it('max-age: a CheerioCrawler run fetches a fresh page once; both requests get its directives', async () => {
    site = await startCacheSite();
    run = newRun();
    const seen: PageRobots[] = [];
    const crawler = new CheerioCrawler(
      politeCrawlee(
        run.policy,
        {
          requestHandler: (context) => {
            seen.push(robotsOf(context)!);
            expect(context.$('body').text()).toBe('fresh page');
          },
        },
        { config: run.config, cache: true },
      ),
      run.config,
    );
    const url = `${site.origin}/fresh`;
    // Two crawler requests for one URL (Crawlee would otherwise drop the second as a duplicate).
    await crawler.run([
      { url, uniqueKey: 'first' },
      { url, uniqueKey: 'second' },
    ]);
    expect(seen).toHaveLength(2);
    expect(site.hits('/fresh')).toHaveLength(1);
    for (const robots of seen) {
      expect(robots.directives.nosnippet).toBe(true); // the header of the stored response
      expect(robots.directives.noindex).toBe(true); // its <head> meta
    }
  });

  it('ETag: a stale copy is revalidated with If-None-Match; the 304 gives status 200 and the stored body', async () => {
    site = await startCacheSite();
    run = newRun();
    const client = politeHttpClient(run, { cache: true });
    const first = await client.sendRequest({ url: `${site.origin}/etag`, method: 'GET' });
    const second = await client.sendRequest({ url: `${site.origin}/etag`, method: 'GET' });
    expect([first.statusCode, first.body]).toEqual([200, ETAG_BODY]);
    expect([second.statusCode, second.body]).toEqual([200, ETAG_BODY]);
    const hits = site.hits('/etag');
    expect(hits.map((hit) => hit.headers['if-none-match'])).toEqual([undefined, ETAG]);
  });

  it('stale-while-revalidate: the stale copy is served; the background revalidation, in no pacing slot, is not sent', async () => {
    site = await startCacheSite();
    run = newRun();
    const client = politeHttpClient(run, { cache: true });
    const url = `${site.origin}/swr`;
    expect((await client.sendRequest({ url, method: 'GET' })).body).toBe(SWR_BODY);
    const stale = await client.sendRequest({ url, method: 'GET' });
    expect([stale.statusCode, stale.body]).toEqual([200, SWR_BODY]);
    // The next request: a background revalidation would have gone out before it.
    await client.sendRequest({ url: `${site.origin}/etag`, method: 'GET' });
    expect(site.hits('/swr')).toHaveLength(1);
  });

  it('five concurrent identical GETs are sent once; each caller gets the whole body', async () => {
    site = await startCacheSite();
    run = newRun({ concurrency: 5 });
    await run.policy.prefetch(site.origin);
    const client = politeHttpClient(run, { cache: true });
    const responses = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.sendRequest({ url: `${site!.origin}/big`, method: 'GET' }),
      ),
    );
    expect(responses.map((response) => response.body.length)).toEqual(Array(5).fill(300_000));
    expect(responses.every((response) => response.body === BIG_BODY)).toBe(true);
    expect(site.hits('/big')).toHaveLength(1);
  });

  it('the streaming path Crawlee crawls with reads a cached copy too', async () => {
    site = await startCacheSite();
    run = newRun();
    const client = politeHttpClient(run, { cache: true });
    for (let i = 0; i < 2; i += 1) {
      const response = await client.stream({ url: `${site.origin}/fresh`, method: 'GET' });
      const chunks: Buffer[] = [];
      for await (const chunk of response.stream) chunks.push(chunk as Buffer);
      expect(response.statusCode).toBe(200);
      expect(Buffer.concat(chunks).toString()).toContain('fresh page');
      expect(response.downloadProgress.percent).toBe(1);
    }
    expect(site.hits('/fresh')).toHaveLength(1);
  });

  it('a URL robots.txt now disallows is refused even though a fresh copy is cached', async () => {
    let robots = ALLOW_ALL;
    site = await startCacheSite({ robots: () => robots });
    const clock = new FakeClock();
    run = newRun({ clock, robotsMaxTtl: 60_000, robotsMinTtl: 0 });
    const client = politeHttpClient(run, { cache: true });
    expect(
      (await client.sendRequest({ url: `${site.origin}/fresh`, method: 'GET' })).body,
    ).toContain('fresh page');
    robots = 'User-agent: *\nDisallow: /fresh\n';
    await clock.advance(60_001);
    const error = await caught(client.sendRequest({ url: `${site.origin}/fresh`, method: 'GET' }));
    expect(isRobotsDeniedError(error)).toBe(true);
    expect(site.hits('/fresh')).toHaveLength(1);
    expect(site.hits('/robots.txt')).toHaveLength(2);
  });

  it('a fresh copy served during a back-off waits for its turn but does not ease the back-off', async () => {
    site = await startCacheSite();
    const clock = new FakeClock();
    run = newRun({ clock, concurrency: 1 });
    await run.policy.prefetch(site.origin);
    const client = politeHttpClient(run, { cache: true });
    const step = (path: string): Promise<number> =>
      clock.waitedFor(() => client.sendRequest({ url: `${site!.origin}${path}`, method: 'GET' }));
    expect(await step('/fresh')).toBe(0); // stored
    expect(await step('/fail')).toBe(0); // 500: the origin backs off 2 s
    expect(await step('/fresh')).toBe(2_000); // from the store, in its turn
    // Had the copy counted as a success, the back-off would be down to 1 s.
    expect(await step('/etag')).toBe(2_000);
    expect(site.hits('/fresh')).toHaveLength(1);
  });

  it('off by default: got-scraping sends every request', async () => {
    site = await startCacheSite();
    run = newRun();
    const client = politeHttpClient(run);
    await client.sendRequest({ url: `${site.origin}/fresh`, method: 'GET' });
    await client.sendRequest({ url: `${site.origin}/fresh`, method: 'GET' });
    expect(site.hits('/fresh')).toHaveLength(2);
  });

  it('refuses cache beside httpClient or proxyConfiguration, and a cache that is not one, naming `cache`', () => {
    run = newRun();
    const policy = run.policy;
    for (const crawlerOptions of [
      { httpClient: new GotScrapingHttpClient() },
      { proxyConfiguration: {} },
    ]) {
      const error = thrown(() => politeCrawlee<object>(policy, crawlerOptions, { cache: true }));
      expect(isRobotsInvalidOptionError(error)).toBe(true);
      expect((error as { option: string }).option).toBe('cache');
    }
    const error = thrown(() => politeCrawlee<object>(policy, {}, { cache: 'yes' as never }));
    expect((error as { option: string }).option).toBe('cache');
  });
});
