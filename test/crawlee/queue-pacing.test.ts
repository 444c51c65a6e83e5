/**
 * Pacing through the queue: an HTTP crawler's request waits for its origin's slot in the
 * request manager, never inside Crawlee's navigation or request timeout, so politeness causes
 * no timeouts and no retries, and the crawler's concurrency goes to origins that are ready.
 *
 * The policy's clock is fake, and the test moves it only while the crawler is idle (no task
 * running, nothing in the queue it could take): a request that waited for its slot inside its
 * navigation would keep a task running, and wait until Crawlee's real timeout fired.
 * Servers record the fake time each page arrived, and the assertions are on that record.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { politeCrawlee } from '@polite-crawler/crawlee';
import type { PoliteCrawleeOptions } from '@polite-crawler/crawlee';
import { FakeClock } from '../fetch/helpers/fake-clock.js';
import { startSite } from '../helpers/recording-server.js';
import type { Answer, RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { CheerioCrawler, RequestQueue } from './helpers/crawlee.js';
import { newRun } from './helpers/polite-run.js';
import { runOnFakeClock } from './helpers/run-on-fake-clock.js';
import type { RunRecord } from './helpers/polite-run.js';
import { PoliteRequestManager } from '../../packages/crawlee/src/polite-request-manager.js';
import { takeTicket } from '../../packages/crawlee/src/origin-ticket.js';

const CRAWL_DELAY_MS = 10_000;

let sites: SiteServer[] = [];
let run: RunRecord | undefined;

afterEach(async () => {
  await run?.policy.close();
  await Promise.all(sites.map((site) => site.close()));
  sites = [];
});

/** A site whose pages record the fake time they arrived at; `robots` is its robots.txt. */
async function timedSite(
  clock: FakeClock,
  robots: string,
  pages: readonly string[],
): Promise<{ site: SiteServer; arrivals: Map<string, number> }> {
  const arrivals = new Map<string, number>();
  const page = (path: string) => (): Answer => {
    arrivals.set(path, clock.now());
    return { headers: { 'content-type': 'text/html' }, body: '<html><head></head></html>' };
  };
  const table: Record<string, Answer | (() => Answer)> = {
    '/robots.txt': { headers: { 'content-type': 'text/plain' }, body: robots },
  };
  for (const path of pages) table[path] = page(path);
  const site = await startSite(table);
  sites.push(site);
  return { site, arrivals };
}

/**
 * Runs a CheerioCrawler with the adapter to the end, moving the fake clock to the next
 * deadline whenever the crawler is idle and something waits for the clock.
 */
async function crawl(
  record: RunRecord,
  clock: FakeClock,
  urls: readonly string[],
  crawlerOptions: Record<string, unknown>,
  adapterOptions: PoliteCrawleeOptions = {},
): Promise<{ handled: string[]; stats: InstanceType<typeof CheerioCrawler>['stats'] }> {
  const handled: string[] = [];
  const crawler = new CheerioCrawler(
    politeCrawlee(
      record.policy,
      {
        ...crawlerOptions,
        autoscaledPoolOptions: { maybeRunIntervalSecs: 0.01 },
        requestHandler: ({ request }) => {
          handled.push(request.url);
        },
        failedRequestHandler: () => undefined,
      },
      adapterOptions,
    ),
    record.config,
  );
  await runOnFakeClock(crawler, clock, urls);
  return { handled, stats: crawler.stats };
}

/** Gaps between consecutive arrivals, in order. */
function gaps(arrivals: Map<string, number>): number[] {
  const times = [...arrivals.values()].sort((a, b) => a - b);
  return times.slice(1).map((time, at) => time - times[at]!);
}

describe('an HTTP crawler waits for its origin in the queue, not inside its timeouts', () => {
  it('with a crawl-delay ten times the navigation timeout: no timeouts, no retries, the delay held', async () => {
    const clock = new FakeClock();
    const pages = ['/p1', '/p2', '/p3', '/p4'];
    const { site, arrivals } = await timedSite(clock, 'User-agent: *\nCrawl-delay: 10\n', pages);
    run = newRun({ clock, concurrency: 1, minInterval: 0 });
    await run.policy.prefetch(site.origin);
    const { handled, stats } = await crawl(
      run,
      clock,
      pages.map((path) => `${site.origin}${path}`),
      // Four tasks from the start: they pull requests of the one origin at the same time.
      { navigationTimeoutSecs: 1, maxRequestRetries: 1, minConcurrency: 4, maxConcurrency: 4 },
    );

    expect(handled.sort()).toEqual(pages.map((path) => `${site.origin}${path}`).sort());
    expect(stats.state.requestsFinished).toBe(4);
    expect(stats.state.requestsFailed).toBe(0);
    expect(stats.state.requestsRetries).toBe(0);
    expect(stats.errorTracker.total).toBe(0);
    expect(stats.errorTrackerRetry.total).toBe(0);
    // Every page once, each at least the crawl-delay after the one before.
    expect(pages.map((path) => site.hits(path).length)).toEqual([1, 1, 1, 1]);
    expect(gaps(arrivals)).toHaveLength(3);
    for (const gap of gaps(arrivals)) expect(gap).toBeGreaterThanOrEqual(CRAWL_DELAY_MS);
  });

  it("gives the crawler's concurrency to origins that are ready: a slow origin does not hold up a fast one", async () => {
    const clock = new FakeClock();
    const start = clock.now();
    const slow = await timedSite(clock, 'User-agent: *\nCrawl-delay: 10\n', ['/s1', '/s2', '/s3']);
    const fast = await timedSite(clock, '', ['/f1', '/f2', '/f3']);
    run = newRun({ clock, concurrency: 1, minInterval: 0 });
    await run.policy.prefetch([slow.site.origin, fast.site.origin]);
    const urls = ['1', '2', '3'].flatMap((n) => [
      `${slow.site.origin}/s${n}`,
      `${fast.site.origin}/f${n}`,
    ]);
    // One task at a time: a slow request waiting inside its navigation would hold it.
    const { handled, stats } = await crawl(run, clock, urls, {
      navigationTimeoutSecs: 1,
      maxRequestRetries: 1,
      maxConcurrency: 1,
    });

    expect(handled).toHaveLength(6);
    expect(stats.state.requestsRetries).toBe(0);
    // The fast origin's pages all went out before the clock ever moved.
    expect([...fast.arrivals.values()]).toEqual([start, start, start]);
    for (const gap of gaps(slow.arrivals)) expect(gap).toBeGreaterThanOrEqual(CRAWL_DELAY_MS);
  });
});

