import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isRobotsDeniedError } from '@polite-crawler/fetch';
import { DEFAULTS, politeCrawlee, robotsOf } from '@polite-crawler/crawlee';
import type { PageRobots, PoliteCrawleeOptions } from '@polite-crawler/crawlee';
import { startSite } from '../helpers/recording-server.js';
import type { Answer, RecordingServer as SiteServer } from '../helpers/recording-server.js';
import { CheerioCrawler, HttpCrawler } from './helpers/crawlee.js';
import type { HttpCrawlerOptions } from './helpers/crawlee.js';
import { newRun } from './helpers/polite-run.js';
import type { RunRecord } from './helpers/polite-run.js';

const html = (body: string, head = ''): Answer => ({
  headers: { 'content-type': 'text/html' },
  body: `<html><head>${head}</head><body>${body}</body></html>`,
});
const redirect = (status: number, location: string): Answer => ({ status, headers: { location } });
const META = '<meta name="robots" content="noindex">';

/** A page whose robots meta ends exactly at byte `end` of the body. */
function metaEndingAt(end: number): Answer {
  const prefix = '<html><head><title>';
  const padding = 'x'.repeat(end - prefix.length - '</title>'.length - META.length);
  return html('capped', `<title>${padding}</title>${META}<link rel="icon" href="data:,">`);
}

let site: SiteServer;
let other: SiteServer;
let run: RunRecord;

beforeAll(async () => {
  other = await startSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /closed\n',
    },
    '/landing': html('<p>landed</p>'),
  });
  site = await startSite({
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\nContent-Usage: /ai-no/ train-ai=n\nContent-Signal: /rag/ ai-input=no\n',
    },
    '/ai-no/page': html('<p>not for training, says robots.txt</p>'),
    // vocab-08's ai-use: Content-Signal's ai-input in robots.txt, and the field.
    '/rag/page': html('<p>not as model input, says robots.txt</p>'),
    '/field-ai-use': {
      headers: [
        ['content-type', 'text/html'],
        ['content-usage', 'ai-use=n'],
      ],
      body: html('<p>not as model input, says the header</p>').body!,
    },
    '/field-no': {
      headers: [
        ['content-type', 'text/html'],
        ['content-usage', 'train-ai=n, search=y'],
      ],
      body: html('<p>not for training, says the header</p>').body!,
    },
    '/go': redirect(302, '/private/target'),
    '/away': () => redirect(301, `${other.origin}/closed`),
    '/moved': redirect(301, '/new/page'),
    '/new/page': html('<p>new</p>'),
    '/cross': () => redirect(302, `${other.origin}/landing`),
    '/post': redirect(303, '/after-post'),
    '/after-post': html('<p>after</p>'),
    '/c2': redirect(302, '/c1'),
    '/c1': redirect(302, '/end'),
    '/c3': redirect(302, '/c2'),
    '/end': html('<p>end</p>'),
    '/tagged': {
      headers: [
        ['content-type', 'text/html'],
        ['x-robots-tag', 'otherbot: noindex'],
        ['x-robots-tag', 'nosnippet'],
        ['x-robots-tag', 'unavailable_after: 2030-01-01'],
      ],
      body: '<html><head><meta name="robots" content="noarchive"><meta name="PoliteTestBot" content="nofollow"></head><body>t</body></html>',
    },
    '/noindex': html('<p>hidden</p>', '<meta name="robots" content="noindex">'),
    '/header-noindex': {
      headers: [
        ['content-type', 'text/html'],
        ['x-robots-tag', 'noindex'],
      ],
      body: html('').body!,
    },
    '/plain': html('<p>plain</p>'),
    '/cap-1024': metaEndingAt(1024),
    '/cap-1025': metaEndingAt(1025),
  });
});

afterAll(async () => {
  await Promise.all([site.close(), other.close()]);
});

afterEach(async () => {
  await run.policy.close();
  site.seen.length = 0;
  other.seen.length = 0;
});

interface Outcome {
  readonly crawler: InstanceType<typeof CheerioCrawler>;
  readonly robots: Map<string, PageRobots>;
  readonly loaded: Map<string, string>;
  readonly failures: Map<string, unknown>;
}

