/**
 * `polite crawl --redis <url>` refusing bad options and failing closed without Redis. Nothing
 * here is timed, so the CLI's run() is called in this process (cli-crawl.test.ts runs the bin
 * and times a fleet's arrivals, alone).
 */
import type { CrawlJson } from '@polite-crawler/cli';
import { describe, expect, it } from 'vitest';
import { callCli, parseJson } from '../cli/helpers/run-cli.js';
import { fleetCrawlArgs, startLinkedSite } from './helpers/fleet-crawl.js';
import { useRedisRig } from './helpers/redis-rig.js';
import { freePort } from './helpers/redis-server.js';

const rig = useRedisRig('d');

describe('polite crawl --redis', { timeout: 90_000 }, () => {
  // The robots.txt claim waits on Redis's silence no longer than a page does (--redis-timeout):
  // the whole crawl ends within seconds, not after the 30 s command timeout.
  it(
    'Redis down: the start page is not sent (fails closed after --redis-timeout), exit 4',
    { timeout: 15_000 },
    async () => {
      const site = await startLinkedSite(rig);
      const origin = site.origins[0]!;
      const down = `redis://127.0.0.1:${await freePort()}`;
      const result = await callCli(
        fleetCrawlArgs(`${origin}/`, ['--redis', down, '--redis-timeout', '300']),
      );
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
    const site = await startLinkedSite(rig);
    const result = await callCli(fleetCrawlArgs(`${site.origins[0]}/`, ['--redis', url]));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(site.seen).toHaveLength(0);
  });

  it.each(['3600001', '99', '0', '-1', '1.5'])(
    '--redis-timeout %s is a usage error (exit 2)',
    async (value) => {
      const site = await startLinkedSite(rig);
      const result = await callCli(
        fleetCrawlArgs(`${site.origins[0]}/`, ['--redis', rig.redis.url, '--redis-timeout', value]),
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--redis-timeout <ms>.*from 100 to 3600000/);
      expect(site.seen).toHaveLength(0);
    },
  );
});