describe('maxWaitingRequests bounds the requests held back', () => {
  /** A manager over a real in-memory queue, paced by `run`'s policy (as politeCrawlee builds it). */
  async function manager(record: RunRecord, maxWaitingRequests: number, urls: string[]) {
    const queue = await RequestQueue.open(null, { config: record.config });
    await queue.addRequests(urls.map((url) => ({ url })));
    const lent: object[] = [];
    const paced = new PoliteRequestManager(
      () => Promise.resolve(queue),
      {
        decide: (url) => record.policy.check(url),
        peek: (url) => record.policy.peek(url),
        skipped: () => Promise.resolve(),
      },
      {
        ticket: (url) => takeTicket(record.policy, url),
        lend: (request) => {
          lent.push(request);
        },
        settle: () => undefined,
        offer: () => false,
        maxWaitingRequests,
      },
    );
    return { paced, lent, queue };
  }

  it.each([
    { limit: 3, next: '/w4' },
    { limit: 4, next: undefined },
  ])(
    'holds at most $limit requests of a busy origin and takes no more from the queue',
    async ({ limit, next }) => {
      const urls = 5;
      const clock = new FakeClock();
      const paths = Array.from({ length: urls }, (_, at) => `/w${at}`);
      const { site } = await timedSite(clock, 'User-agent: *\nCrawl-delay: 10\n', paths);
      run = newRun({ clock, concurrency: 1, minInterval: 0 });
      const { paced, queue } = await manager(
        run,
        limit,
        paths.map((path) => `${site.origin}${path}`),
      );
      // The first request gets the origin's slot at once.
      expect((await paced.fetchNextRequest())?.url).toBe(`${site.origin}/w0`);
      // The others wait for it (the slot is held until the first is sent), up to the limit.
      expect(await paced.fetchNextRequest()).toBeNull();
      expect(paced.waitingCount).toBe(limit);
      expect(await paced.isEmpty()).toBe(true);
      // What is past the limit is still in the queue, not taken.
      const left = await queue.fetchNextRequest();
      expect(left?.url).toBe(next === undefined ? undefined : `${site.origin}${next}`);
    },
  );

  it('gives a request held for half of its lock back to the queue, so that the lock never runs out', async () => {
    const clock = new FakeClock();
    const paths = ['/g0', '/g1', '/g2'];
    const { site } = await timedSite(clock, 'User-agent: *\nCrawl-delay: 10\n', paths);
    run = newRun({ clock, concurrency: 1, minInterval: 0 });
    const { paced, queue } = await manager(
      run,
      10,
      paths.map((path) => `${site.origin}${path}`),
    );
    paced.requestLockSecs = 60; // as Crawlee sets it (at least 60 s)
    expect((await paced.fetchNextRequest())?.url).toBe(`${site.origin}/g0`);
    expect(await paced.fetchNextRequest()).toBeNull();
    expect(paced.waitingCount).toBe(2);
    // Only the wall clock the queue's locks are kept by is faked here.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 29_000);
      await paced.isEmpty();
      expect(paced.waitingCount).toBe(2); // not yet: under half of the lock
      vi.setSystemTime(Date.now() + 2_000);
      await paced.isEmpty();
      expect(paced.waitingCount).toBe(0);
      // Back in the queue, to be pulled again later.
      expect((await queue.fetchNextRequest())?.url).toBe(`${site.origin}/g1`);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is validated: 1 to 100000', () => {
    run = newRun();
    const optionError = (value: number): unknown => {
      try {
        politeCrawlee<object>(run!.policy, {}, { maxWaitingRequests: value });
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(optionError(1)).toBeUndefined();
    expect(optionError(100_000)).toBeUndefined();
    expect(optionError(0)).toMatchObject({
      code: 'ERR_ROBOTS_INVALID_OPTION',
      option: 'maxWaitingRequests',
    });
    expect(optionError(100_001)).toMatchObject({ option: 'maxWaitingRequests' });
  });
});