async function crawl(urls: string[], adapter: PoliteCrawleeOptions = {}): Promise<Outcome> {
  run = newRun();
  const robots = new Map<string, PageRobots>();
  const loaded = new Map<string, string>();
  const failures = new Map<string, unknown>();
  const crawler = new CheerioCrawler(
    politeCrawlee(
      run.policy,
      {
        maxRequestRetries: 2,
        requestHandler: (context) => {
          const path = new URL(context.request.url).pathname;
          run.handled.push(path);
          loaded.set(path, context.request.loadedUrl ?? '');
          const found = robotsOf(context);
          if (found !== undefined) robots.set(path, found);
        },
        failedRequestHandler: (context, error) => {
          failures.set(new URL(context.request.url).pathname, error);
        },
        onSkippedRequest: run.onSkippedRequest,
      },
      { config: run.config, onEvent: run.onEvent, ...adapter },
    ),
    run.config,
  );
  await crawler.run(urls.map((path) => (path.startsWith('http') ? path : `${site.origin}${path}`)));
  return { crawler, robots, loaded, failures };
}

describe('redirects are checked hop by hop', () => {
  it('never requests a disallowed hop; the request fails once, not retried, and the hop is reported skipped', async () => {
    const { crawler, failures } = await crawl(['/go', '/away']);
    expect(site.hits('/private/target')).toEqual([]);
    expect(other.paths()).toEqual(['/robots.txt']);
    expect(site.hits('/go')).toHaveLength(1); // no retries

    expect(crawler.stats.state.requestsFailed).toBe(2);
    expect(crawler.stats.state.requestsRetries).toBe(0);
    const error = failures.get('/go');
    expect(isRobotsDeniedError(error)).toBe(true);
    expect(isRobotsDeniedError(error) && error.reason).toBe('redirect-disallowed');
    expect(isRobotsDeniedError(error) && error.url).toBe(`${site.origin}/private/target`);
    // Crawlee logs a failed request with its error's stack: a refusal's is its one line.
    expect((error as Error).stack).toBe(`RobotsDeniedError: ${(error as Error).message}`);

    expect(run.skipped).toEqual(
      expect.arrayContaining([
        { url: `${site.origin}/private/target`, reason: 'robotsTxt' },
        { url: `${other.origin}/closed`, reason: 'robotsTxt' },
      ]),
    );
    expect(run.events.filter((event) => event.type === 'redirect-denied')).toHaveLength(2);
  });

  it('follows allowed hops itself: the handler sees the final URL and the chain', async () => {
    const { robots, loaded } = await crawl(['/moved', '/cross']);
    expect(loaded.get('/moved')).toBe(`${site.origin}/new/page`);
    expect(robots.get('/moved')?.redirects).toEqual([`${site.origin}/new/page`]);
    expect(robots.get('/cross')?.url).toBe(`${other.origin}/landing`);
    expect(site.hits('/new/page')).toHaveLength(1);
    expect(other.paths()).toEqual(['/robots.txt', '/landing']);
  });

  it('follows maxRedirects hops and fails at one more', async () => {
    const { failures, crawler } = await crawl(['/c2', '/c3'], { maxRedirects: 2 });
    expect(run.handled).toEqual(['/c2']);
    expect((failures.get('/c3') as { code?: string }).code).toBe('ERR_ROBOTS_TOO_MANY_REDIRECTS');
    expect(crawler.stats.state.requestsFinished).toBe(1);
    expect(DEFAULTS.maxRedirects).toBe(20);
  });

  it('turns a POST answered 303 into a body-less GET', async () => {
    run = newRun();
    const crawler = new HttpCrawler(
      // HttpCrawler's options type is generic: name it so that the handler is typed.
      politeCrawlee<HttpCrawlerOptions>(
        run.policy,
        { requestHandler: () => undefined },
        { config: run.config },
      ),
      run.config,
    );
    await crawler.run([
      {
        url: `${site.origin}/post`,
        method: 'POST',
        payload: 'q=1',
        headers: { 'content-type': 'text/plain' },
      },
    ]);
    expect(site.hits('/post')[0]?.body).toBe('q=1');
    const after = site.hits('/after-post')[0];
    expect(after?.method).toBe('GET');
    expect(after?.body).toBe('');
    expect(after?.headers['content-type']).toBeUndefined();
  });
});

