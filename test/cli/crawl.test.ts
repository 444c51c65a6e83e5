/**
 * `polite crawl` of a whole site, once, and what it recorded. The spacing of its arrivals is
 * real elapsed time, so this file runs alone (ALONE in vitest.config.ts); the other crawl cases
 * are in crawl-cases.test.ts.
 */
import type { CrawlJson } from '@polite-crawler/cli';
import { CLI_DEFAULTS } from '@polite-crawler/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJson, runCli } from './helpers/run-cli.js';
import { crawlArgs, startCrawlSites } from './helpers/crawl-site.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { expectSpaced } from '../helpers/arrival-spacing.js';

/** The crawl-delay cap the crawl runs with (the site asks for 1 s), ms. */
const INTERVAL = 300;

let site: RecordingServer;
let partner: RecordingServer;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ site, partner, close } = await startCrawlSites());
});

afterAll(async () => {
  await close();
});

describe('crawl', () => {
  let json: CrawlJson;
  let code: number | null;
  let stderr: string;

  beforeAll(async () => {
    const result = await runCli(
      crawlArgs(`${site.origin}/`, ['--max-crawl-delay', String(INTERVAL), '--json']),
    );
    code = result.code;
    stderr = result.stderr;
    json = parseJson<CrawlJson>(result);
  });

  it('exits 0 with nothing on stderr', () => {
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });

  it('records every URL taken from the queue with its outcome, sorted', () => {
    const label = (url: string): string =>
      url.replace(site.origin, '').replace(partner.origin, 'B');
    const outcomes = json.pages.map((page) => [label(page.url), page.outcome]);
    expect(json.pages.map((page) => page.url)).toEqual(json.pages.map((page) => page.url).sort());
    expect(outcomes.sort()).toEqual([
      ['/', 'fetched'],
      ['/a', 'fetched'],
      ['/big-at', 'fetched'],
      ['/big-past', 'fetched'],
      ['/c', 'fetched'],
      ['/found-at', 'fetched'],
      ['/missing', 'error'],
      ['/moved', 'denied'],
      ['/nofollow-page', 'fetched'],
      ['/noindex', 'noindex'],
      ['/private/x', 'denied'],
      ['B/', 'denied'],
    ]);
    expect(json.counts).toEqual({ fetched: 8, noindex: 1, denied: 3, errors: 1, skipped: 3 });
  });

  it('never requests a disallowed, nofollow or off-limits URL', () => {
    const paths = site.paths();
    for (const path of ['/private/x', '/private/moved', '/b', '/hidden', '/found-past']) {
      expect(paths).not.toContain(path);
    }
    expect(partner.paths()).toEqual(['/robots.txt']);
    expect(paths.filter((path) => path === '/robots.txt')).toHaveLength(1);
  });

  it('says which rule denied each URL, and why the partner origin was refused', () => {
    const byPath = new Map(json.pages.map((page) => [page.url, page]));
    expect(byPath.get(`${site.origin}/private/x`)?.denied).toEqual({
      reason: 'disallowed',
      url: `${site.origin}/private/x`,
      rule: { kind: 'disallow', pattern: '/private/', line: 2, text: 'Disallow: /private/' },
      robotsTxt: `${site.origin}/robots.txt`,
      unreachable: null,
    });
    expect(byPath.get(`${site.origin}/moved`)?.denied).toMatchObject({
      reason: 'redirect-disallowed',
      url: `${site.origin}/private/moved`,
    });
    expect(byPath.get(`${partner.origin}/`)?.denied).toMatchObject({
      reason: 'unreachable',
      rule: null,
      unreachable: 'HTTP 503',
    });
    expect(byPath.get(`${site.origin}/noindex`)?.directives).toEqual([
      { name: 'noindex', source: 'header' },
    ]);
    expect(byPath.get(`${site.origin}/missing`)).toMatchObject({ status: 404, error: 'HTTP 404' });
  });

  it('lists the links it did not follow, each with its reason', () => {
    expect(json.skipped).toEqual([
      { url: `${site.origin}/b`, reason: 'nofollow-link', foundOn: `${site.origin}/` },
      {
        url: `${site.origin}/hidden`,
        reason: 'nofollow-page',
        foundOn: `${site.origin}/nofollow-page`,
      },
      { url: 'https://example.com/', reason: 'off-site', foundOn: `${site.origin}/` },
    ]);
  });

  it(`finds links within the first ${CLI_DEFAULTS.maxHtmlBytes} bytes of a page, not after`, () => {
    expect(site.paths()).toContain('/found-at');
    expect(site.paths()).not.toContain('/found-past');
  });

  it('reports each origin with its robots.txt, crawl-delay and pace', () => {
    expect(json.origins).toHaveLength(2);
    expect(json.origins.find((origin) => origin.origin === site.origin)).toMatchObject({
      crawlDelay: 1,
      intervalMs: INTERVAL,
      pages: 11,
      robotsTxt: { status: 'ok', httpStatus: 200, source: 'policy' },
    });
    expect(json.origins.find((origin) => origin.origin === partner.origin)).toMatchObject({
      crawlDelay: null,
      pages: 1,
      robotsTxt: { status: 'unreachable', httpStatus: 503, failure: 'HTTP 503' },
    });
  });

  it('paces the origin: one request at a time, spaced by the capped crawl-delay', () => {
    expect(site.maxConcurrent).toBe(1);
    const pages = site.seen.filter((seen) => seen.path !== '/robots.txt');
    expect(pages).toHaveLength(10);
    // The CLI books each start INTERVAL after the one before. Unpaced, the ten pages arrive
    // within milliseconds; paced shorter, their span falls short.
    expectSpaced(pages, INTERVAL);
  });
});
