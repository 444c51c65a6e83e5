/**
 * `polite crawl --redis <url>`: the built CLI, run as a user runs it, joins a fleet on a real
 * redis-server. Two crawls of one site share its robots.txt fetch and its pacing; assertions
 * are on what the site's server recorded. Gaps get the same allowance as the other fleet tests
 * (ARRIVAL_SLACK: the hop from a granted slot to the server's stamp on a loaded machine); two
 * crawls paced on their own would arrive a few milliseconds apart.
 */
import type { CrawlJson } from '@polite-crawler/cli';
import { describe, expect, it } from 'vitest';
import { parseJson, runCli } from '../cli/helpers/run-cli.js';
import { useRedisRig } from './helpers/redis-rig.js';
import { freePort } from './helpers/redis-server.js';
import { gaps } from './helpers/site.js';
import type { Site } from './helpers/site.js';

const ARRIVAL_SLACK = 120;
const DELAY = 300;
const PAGES = ['/a', '/b', '/c', '/d'];

const rig = useRedisRig('c');

const html = (body: string): { headers: Record<string, string>; body: string } => ({
  headers: { 'content-type': 'text/html' },
  body: `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`,
});

function startSite(): Promise<Site> {
  return rig.startSite(1, (path) => {
    if (path === '/robots.txt') return { body: 'User-agent: *\nDisallow: /private/\n' };
    if (path === '/') {
      const links = [...PAGES, '/private/x'].map((p) => `<a href="${p}">${p}</a>`).join(' ');
      return { ...html(links), holdMs: 20 };
    }
    return { ...html('page'), holdMs: 20 };
  });
}

function crawl(start: string, flags: readonly string[]) {
  return runCli([
    'crawl',
    start,
    '--agent',
    'FleetBot',
    '--delay',
    String(DELAY),
    '--json',
    ...flags,
  ]);
}

describe('polite crawl --redis', { timeout: 90_000 }, () => {
  it('two crawls on one Redis share robots.txt and the pacing of the site', async () => {
    const site = await startSite();
    const origin = site.origins[0]!;
    // One crawl waits for Redis as long as the option allows (its limit), the other the default.
    const [first, second] = await Promise.all([
      crawl(`${origin}/`, ['--redis', rig.redis.url, '--redis-timeout', '3600000']),
      crawl(`${origin}/`, ['--redis', rig.redis.url]),
    ]);
    for (const result of [first, second]) {
      expect(result.code, result.stderr).toBe(0);
      const json = parseJson<CrawlJson>(result);
      expect(json.counts.fetched).toBe(1 + PAGES.length);
      expect(json.counts.denied).toBe(1);
      // The denied row quotes the line, read from the fleet's shared store.
      const denied = json.pages.find((page) => page.outcome === 'denied');
      expect(denied?.denied?.rule?.text).toBe('Disallow: /private/');
    }
    expect(site.of(origin, '/robots.txt')).toHaveLength(1);
    expect(site.of(origin, '/private/x')).toHaveLength(0);
    const pages = site.pages(origin);
    expect(pages).toHaveLength(2 * (1 + PAGES.length));
    expect(Math.max(...pages.map((p) => p.inFlight))).toBe(1);
    for (const gap of gaps(pages)) expect(gap).toBeGreaterThanOrEqual(DELAY - ARRIVAL_SLACK);
  });

  // The robots.txt claim waits on Redis's silence no longer than a page does (--redis-timeout):
  // the whole crawl ends within seconds, not after the 30 s command timeout.
  it(
    'Redis down: the start page is not sent (fails closed after --redis-timeout), exit 4',
    { timeout: 15_000 },
    async () => {
      const site = await startSite();
      const origin = site.origins[0]!;
      const down = `redis://127.0.0.1:${await freePort()}`;
      const result = await crawl(`${origin}/`, ['--redis', down, '--redis-timeout', '300']);
      expect(result.code).toBe(4);
      const json = parseJson<CrawlJson>(result);
      expect(json.pages).toHaveLength(1);
      expect(json.pages[0]).toMatchObject({ outcome: 'error' });
      expect(json.pages[0]?.error).toMatch(
        /^not sent: the fleet's Redis did not answer within \d+ ms$/,
      );
      expect(result.stderr).toContain('fleet: Redis does not answer');
      // robots.txt may be fetched (once, cached by this process); no page is.
      expect(site.pages(origin)).toHaveLength(0);
      expect(site.of(origin, '/robots.txt').length).toBeLessThanOrEqual(1);
    },
  );

  it.each([
    ['http://127.0.0.1:6379', /--redis <url>.*expected a redis:\/\/ or rediss:\/\/ URL/],
    ['redis://', /--redis <url>.*expected a redis:\/\/ or rediss:\/\/ URL/],
    ['not a url', /--redis <url>.*expected a redis:\/\/ or rediss:\/\/ URL/],
  ])('--redis %j is a usage error (exit 2), nothing is requested', async (url, message) => {
    const site = await startSite();
    const result = await crawl(`${site.origins[0]}/`, ['--redis', url]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(site.seen).toHaveLength(0);
  });

  it.each(['3600001', '99', '0', '-1', '1.5'])(
    '--redis-timeout %s is a usage error (exit 2)',
    async (value) => {
      const site = await startSite();
      const result = await crawl(`${site.origins[0]}/`, [
        '--redis',
        rig.redis.url,
        '--redis-timeout',
        value,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--redis-timeout <ms>.*from 100 to 3600000/);
      expect(site.seen).toHaveLength(0);
    },
  );
});