describe('the directives of each page', () => {
  it('are on the context: header lines one by one, plus the robots metas of <head>', async () => {
    const { robots } = await crawl(['/tagged', '/plain']);
    const tagged = robots.get('/tagged')?.directives;
    expect(tagged?.nosnippet).toBe(true); // its own line; joined with the otherbot line it would be otherbot's
    expect(tagged?.noindex).toBe(false);
    expect(tagged?.noarchive).toBe(true);
    expect(tagged?.nofollow).toBe(true);
    expect(tagged?.unavailableAfter?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(robots.get('/plain')?.directives.rules).toEqual([]);
  });

  it.each(['reject', 'skip'] as const)(
    "with noindex: '%s' (fetch's word, or its deprecated alias), noindex pages are fetched but not handed to the handler",
    async (noindex) => {
      const { crawler } = await crawl(['/noindex', '/header-noindex', '/plain', '/tagged'], {
        noindex,
        now: () => Date.UTC(2031, 0, 1), // past the unavailable_after of /tagged
      });
      expect(run.handled).toEqual(['/plain']);
      expect(site.hits('/noindex')).toHaveLength(1);
      expect(crawler.stats.state.requestsFinished).toBe(4);
      expect(
        run.events
          .filter((event) => event.type === 'noindex-skipped')
          .map((event) => new URL(event.url).pathname)
          .sort(),
      ).toEqual(['/header-noindex', '/noindex', '/tagged']);
    },
  );

  it("with noindex: 'annotate' (the default, or its deprecated alias 'handle'), the handler gets them", async () => {
    await crawl(['/noindex', '/plain'], { noindex: 'handle' });
    expect(run.handled.sort()).toEqual(['/noindex', '/plain']);
    await run.policy.close();
    await crawl(['/noindex', '/plain'], { noindex: 'annotate' });
    expect(run.handled.sort()).toEqual(['/noindex', '/plain']);
  });

  it('carry the usage preferences next to the directives (robots.txt and the field combined)', async () => {
    const { robots } = await crawl(['/ai-no/page', '/field-no', '/plain']);
    expect(robots.get('/ai-no/page')?.usage).toMatchObject({
      'train-ai': 'disallowed',
      search: 'unknown',
    });
    expect(robots.get('/ai-no/page')?.usage.sources['train-ai']).toEqual([
      {
        kind: 'content-usage-rule',
        line: 3,
        pattern: '/ai-no/',
        text: 'Content-Usage: /ai-no/ train-ai=n',
      },
    ]);
    expect(robots.get('/field-no')?.usage).toMatchObject({
      'train-ai': 'disallowed',
      search: 'allowed',
    });
    expect(robots.get('/plain')?.usage).toMatchObject({ 'train-ai': 'unknown', search: 'unknown' });
  });

  it("with usage: { 'train-ai': 'reject' }, pages whose training use is disallowed are not handed to the handler", async () => {
    const { crawler } = await crawl(['/ai-no/page', '/field-no', '/plain'], {
      usage: { 'train-ai': 'reject', search: 'reject' },
    });
    expect(run.handled).toEqual(['/plain']);
    expect(crawler.stats.state.requestsFinished).toBe(3);
    expect(
      run.events
        .filter((event) => event.type === 'usage-skipped')
        .map((event) => [new URL(event.url).pathname, event.categories])
        .sort(),
    ).toEqual([
      ['/ai-no/page', ['train-ai']],
      ['/field-no', ['train-ai']],
    ]);
  });

  it("with usage: { 'ai-use': 'reject' }, pages whose use as model input is disallowed are skipped, from either source", async () => {
    const { robots } = await crawl(['/rag/page', '/field-ai-use', '/ai-no/page', '/plain'], {
      usage: { 'ai-use': 'reject' },
    });
    expect(run.handled.sort()).toEqual(['/ai-no/page', '/plain']);
    expect(robots.get('/ai-no/page')?.usage['ai-use']).toBe('unknown');
    expect(
      run.events
        .filter((event) => event.type === 'usage-skipped')
        .map((event) => [
          new URL(event.url).pathname,
          event.categories,
          event.robots.usage.sources['ai-use'],
        ])
        .sort(),
    ).toEqual([
      ['/field-ai-use', ['ai-use'], [{ kind: 'content-usage-field' }]],
      [
        '/rag/page',
        ['ai-use'],
        [
          {
            kind: 'content-signal-rule',
            line: 4,
            pattern: '/rag/',
            text: 'Content-Signal: /rag/ ai-input=no',
          },
        ],
      ],
    ]);
  });

  it('refuses a usage option naming no vocabulary category', () => {
    run = newRun();
    expect(() =>
      politeCrawlee<object>(run.policy, {}, { usage: { 'ai-train': 'reject' } as never }),
    ).toThrow(/usage/);
  });

  it('finds a meta that ends at maxHeadBytes, not one byte past it', async () => {
    const { robots } = await crawl(['/cap-1024', '/cap-1025'], { maxHeadBytes: 1024 });
    expect(site.hits('/cap-1024')[0]).toBeDefined();
    expect(robots.get('/cap-1024')?.directives.noindex).toBe(true);
    expect(robots.get('/cap-1025')?.directives.noindex).toBe(false);
  });
});
