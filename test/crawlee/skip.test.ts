import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { politeCrawlee } from '@polite-crawler/crawlee';
import type { RequestSkippedEvent } from '@polite-crawler/crawlee';
import { startSite } from '../helpers/recording-server.js';
import type { Answer, RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { CheerioCrawler, HttpCrawler } from './helpers/crawlee.js';
import type { HttpCrawlerOptions } from './helpers/crawlee.js';
import { USER_AGENT, newRun } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

const page = (...links: string[]): Answer => ({
  headers: { 'content-type': 'text/html' },
  body: `<html><head><title>t</title></head><body>${links.map((href) => `<a href="${href}">${href}</a>`).join('')}</body></html>`,
});

let site: SiteServer;
let other: SiteServer;
let down: SiteServer;
let run: RunRecord;

beforeAll(async () => {
  other = await startSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: PoliteTestBot\nDisallow: /\n',
    },
  });
  down = await startSite({ '/robots.txt': { status: 503, body: 'busy' } });
  site = await startSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\nAllow: /private/open\n',
    },
    '/': page('/a', '/private/x', '/b'),
    '/a': page('/private/y', '/private/open', '/b'),
    '/b': page('/'),
    '/private/open': page(),
  });
});

afterAll(async () => {
  await Promise.all([site.close(), other.close(), down.close()]);
});

afterEach(async () => {
  await run.policy.close();
  for (const server of [site, other, down]) server.seen.length = 0;
});

describe('URLs disallowed by robots.txt are skipped, not failed (CheerioCrawler)', () => {
  it('never requests them, reports them as robotsTxt skips, and keeps them out of the statistics', async () => {
    run = newRun();
    const crawler = new CheerioCrawler(
      politeCrawlee(
        run.policy,
        {
          maxConcurrency: 2,
          requestHandler: async ({ request, enqueueLinks }) => {
            run.handled.push(new URL(request.url).pathname);
            await enqueueLinks({ strategy: 'all' });
          },
          onSkippedRequest: run.onSkippedRequest,
        },
        { config: run.config, onEvent: run.onEvent },
      ),
      run.config,
    );
    await crawler.run([
      `${site.origin}/`,
      `${site.origin}/private/start`, // robots.txt not known yet: decided when its turn comes
      `${other.origin}/page`, // another origin, whose robots.txt refuses this crawler
      `${down.origin}/page`, // robots.txt answers 503: unreachable, everything refused
    ]);

    expect(
      site.paths().filter((path) => path.startsWith('/private/') && path !== '/private/open'),
    ).toEqual([]);
    expect(other.paths()).toEqual(['/robots.txt']);
    expect(down.paths()).toEqual(['/robots.txt']);
    expect(site.hits('/robots.txt')).toHaveLength(1);
    expect(run.handled.sort()).toEqual(['/', '/a', '/b', '/private/open']);
    for (const seen of site.seen) expect(seen.headers['user-agent']).toBe(USER_AGENT);

    expect(crawler.stats.state.requestsFinished).toBe(4);
    expect(crawler.stats.state.requestsFailed).toBe(0);
    expect(crawler.stats.state.requestsRetries).toBe(0);

    const skippedUrls = run.skipped.map((entry) => entry.url).sort();
    expect(skippedUrls).toEqual(
      [
        `${down.origin}/page`,
        `${other.origin}/page`,
        `${site.origin}/private/start`,
        `${site.origin}/private/x`,
        `${site.origin}/private/y`,
      ].sort(),
    );
    expect(run.skipped.every((entry) => entry.reason === 'robotsTxt')).toBe(true);

    const skips = run.events.filter(
      (event): event is RequestSkippedEvent => event.type === 'request-skipped',
    );
    const byUrl = new Map(skips.map((event) => [event.url, event]));
    // Links found on a page of an origin whose robots.txt is cached are dropped when enqueued.
    expect(byUrl.get(`${site.origin}/private/x`)?.stage).toBe('queue');
    expect(byUrl.get(`${site.origin}/private/x`)?.decision.line).toBe(2);
    // Start URLs are decided when their turn comes (robots.txt resolved then).
    expect(byUrl.get(`${site.origin}/private/start`)?.stage).toBe('fetch');
    expect(byUrl.get(`${down.origin}/page`)?.decision.reason).toBe('unreachable');
  });
});

describe('HttpCrawler with context.addRequests', () => {
  it('skips what robots.txt refuses and fetches the rest with the policy User-Agent', async () => {
    run = newRun();
    const crawler = new HttpCrawler(
      // HttpCrawler's options type is generic: name it so that the handler is typed.
      politeCrawlee<HttpCrawlerOptions>(
        run.policy,
        {
          requestHandler: async ({ request, addRequests }) => {
            run.handled.push(new URL(request.url).pathname);
            if (request.url === `${site.origin}/`) {
              await addRequests([`${site.origin}/private/z`, `${site.origin}/b`]);
            }
          },
          onSkippedRequest: run.onSkippedRequest,
        },
        { config: run.config },
      ),
      run.config,
    );
    await crawler.run([`${site.origin}/`]);
    expect(run.handled.sort()).toEqual(['/', '/b']);
    expect(site.hits('/private/z')).toEqual([]);
    expect(run.skipped).toEqual([{ url: `${site.origin}/private/z`, reason: 'robotsTxt' }]);
    expect(crawler.stats.state.requestsFailed).toBe(0);
    expect(site.seen.every((seen) => seen.headers['user-agent'] === USER_AGENT)).toBe(true);
  });
});
