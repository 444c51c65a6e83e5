/**
 * Crawlee's CheerioCrawler, made polite with one call. It starts a local site of its own (no
 * internet needed), crawls it, and prints what it fetched, what it skipped and why.
 *
 *   pnpm exec tsx examples/crawlee-cheerio/main.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CheerioCrawler } from '@crawlee/cheerio';
import { Configuration, log } from '@crawlee/core';
import { politeCrawler, robotsOf } from '@polite-crawler/crawlee';
import { createRobotsPolicy, isRobotsDeniedError } from '@polite-crawler/fetch';

// --- A local site: robots.txt, pages, a redirect into a disallowed area, a noindex page -----
const pages: Record<string, { status?: number; headers?: Record<string, string>; body?: string }> =
  {
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    },
    '/': {
      body: '<title>Home</title><a href="/articles/1">1</a> <a href="/private/admin">admin</a> <a href="/old">old</a> <a href="/drafts">drafts</a> <a href="/login">login</a>',
    },
    '/articles/1': {
      headers: { 'x-robots-tag': 'nosnippet' },
      body: '<title>Article 1</title><a href="/">home</a>',
    },
    '/old': { status: 301, headers: { location: '/articles/2' } },
    '/articles/2': { body: '<title>Article 2</title>' },
    '/login': { status: 302, headers: { location: '/private/login' } },
    '/drafts': { body: '<head><meta name="robots" content="noindex"><title>Drafts</title></head>' },
  };
const site = createServer((req, res) => {
  const page = pages[req.url ?? ''];
  if (page === undefined) return void res.writeHead(404).end();
  res
    .writeHead(page.status ?? 200, { 'content-type': 'text/html', ...page.headers })
    .end(page.body ?? '');
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;

// --- The crawler ----------------------------------------------------------------------------
log.setLevel(log.LEVELS.WARNING);
// The crawler's own Configuration: politeCrawler gives it to the crawler and to the adapter's
// request queue, so the crawl keeps its storage in memory (the demo leaves nothing in ./storage).
const config = new Configuration({ persistStorage: false });
// One policy: one robots.txt cache and one pacing per origin, shared by everything that uses it.
const policy = createRobotsPolicy({
  userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
  minInterval: 100, // a local demo; the default waits 1 s between requests to an origin
});

const skipped: string[] = [];
const crawler = politeCrawler(
  CheerioCrawler,
  policy,
  {
    maxRequestRetries: 1,
    requestHandler: async (context) => {
      const robots = robotsOf(context);
      const flags = robots?.directives.nosnippet ? ' [nosnippet]' : '';
      const from =
        context.request.loadedUrl === context.request.url
          ? ''
          : ` (redirected to ${context.request.loadedUrl})`;
      console.log(`fetched  ${context.request.url} "${context.$('title').text()}"${from}${flags}`);
      await context.enqueueLinks();
    },
    failedRequestHandler: ({ request }, error) => {
      const why = isRobotsDeniedError(error)
        ? `redirect to ${error.url} refused by robots.txt line ${error.line}`
        : error.message;
      console.log(`failed   ${request.url} — ${why}`);
    },
    // Crawlee's own skip report: reason 'robotsTxt', not counted as failed.
    onSkippedRequest: ({ url, reason }) => void skipped.push(`${reason} ${url}`),
  },
  config,
  {
    noindex: 'reject', // noindex pages are fetched but not handed to the request handler
    // The adapter's events say why, down to the robots.txt line.
    onEvent: (event) => {
      if (event.type === 'request-skipped') {
        const { rule, line, reason } = event.decision;
        console.log(
          `skipped  ${event.url} — ${rule ? `robots.txt line ${line}: Disallow: ${rule.pattern}` : reason}`,
        );
      }
      if (event.type === 'noindex-skipped')
        console.log(`noindex  ${event.url} — fetched, not handled`);
    },
  },
);

await crawler.run([`${origin}/`]);
const { requestsFinished, requestsFailed } = crawler.stats.state;
console.log(
  `done: ${requestsFinished} finished, ${requestsFailed} failed, ${skipped.length} skipped (${skipped.join(', ')})`,
);
await policy.close();
site.close();
