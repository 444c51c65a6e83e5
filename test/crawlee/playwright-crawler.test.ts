import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import core from '@crawlee/core';
import type { LogLevel } from '@crawlee/core';
import { politeCrawlee, robotsOf } from '@polite-crawler/crawlee';
import type { PageRobots } from '@polite-crawler/crawlee';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import type { GateEvent } from '@polite-crawler/playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright/helpers/chromium.js';
import { startSite } from '../helpers/recording-server.js';
import type { Answer, RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { PlaywrightCrawler, log } from './helpers/crawlee.js';
import { USER_AGENT, newRun } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

/** Keeps what Crawlee's logger would print: level and message. */
class Capture extends core.Logger {
  readonly lines: Array<{ level: LogLevel; message: string }> = [];
  override _log(level: LogLevel, message: string): void {
    this.lines.push({ level, message });
  }
}

const html = (body: string): Answer => ({
  headers: { 'content-type': 'text/html' },
  body: `<!doctype html><html><head><title>t</title></head><body>${body}</body></html>`,
});

/** Debian's Chromium, headless, no fingerprint injection, nothing but the test servers. */
const browserOptions = {
  launchContext: {
    launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS },
  },
  browserPoolOptions: { useFingerprints: false },
  maxConcurrency: 2,
} as const;

let site: SiteServer;
let run: RunRecord;

/**
 * The gate's refusals, for `onEvent`: `refusedOrSent(path)` resolves once the gate has refused
 * `path`, or once `path` reached the server (the test then fails on the server's record).
 */
function refusals(): {
  onEvent(event: GateEvent): void;
  refusedOrSent(path: string): Promise<unknown>;
} {
  const refused = new Map<string, { promise: Promise<void>; resolve: () => void }>();
  const of = (path: string): { promise: Promise<void>; resolve: () => void } => {
    let entry = refused.get(path);
    if (entry === undefined) {
      let resolve = (): void => {};
      const promise = new Promise<void>((done) => (resolve = done));
      entry = { promise, resolve };
      refused.set(path, entry);
    }
    return entry;
  };
  return {
    onEvent: (event) => {
      if (event.type === 'request-denied') of(new URL(event.url).pathname).resolve();
    },
    refusedOrSent: (path) => Promise.race([of(path).promise, site.arrived(path)]),
  };
}

beforeAll(async () => {
  site = await startSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    },
    '/page': html(
      '<img src="/img/ok.png"><img src="/private/pic.png"><a href="/next">n</a><a href="/private/x">x</a>',
    ),
    '/img/ok.png': { headers: { 'content-type': 'image/png' }, body: 'png' },
    '/next': html('<p>next</p>'),
    '/go': { status: 302, headers: { location: '/private/target' } },
    '/opens-popup': html(`<script>window.open('/popup-page')</script>`),
    '/popup-page': html(
      '<img src="/private/in-popup.png"><script>location.href = "/private/popup-nav"</script>',
    ),
    '/plain-page': html('<p>plain</p>'),
    '/old': { status: 302, headers: { location: '/dir/page' } },
    '/dir/page': html('<a href="child">relative</a>'),
    '/dir/child': html('<p>child</p>'),
    '/tagged': {
      headers: [
        ['content-type', 'text/html'],
        ['x-robots-tag', 'otherbot: noindex'],
        ['x-robots-tag', 'nosnippet'],
      ],
      body: '<!doctype html><html><head><meta name="robots" content="noarchive"></head><body>t</body></html>',
    },
  });
});

afterAll(async () => {
  await site.close();
});

afterEach(async () => {
  await run.policy.close();
  site.seen.length = 0;
});

