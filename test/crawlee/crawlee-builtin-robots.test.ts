/**
 * The README compares the adapter with Crawlee's own `respectRobotsTxtFile`. These tests pin
 * the Crawlee 3.18 behaviour it describes, so that the comparison fails loudly when Crawlee
 * changes: they run Crawlee's option, not the adapter.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSite } from '../helpers/recording-server.js';
import type { Answer, RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { CheerioCrawler } from './helpers/crawlee.js';
import { newRun } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

const page: Answer = {
  headers: { 'content-type': 'text/html' },
  body: '<html><body>p</body></html>',
};
const TOKEN = 'PoliteTestBot';

let redirecting: SiteServer;
let unavailable: SiteServer;
let resetting: SiteServer;
let slow: SiteServer;
let run: RunRecord;

beforeAll(async () => {
  unavailable = await startSite({
    '/robots.txt': {
      status: 503,
      headers: { 'content-type': 'text/html' },
      body: '<h1>Service unavailable</h1>',
    },
    '/a': page,
    '/b': page,
  });
  redirecting = await startSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    },
    '/go': { status: 302, headers: { location: '/private/page' } },
    '/private/page': page,
  });
  resetting = await startSite({
    '/robots.txt': { reset: true },
    '/a': page,
    '/b': page,
    '/c': page,
  });
  slow = await startSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nCrawl-delay: 3600\n',
    },
    '/a': page,
    '/b': page,
  });
});

afterAll(async () => {
  await Promise.all([redirecting.close(), unavailable.close(), resetting.close(), slow.close()]);
});

afterEach(async () => {
  await run.policy.close();
});

async function crawlWithCrawleeRobots(urls: string[]): Promise<void> {
  run = newRun();
  const crawler = new CheerioCrawler(
    {
      respectRobotsTxtFile: { userAgent: TOKEN },
      maxRequestRetries: 0,
      requestHandler: () => undefined,
    },
    run.config,
  );
  await crawler.run(urls);
}

describe("Crawlee 3.18's own respectRobotsTxtFile (what the adapter replaces)", () => {
  it('fails open on a 5xx robots.txt (its error page is parsed as rules), keeps that, and fetches it with a browser User-Agent', async () => {
    await crawlWithCrawleeRobots([`${unavailable.origin}/a`, `${unavailable.origin}/b`]);
    // RFC 9309 §2.3.1.4: 5xx means "assume complete disallow". Crawlee fetched the pages anyway.
    expect(unavailable.hits('/a')).toHaveLength(1);
    expect(unavailable.hits('/b')).toHaveLength(1);
    // The 503 answer is kept as the origin's robots.txt (in an LRU with no expiry): fetched once.
    expect(unavailable.hits('/robots.txt')).toHaveLength(1);
    const robotsRequest = unavailable.hits('/robots.txt')[0];
    expect(robotsRequest?.headers['user-agent']).toMatch(/^Mozilla\/5\.0/);
    expect(robotsRequest?.headers['user-agent']).not.toContain(TOKEN);
  });

  it('does not remember a failed robots.txt fetch: it tries again for every URL, and allows them all', async () => {
    await crawlWithCrawleeRobots(['/a', '/b', '/c'].map((path) => `${resetting.origin}${path}`));
    expect(['/a', '/b', '/c'].every((path) => resetting.hits(path).length === 1)).toBe(true);
    expect(resetting.hits('/robots.txt').length).toBeGreaterThanOrEqual(3);
  });

  it('checks only the request URL: a redirect into a disallowed path is followed', async () => {
    await crawlWithCrawleeRobots([
      `${redirecting.origin}/go`,
      `${redirecting.origin}/private/direct`,
    ]);
    expect(redirecting.hits('/private/direct')).toEqual([]); // the URL itself is checked
    expect(redirecting.hits('/private/page')).toHaveLength(1); // its redirect target is not
  });

  it('ignores crawl-delay (a delay of an hour would time this test out)', async () => {
    await crawlWithCrawleeRobots([`${slow.origin}/a`, `${slow.origin}/b`]);
    expect(slow.hits('/a')).toHaveLength(1);
    expect(slow.hits('/b')).toHaveLength(1);
  });
});
