/**
 * Runs each program in examples/ the way a user would (through tsx, importing the built
 * packages) and checks what it prints, so that the examples cannot rot. The root `pnpm test`
 * builds the packages first.
 *
 * Each example is a process of its own with its own local site (port 0), and none of these
 * checks depends on timing, so this file runs beside the others. Its programs run one after
 * another: six at once (two of them Chromium) beside another file starved each other on a loaded
 * two-core machine, and their wall time is mostly process start-up and waiting, which the other
 * file's worker overlaps. The fleet's pacing example asserts arrival gaps: fleet-pacing.test.ts,
 * which runs alone.
 */
import { describe, expect, it } from 'vitest';
import { line, runExample } from './run-example.js';

// Beside another file on two cores: each gets the time of a slow machine.
describe('examples', { timeout: 60_000 }, () => {
  it('fetch-crawler: crawls with createPoliteFetch, skipping what robots.txt refuses', async () => {
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
  });

  it('interceptor: undici.request through a polite Agent, each redirect hop gated', async () => {
    const { code, stdout, stderr } = await runExample('interceptor');
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(
      line('fetched  ORIGIN/ 200 seen by ExampleBot/1\\.0 \\(\\+https://example\\.com/bot\\)'),
    );
    expect(stdout).toMatch(line('fetched  ORIGIN/article 200 \\[noindex\\]'));
    expect(stdout).toMatch(
      line('skipped  ORIGIN/private/admin — robots.txt line 2: Disallow: /private/'),
    );
    expect(stdout).toMatch(line('skipped  ORIGIN/login — robots.txt line 2: Disallow: /private/'));
  });

  it('crawlee-cheerio: skips with reason robotsTxt, refuses a redirect hop, does not handle noindex', async () => {
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
      line('failed   ORIGIN/login — redirect to ORIGIN/private/login refused by robots.txt line 2'),
    );
    expect(stdout).toMatch(
      /^done: 4 finished, 1 failed, 2 skipped \(robotsTxt .*\/private\/admin, robotsTxt .*\/private\/login\)$/m,
    );
  });

  it('crawlee-playwright: the crawler skips, the browser gate refuses subresources and redirect hops', async () => {
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
  });

  it('playwright: gates navigations, redirect hops and subresources, and reads the directives', async () => {
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
  });

  it(
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
});
