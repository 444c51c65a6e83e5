import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isRobotsInvalidOptionError } from '@polite-crawler/fetch';
import { systemClock } from '@polite-crawler/fetch/internal';
import { politeCrawlee, robotsOf } from '@polite-crawler/crawlee';
import type { BrowserGate, PoliteCrawleeOptions } from '@polite-crawler/crawlee';
import { startSite } from '../helpers/recording-server.js';
import type { Answer, RecordingServer as SiteServer, Route } from '../helpers/recording-server.js';
import { WaitingPacer } from '../helpers/waiting-pacer.js';
import {
  CheerioCrawler,
  RequestList,
  RequestQueue,
  createCheerioRouter,
} from './helpers/crawlee.js';
import { newRun } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

const html = (text: string): Answer => ({
  headers: { 'content-type': 'text/html' },
  body: `<html><body>${text}</body></html>`,
});

let site: SiteServer;
let run: RunRecord;
let flakyCalls = 0;
/** The adapter's policy paces on this (the in-memory pacer as shipped, its waits counted). */
const pacer = new WaitingPacer(systemClock);

/**
 * Routes for `paths`, each answer held until another request of the batch arrives (an overlap,
 * on the server's record), or one waits at the pacer for the slot this one holds (the crawler
 * sent it, the policy held it back: it cannot arrive now), or the whole batch has arrived. The
 * adapter keeps the rest of the batch in its queue behind the one waiting at the pacer, so the
 * pacer sees one waiter, not all of them. No timer decides anything.
 */
function heldInTurn(paths: readonly string[], withPacer?: WaitingPacer): Record<string, Route> {
  let arrived = 0;
  const held = new Set<() => void>();
  const releaseAll = (): void => {
    for (const release of [...held]) release();
  };
  const releaseIfQueued = (): void => {
    if ((withPacer?.waiting ?? 0) > 0 || arrived === paths.length) releaseAll();
  };
  withPacer?.onChange(releaseIfQueued);
  const route = (): Answer => {
    arrived += 1;
    releaseAll();
    return {
      ...html('slow'),
      hold: new Promise<void>((resolve) => {
        const release = (): void => {
          held.delete(release);
          resolve();
        };
        held.add(release);
        releaseIfQueued();
      }),
    };
  };
  return Object.fromEntries(paths.map((path) => [path, route]));
}

beforeAll(async () => {
  site = await startSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    },
    '/a': html('a'),
    '/b': html('b'),
    '/flaky': () => {
      flakyCalls += 1;
      return flakyCalls === 1 ? { status: 500, body: 'oops' } : html('ok now');
    },
    ...heldInTurn(['/s1', '/s2', '/s3', '/s4'], pacer),
    ...heldInTurn(['/p1', '/p2', '/p3', '/p4']),
  });
});

afterAll(async () => {
  await site.close();
  await pacer.close(new Error('the tests are over'));
});

afterEach(async () => {
  await run.policy.close();
  site.seen.length = 0;
});

