/**
 * Runs each program in examples/ the way a user would (through tsx, importing the built
 * packages) and checks what it prints, so that the examples cannot rot. The root `pnpm test`
 * builds the packages first.
 *
 * Each example is a process of its own with its own local site (port 0), so the ones whose
 * output does not depend on timing run concurrently: their wall time is mostly process start-up
 * (tsx, Chromium) and waiting, which the second core can overlap. The fleet's pacing example
 * asserts arrival gaps, so it runs alone, after them.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { TestRedis } from '../redis/helpers/redis-server.js';
import { runProgram } from '../helpers/run-program.js';
import type { ProgramRun } from '../helpers/run-program.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ORIGIN = String.raw`http://127\.0\.0\.1:\d+`;

const runExample = (name: string, env: Record<string, string> = {}): Promise<ProgramRun> =>
  runProgram(`examples/${name}/main.ts`, { cwd: root, env });

/** Lines matching `pattern` (written with ORIGIN for the local site's origin). */
const line = (pattern: string): RegExp =>
  new RegExp(`^${pattern.replaceAll('ORIGIN', ORIGIN)}$`, 'm');

// Concurrent runs share two cores: each gets the time of a slow machine.
describe('examples', { timeout: 60_000 }, () => {
  it.concurrent(
    'fetch-crawler: crawls with createPoliteFetch, skipping what robots.txt refuses',
    async () => {
      const { code, stdout, stderr } = await runExample('fetch-crawler');
      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(line('fetched  ORIGIN/ 200'));
      expect(stdout).toMatch(line('fetched  ORIGIN/articles/1 200 \\[nosnippet\\]'));
      expect(stdout).toMatch(line('fetched  ORIGIN/old 200 \\(redirected to ORIGIN/articles/2\\)'));
      expect(stdout).toMatch(line('fetched  ORIGIN/drafts 200 \\[noindex, nofollow\\]'));
      expect(stdout).toMatch(
        line('skipped  ORIGIN/private/admin — robots.txt line 2: Disallow: /private/'),
      );
      expect(stdout).toMatch(
        line(
          'skipped  ORIGIN/login \\(redirect to ORIGIN/private/login\\) — robots.txt line 2: Disallow: /private/',
        ),
      );
      expect(stdout).not.toMatch(/fetched .*\/private\//);
      expect(stdout).not.toMatch(/drafts\/2/); // nofollow: its links are not followed
    },
  );

  it.concurrent(
    'interceptor: undici.request through a polite Agent, each redirect hop gated',
    async () => {
      const { code, stdout, stderr } = await runExample('interceptor');
      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(
        line('fetched  ORIGIN/ 200 seen by ExampleBot/1\\.0 \\(\\+https://example\\.com/bot\\)'),
      );
      expect(stdout).toMatch(line('fetched  ORIGIN/article 200 \\[noindex\\]'));
      expect(stdout).toMatch(
        line('skipped  ORIGIN/private/admin — robots.txt line 2: Disallow: /private/'),
      );
      expect(stdout).toMatch(
        line('skipped  ORIGIN/login — robots.txt line 2: Disallow: /private/'),
      );
    },
  );

  it.concurrent(
    'crawlee-cheerio: skips with reason robotsTxt, refuses a redirect hop, does not handle noindex',
    async () => {
      const { code, stdout, stderr } = await runExample('crawlee-cheerio');
      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(line('fetched  ORIGIN/ "Home"'));
      expect(stdout).toMatch(line('fetched  ORIGIN/articles/1 "Article 1" \\[nosnippet\\]'));
      expect(stdout).toMatch(
        line('fetched  ORIGIN/old "Article 2" \\(redirected to ORIGIN/articles/2\\)'),
      );
      expect(stdout).toMatch(
        line('skipped  ORIGIN/private/admin — robots.txt line 2: Disallow: /private/'),
      );
      expect(stdout).toMatch(line('noindex  ORIGIN/drafts — fetched, not handled'));
      expect(stdout).toMatch(
        line(
          'failed   ORIGIN/login — redirect to ORIGIN/private/login refused by robots.txt line 2',
        ),
      );
      expect(stdout).toMatch(
        /^done: 4 finished, 1 failed, 2 skipped \(robotsTxt .*\/private\/admin, robotsTxt .*\/private\/login\)$/m,
      );
    },
  );

  it.concurrent(
    'crawlee-playwright: the crawler skips, the browser gate refuses subresources and redirect hops',
    async () => {
      const { code, stdout, stderr } = await runExample('crawlee-playwright');
      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(
        line('refused  ORIGIN/private/tracker.png \\(in the browser\\) — robots.txt line 2'),
      );
      expect(stdout).toMatch(line('fetched  ORIGIN/ "Home"'));
      expect(stdout).toMatch(line('fetched  ORIGIN/articles/1 "Article 1" \\[nosnippet\\]'));
      expect(stdout).toMatch(
        line('skipped  ORIGIN/private/admin — robots.txt line 2: Disallow: /private/'),
      );
      expect(stdout).toMatch(
        line('refused  ORIGIN/login → ORIGIN/private/login — robots.txt line 2'),
      );
      expect(stdout).toMatch(line('done: 2 finished, 1 failed'));
    },
  );

  it.concurrent(
    'playwright: gates navigations, redirect hops and subresources, and reads the directives',
    async () => {
      const { code, stdout, stderr } = await runExample('playwright');
      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(
        line('refused  ORIGIN/private/tracker.png — robots.txt line 2: Disallow: /private/'),
      );
      expect(stdout).toMatch(
        line('refused  ORIGIN/private/stats.js — robots.txt line 2: Disallow: /private/'),
      );
      expect(stdout).toMatch(line('fetched  ORIGIN/logo.png 200'));
      expect(stdout).toMatch(
        line('page     ORIGIN/old → ORIGIN/article "Article" \\[noindex, nosnippet\\]'),
      );
      expect(stdout).toMatch(
        line('page     ORIGIN/login — not loaded: Redirect refused by robots.txt: .*'),
      );
      expect(stdout).toMatch(line('done'));
    },
  );

  it.concurrent(
    'fleet: without a reachable Redis nothing is sent, and it says so',
    { timeout: 60_000 },
    async () => {
      const { code, stdout } = await runExample('fleet', { REDIS_URL: 'redis://127.0.0.1:1' });
      expect(code).toBe(1);
      expect(stdout).toMatch(line('worker A fetched 0 pages'));
      expect(stdout).toMatch(line('worker B failed: /a: not sent, Redis unavailable'));
      expect(stdout).toMatch(line('Is Redis running at redis://127\\.0\\.0\\.1:1\\? .*'));
      expect(stdout).not.toMatch(/worker [AB] {2}\//);
    },
  );

  it(
    'fleet: two worker processes on one Redis share robots.txt and the pacing',
    { timeout: 60_000 },
    async () => {
      // Its own redis-server on a free port (the example reads REDIS_URL), never the system one.
      const redis = await TestRedis.start();
      try {
        const { code, stdout, stderr } = await runExample('fleet', { REDIS_URL: redis.url });
        expect(code, `${stdout}\n${stderr}`).toBe(0);
        expect(stdout).toMatch(line('worker A fetched 4 pages'));
        expect(stdout).toMatch(line('worker B fetched 4 pages'));
        expect(stdout).toMatch(line('robots\\.txt fetched 1 time\\(s\\) for 2 workers'));
        const arrivals = [...stdout.matchAll(/^\+ *(\d+) ms {2}worker ([AB]) {2}\/[a-d]$/gm)];
        expect(arrivals).toHaveLength(8);
        expect(new Set(arrivals.map((arrival) => arrival[2]))).toEqual(new Set(['A', 'B']));
        // Arrivals as the site stamped them: 250 ms apart as Redis booked them, less the hop
        // from a granted slot to the site on a loaded machine (as in test/redis).
        const times = arrivals.map((arrival) => Number(arrival[1]));
        for (let i = 1; i < times.length; i += 1) {
          expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(250 - 120);
        }
      } finally {
        await redis.stop();
      }
    },
  );
});
