/**
 * Crawlee's PlaywrightCrawler, made polite: the Crawlee adapter skips what robots.txt refuses
 * and the Playwright gate checks every navigation, redirect hop and subresource in the browser.
 * It starts a local site of its own (no internet needed), crawls it with Chromium, and prints
 * what it fetched, what it skipped and why.
 *
 *   pnpm exec tsx examples/crawlee-playwright/main.ts
 *
 * Uses the Chromium at CHROMIUM_PATH (default: Debian's /usr/bin/chromium).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Configuration, log } from '@crawlee/core';
import { PlaywrightCrawler } from '@crawlee/playwright';
import { politeCrawler, robotsOf } from '@polite-crawler/crawlee';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';

// --- A local site: robots.txt, pages, a disallowed image, a redirect into /private/ ---------
const pages: Record<string, { status?: number; headers?: Record<string, string>; body?: string }> =
  {
    '/robots.txt': {
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nDisallow: /private/\n',
    },
    '/': {
      body: '<title>Home</title><img src="/private/tracker.png"><a href="/articles/1">1</a> <a href="/private/admin">admin</a> <a href="/login">login</a>',
    },
    '/articles/1': {
      headers: { 'x-robots-tag': 'nosnippet' },
      body: '<title>Article 1</title><a href="/">home</a>',
    },
    '/login': { status: 302, headers: { location: '/private/login' } },
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
log.setLevel(log.LEVELS.OFF);
// The crawler's own Configuration: storage in memory (the demo leaves nothing in ./storage).
const config = new Configuration({ persistStorage: false });
const policy = createRobotsPolicy({
  userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
  minInterval: 50,
});
const gate = createPlaywrightGate({
  policy,
  onEvent: (event) => {
    if (event.type === 'request-denied' && !event.isNavigation) {
      console.log(`refused  ${event.url} (in the browser) — robots.txt line ${event.error.line}`);
    }
  },
});

// politeCrawler builds the crawler with its Configuration and opens the adapter's request queue
// under it; the gate checks what happens inside the browser.
const crawler = politeCrawler(
  PlaywrightCrawler,
  policy,
  {
    launchContext: {
      launchOptions: {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      },
    },
    browserPoolOptions: { useFingerprints: false }, // the gate sends the policy's User-Agent anyway
    maxRequestRetries: 1,
    requestHandler: async (context) => {
      const robots = robotsOf(context);
      const flags = robots?.directives.nosnippet ? ' [nosnippet]' : '';
      console.log(`fetched  ${context.request.url} "${await context.page.title()}"${flags}`);
      await context.enqueueLinks();
    },
    failedRequestHandler: ({ request }) =>
      console.log(`failed   ${request.url} — its redirect was refused`),
  },
  config,
  {
    browser: gate,
    onEvent: (event) => {
      if (event.type === 'request-skipped') {
        console.log(
          `skipped  ${event.url} — robots.txt line ${event.decision.line}: Disallow: ${event.decision.rule?.pattern}`,
        );
      } else if (event.type === 'redirect-denied') {
        console.log(
          `refused  ${event.url} → ${event.error.url} — robots.txt line ${event.error.line}`,
        );
      }
    },
  },
);

await crawler.run([`${origin}/`]);
const { requestsFinished, requestsFailed } = crawler.stats.state;
console.log(`done: ${requestsFinished} finished, ${requestsFailed} failed`);
await policy.close();
site.close();