describe('the adapter composes with what the crawler options already have', () => {
  it('runs the user hooks, error handler and router after its own part', async () => {
    run = newRun();
    const hookSaw: string[] = [];
    const errors: string[] = [];
    const router = createCheerioRouter();
    router.addDefaultHandler(async (context) => {
      run.handled.push(new URL(context.request.url).pathname);
      expect(robotsOf(context)).toBeDefined();
      await Promise.resolve();
    });
    const crawler = new CheerioCrawler(
      politeCrawlee(
        run.policy,
        {
          requestHandler: router,
          preNavigationHooks: [
            ({ request }) => {
              hookSaw.push(new URL(request.url).pathname);
            },
          ],
          errorHandler: ({ request }, error) => {
            errors.push(`${new URL(request.url).pathname}: ${error.message.slice(0, 3)}`);
          },
          onSkippedRequest: run.onSkippedRequest,
        },
        { config: run.config },
      ),
      run.config,
    );
    await crawler.run([`${site.origin}/a`, `${site.origin}/flaky`, `${site.origin}/private/p`]);
    expect(run.handled.sort()).toEqual(['/a', '/flaky']);
    expect(hookSaw.sort()).toEqual(['/a', '/flaky', '/flaky']);
    expect(errors).toEqual(['/flaky: 500']); // an ordinary error is retried as usual
    expect(crawler.stats.state.requestsRetries).toBe(1);
    expect(run.skipped).toEqual([{ url: `${site.origin}/private/p`, reason: 'robotsTxt' }]);
  });

  it('gates a request list and a named request queue the user passes', async () => {
    run = newRun();
    const requestList = await RequestList.open(null, [
      `${site.origin}/a`,
      `${site.origin}/private/listed`,
    ]);
    const requestQueue = await RequestQueue.open('named', { config: run.config });
    await requestQueue.addRequest({ url: `${site.origin}/private/queued` });
    await requestQueue.addRequest({ url: `${site.origin}/b` });
    const crawler = new CheerioCrawler(
      politeCrawlee(
        run.policy,
        {
          requestList,
          requestQueue,
          requestHandler: ({ request }) => {
            run.handled.push(new URL(request.url).pathname);
          },
          onSkippedRequest: run.onSkippedRequest,
        },
        { config: run.config },
      ),
      run.config,
    );
    await crawler.run();
    expect(run.handled.sort()).toEqual(['/a', '/b']);
    expect(site.paths().filter((path) => path.startsWith('/private/'))).toEqual([]);
    expect(run.skipped.map((entry) => new URL(entry.url).pathname).sort()).toEqual([
      '/private/listed',
      '/private/queued',
    ]);
    expect(crawler.stats.state.requestsFailed).toBe(0);

    // robots.txt is cached now: adding a refused URL drops it at once, from any kind of iterable.
    const queue = await crawler.getRequestQueue();
    const added = await queue.addRequestsBatched(
      (function* urls() {
        yield `${site.origin}/private/later`;
        yield `${site.origin}/later`;
      })(),
      { waitForAllRequestsToBeAdded: true },
    );
    expect(added.addedRequests.map((request) => request.uniqueKey)).toEqual([
      `${site.origin}/later`,
    ]);
    expect(run.skipped.at(-1)).toEqual({
      url: `${site.origin}/private/later`,
      reason: 'robotsTxt',
    });
  });

  it("holds the crawler's requests to the policy's per-origin concurrency", async () => {
    // Crawlee starts at most one task per `maybeRunIntervalSecs` (0.5 s): start them at once.
    const fourAtOnce = {
      minConcurrency: 4,
      maxConcurrency: 4,
      autoscaledPoolOptions: { maybeRunIntervalSecs: 0.01 },
    };
    run = newRun({ concurrency: 1, pacer });
    const crawler = new CheerioCrawler(
      politeCrawlee(
        run.policy,
        { ...fourAtOnce, requestHandler: () => undefined },
        { config: run.config },
      ),
      run.config,
    );
    await crawler.run(['/s1', '/s2', '/s3', '/s4'].map((path) => `${site.origin}${path}`));
    expect(site.paths().filter((path) => path.startsWith('/s'))).toHaveLength(4);
    expect(site.maxConcurrent).toBe(1);

    // The same crawler without the adapter sends them at once.
    const plainRun = newRun();
    const plain = new CheerioCrawler(
      { ...fourAtOnce, requestHandler: () => undefined },
      plainRun.config,
    );
    await plain.run(['/p1', '/p2', '/p3', '/p4'].map((path) => `${site.origin}${path}`));
    await plainRun.policy.close();
    expect(site.seen.some((seen) => seen.path.startsWith('/p') && seen.concurrent > 1)).toBe(true);
  });
});

describe('options are validated once, naming the bad one', () => {
  const optionError = (options: PoliteCrawleeOptions, crawlerOptions: object = {}): unknown => {
    try {
      politeCrawlee<object>(run.policy, crawlerOptions, options);
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('refuses unsafe or malformed options', () => {
    run = newRun();
    expect(optionError({}, { respectRobotsTxtFile: true })).toMatchObject({
      option: 'respectRobotsTxtFile',
    });
    expect(optionError({ maxRedirects: 100 })).toBeUndefined();
    expect(optionError({ maxRedirects: 101 })).toMatchObject({
      code: 'ERR_ROBOTS_INVALID_OPTION',
      option: 'maxRedirects',
    });
    expect(optionError({ maxHeadBytes: 1023 })).toMatchObject({ option: 'maxHeadBytes' });
    expect(optionError({ noindex: 'drop' as 'skip' })).toMatchObject({ option: 'noindex' });
    expect(optionError({ maxRedirect: 3 } as PoliteCrawleeOptions)).toMatchObject({
      code: 'ERR_ROBOTS_INVALID_OPTION',
      option: 'maxRedirect',
      suggestion: 'maxRedirects',
    });
    expect(isRobotsInvalidOptionError(optionError({ browser: {} as BrowserGate }))).toBe(true);
    // A gate that cannot send through the adapter's view of the policy (no withPolicy) would pace
    // its navigations inside Crawlee's timeout again: refused.
    const withoutView = {
      attach: () => Promise.resolve(),
      robots: () => Promise.reject(new Error('unused')),
      deniedNavigation: () => undefined,
    } as unknown as BrowserGate;
    expect(optionError({ browser: withoutView })).toMatchObject({ option: 'browser' });
  });
});
