/**
 * Pacing through the queue, browser edition: a PlaywrightCrawler's request waits for its
 * origin's slot in the request manager, and its navigation's first hop is sent by the gate's
 * route in that slot, so a `Crawl-delay` far above `navigationTimeoutSecs` causes no timeouts,
 * no retries and no failures.
 *
 * The policy's clock is fake, and the test moves it only while the crawler is idle (no task
 * running, nothing in the queue it could take): a navigation that waited for its slot inside
 * the browser would keep a task running until Crawlee's real navigation timeout fired.
 * The server records the fake time each page arrived, and the assertions are on that record.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { politeCrawlee } from '@polite-crawler/crawlee';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright/helpers/chromium.js';
import { FakeClock } from '../fetch/helpers/fake-clock.js';
import { startSite } from '../helpers/recording-server.js';
import type { Answer, RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { PlaywrightCrawler } from './helpers/crawlee.js';
import { newRun } from './helpers/polite-run.js';
import { runOnFakeClock } from './helpers/run-on-fake-clock.js';
import type { RunRecord } from './helpers/polite-run.js';

const CRAWL_DELAY_MS = 10_000;

let site: SiteServer | undefined;
let run: RunRecord | undefined;

afterEach(async () => {
  await run?.policy.close();
  await site?.close();
});

describe('a PlaywrightCrawler waits for its origin in the queue, not inside its navigation', () => {
  it('with a crawl-delay ten times the navigation timeout: no failures, no retries, the delay held', async () => {
    const clock = new FakeClock();
    const arrivals = new Map<string, number>();
    const pages = ['/p1', '/p2', '/p3', '/p4'];
    const table: Record<string, Answer | (() => Answer)> = {
      '/robots.txt': {
        headers: { 'content-type': 'text/plain' },
        body: 'User-agent: *\nCrawl-delay: 10\n',
      },
    };
    for (const path of pages) {
      table[path] = () => {
        arrivals.set(path, clock.now());
        return {
          headers: { 'content-type': 'text/html' },
          body: '<!doctype html><html><head><title>t</title></head><body>p</body></html>',
        };
      };
    }
    site = await startSite(table);
    run = newRun({ clock, concurrency: 1, minInterval: 0 });
    await run.policy.prefetch(site.origin);
    const gate = createPlaywrightGate({ policy: run.policy });
    const handled: string[] = [];
    const failed: string[] = [];
    const crawler = new PlaywrightCrawler(
      politeCrawlee(
        run.policy,
        {
          launchContext: {
            launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS },
          },
          browserPoolOptions: { useFingerprints: false },
          autoscaledPoolOptions: { maybeRunIntervalSecs: 0.01 },
          // Two tasks from the start: they pull requests of the one origin at the same time.
          minConcurrency: 2,
          maxConcurrency: 2,
          navigationTimeoutSecs: 1,
          maxRequestRetries: 1,
          requestHandler: ({ request }) => {
            handled.push(new URL(request.url).pathname);
          },
          failedRequestHandler: ({ request }) => {
            failed.push(new URL(request.url).pathname);
          },
        },
        { browser: gate },
      ),
      run.config,
    );

    await runOnFakeClock(
      crawler,
      clock,
      pages.map((path) => `${site!.origin}${path}`),
    );

    expect(handled.sort()).toEqual(pages);
    expect(failed).toEqual([]);
    const { state, errorTracker, errorTrackerRetry } = crawler.stats;
    expect(state.requestsFinished).toBe(4);
    expect(state.requestsFailed).toBe(0);
    expect(state.requestsRetries).toBe(0);
    expect(errorTracker.total).toBe(0);
    expect(errorTrackerRetry.total).toBe(0);
    // Every page once, each at least the crawl-delay after the one before.
    expect(pages.map((path) => site!.hits(path).length)).toEqual([1, 1, 1, 1]);
    const times = [...arrivals.values()].sort((a, b) => a - b);
    expect(times).toHaveLength(4);
    for (let at = 1; at < times.length; at += 1) {
      expect(times[at]! - times[at - 1]!).toBeGreaterThanOrEqual(CRAWL_DELAY_MS);
    }
  }, 120_000);
});
