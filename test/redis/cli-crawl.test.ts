/**
 * `polite crawl --redis <url>`: the built CLI, run as a user runs it, joins a fleet on a real
 * redis-server. Two crawls of one site share its robots.txt fetch and its pacing; assertions
 * are on what the site's server recorded. The arrivals are held to `expectSpaced`, as in the
 * other fleet tests (each gap, and the span of all of them, with the allowance for the hop from a
 * granted slot to the server's stamp on a loaded machine); two crawls paced on their own would
 * arrive a few milliseconds apart. The arrival gaps are real elapsed time, so this file runs
 * alone; the option and failure cases are in cli-crawl-options.test.ts.
 */
import type { CrawlJson } from '@polite-crawler/cli';
import { describe, expect, it } from 'vitest';
import { parseJson, runCli } from '../cli/helpers/run-cli.js';
import { DELAY, fleetCrawlArgs, PAGES, startLinkedSite } from './helpers/fleet-crawl.js';
import { useRedisRig } from './helpers/redis-rig.js';
import { expectSpaced } from '../helpers/arrival-spacing.js';

const rig = useRedisRig('c');

describe('polite crawl --redis', { timeout: 90_000 }, () => {
  it('two crawls on one Redis share robots.txt and the pacing of the site', async () => {
    const site = await startLinkedSite(rig);
    const origin = site.origins[0]!;
    // One crawl waits for Redis as long as the option allows (its limit), the other the default.
    const [first, second] = await Promise.all([
      runCli(
        fleetCrawlArgs(`${origin}/`, ['--redis', rig.redis.url, '--redis-timeout', '3600000']),
      ),
      runCli(fleetCrawlArgs(`${origin}/`, ['--redis', rig.redis.url])),
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
    expectSpaced(pages, DELAY);
  });
});