describe('PlaywrightCrawler with the Playwright gate', () => {
  it('skips disallowed URLs, never loads disallowed subresources or redirect hops, and exposes the directives', async () => {
    run = newRun();
    const gate = createPlaywrightGate({ policy: run.policy });
    const robots = new Map<string, PageRobots>();
    const failed: string[] = [];
    const saved = log.getOptions();
    const capture = new Capture(saved);
    log.setOptions({ logger: capture, level: log.LEVELS.WARNING });
    const crawler = new PlaywrightCrawler(
      politeCrawlee(
        run.policy,
        {
          ...browserOptions,
          requestHandler: async (context) => {
            const path = new URL(context.request.url).pathname;
            run.handled.push(path);
            const found = robotsOf(context);
            if (found !== undefined) robots.set(path, found);
            await context.enqueueLinks();
          },
          failedRequestHandler: ({ request }) => {
            failed.push(new URL(request.url).pathname);
          },
          onSkippedRequest: run.onSkippedRequest,
        },
        { browser: gate, config: run.config },
      ),
      run.config,
    );
    try {
      await crawler.run([
        `${site.origin}/page`,
        `${site.origin}/go`,
        `${site.origin}/private/start`,
        `${site.origin}/tagged`,
      ]);
    } finally {
      log.setOptions({ logger: saved.logger, level: saved.level });
    }
    // The refused redirect of /go is a skip (the adapter's INFO line), not an ERROR of Crawlee's.
    expect(capture.lines.filter((line) => line.level === log.LEVELS.ERROR)).toEqual([]);

    expect(site.paths().filter((path) => path.startsWith('/private/'))).toEqual([]);
    expect(site.hits('/img/ok.png')).toHaveLength(1);
    expect(site.hits('/go')).toHaveLength(1); // failed once, not retried
    expect(site.hits('/robots.txt')).toHaveLength(1);
    expect(site.seen.every((seen) => seen.headers['user-agent'] === USER_AGENT)).toBe(true);

    expect(run.handled.sort()).toEqual(['/next', '/page', '/tagged']);
    expect(failed).toEqual(['/go']);
    expect(crawler.stats.state.requestsFinished).toBe(3);
    expect(crawler.stats.state.requestsFailed).toBe(1);
    expect(crawler.stats.state.requestsRetries).toBe(0);
    expect(run.skipped.map((entry) => new URL(entry.url).pathname).sort()).toEqual([
      '/private/start',
      '/private/target',
      '/private/x',
    ]);

    const tagged = robots.get('/tagged')?.directives;
    expect(tagged?.nosnippet).toBe(true);
    expect(tagged?.noindex).toBe(false);
    expect(tagged?.noarchive).toBe(true);
  });

  it('after a redirect, request.loadedUrl is the final URL: enqueueLinks resolves relative links against it', async () => {
    run = newRun();
    const loaded = new Map<string, string | undefined>();
    const crawler = new PlaywrightCrawler(
      politeCrawlee(
        run.policy,
        {
          ...browserOptions,
          requestHandler: async (context) => {
            loaded.set(new URL(context.request.url).pathname, context.request.loadedUrl);
            await context.enqueueLinks();
          },
        },
        { browser: createPlaywrightGate({ policy: run.policy }), config: run.config },
      ),
      run.config,
    );
    await crawler.run([`${site.origin}/old`]);

    expect(loaded.get('/old')).toBe(`${site.origin}/dir/page`);
    // As CheerioCrawler (and PlaywrightCrawler without the gate) would: /dir/child, not /child.
    expect(loaded.has('/dir/child')).toBe(true);
    expect(site.hits('/child')).toHaveLength(0);
    expect(site.hits('/dir/child')).toHaveLength(1);
  });

  it('a browser crawler without the browser option fails at the politeCrawlee call, and does not compile', () => {
    run = newRun();
    const options = { ...browserOptions, requestHandler: () => undefined };
    const withoutGate = { config: run.config };
    const thrown = (build: () => unknown): unknown => {
      try {
        build();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const refusal = { code: 'ERR_ROBOTS_INVALID_OPTION', option: 'browser' };
    const withoutBrowser = () =>
      // @ts-expect-error -- a browser crawler's adapter options need `browser`
      new PlaywrightCrawler(politeCrawlee(run.policy, options, withoutGate));
    const withoutAdapterOptions = () =>
      // @ts-expect-error -- and so the adapter options cannot be left out
      new PlaywrightCrawler(politeCrawlee(run.policy, options));
    expect(thrown(withoutBrowser)).toMatchObject(refusal);
    expect(thrown(withoutAdapterOptions)).toMatchObject(refusal);
  });

  it('refuses to browse ungated: options that do not look like a browser crawler’s still fail before navigating', async () => {
    run = newRun();
    const errors: string[] = [];
    // Options the adapter cannot tell from an HTTP crawler's (the browser ones are added after).
    const polite = politeCrawlee<object>(
      run.policy,
      {
        maxRequestRetries: 0,
        requestHandler: () => undefined,
        failedRequestHandler: (_context: unknown, error: Error) => {
          errors.push(error.message);
        },
      },
      { config: run.config },
    );
    const crawler = new PlaywrightCrawler({ ...polite, ...browserOptions }, run.config);
    await crawler.run([`${site.origin}/next`]);
    expect(site.paths().filter((path) => path !== '/favicon.ico')).toEqual(['/robots.txt']);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/needs the `browser` option/);
  });

  it('gates the pages a crawled page opens (popups), not only the crawled page', async () => {
    run = newRun();
    const popup = refusals();
    const gate = createPlaywrightGate({ policy: run.policy, onEvent: popup.onEvent });
    const crawler = new PlaywrightCrawler(
      politeCrawlee(
        run.policy,
        {
          ...browserOptions,
          requestHandler: async () => {
            // The popup opens while the page loads; its image and its own script navigation
            // follow: done once both are refused (or sent).
            await popup.refusedOrSent('/private/in-popup.png');
            await popup.refusedOrSent('/private/popup-nav');
          },
        },
        { browser: gate, config: run.config },
      ),
      run.config,
    );
    await crawler.run([`${site.origin}/opens-popup`]);
    expect(site.hits('/popup-page')).toHaveLength(1);
    expect(site.paths().filter((path) => path.startsWith('/private/'))).toEqual([]);
    expect(site.seen.every((seen) => seen.headers['user-agent'] === USER_AGENT)).toBe(true);
  });

  it('a refused script navigation does not make a later, unrelated error final: it is retried', async () => {
    run = newRun();
    const script = refusals();
    const gate = createPlaywrightGate({ policy: run.policy, onEvent: script.onEvent });
    let attempts = 0;
    const noRetry: boolean[] = [];
    const crawler = new PlaywrightCrawler(
      politeCrawlee(
        run.policy,
        {
          ...browserOptions,
          maxRequestRetries: 1,
          requestHandler: async ({ page }) => {
            attempts += 1;
            if (attempts > 1) return;
            // The page's own script tries a disallowed navigation (refused), then the handler
            // fails for a reason of its own.
            const refused = script.refusedOrSent('/private/tracking');
            await page.evaluate("location.href = '/private/tracking'");
            await refused;
            throw new Error('transient');
          },
          failedRequestHandler: ({ request }) => {
            noRetry.push(request.noRetry);
          },
        },
        { browser: gate, config: run.config },
      ),
      run.config,
    );
    await crawler.run([`${site.origin}/plain-page`]);
    expect(site.hits('/private/tracking')).toHaveLength(0);
    expect(attempts).toBe(2);
    expect(noRetry).toEqual([]);
    expect(crawler.stats.state.requestsRetries).toBe(1);
  });
});
