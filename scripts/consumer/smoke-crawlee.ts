// @polite-crawler/crawlee as a user installs it, with the user's crawlee: a CheerioCrawler and a
// PlaywrightCrawler (system Chromium) crawl the site; /private/x is skipped, never requested,
// and the handlers see each page's directives.
import assert from 'node:assert/strict';
import { CheerioCrawler, Configuration, PlaywrightCrawler, log } from 'crawlee';
import { chromium } from 'playwright-core';
import { politeCrawlee, robotsOf } from '@polite-crawler/crawlee';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import { startSite } from './site.mjs';

log.setLevel(log.LEVELS.WARNING);
const site = await startSite();
const policy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0', minInterval: 0 });
try {
  const handled: string[] = [];
  const skipped: string[] = [];
  const cheerio = new CheerioCrawler(
    politeCrawlee(policy, {
      maxRequestRetries: 0,
      requestHandler: async (context) => {
        const robots = robotsOf(context);
        const title = context.$('title').text();
        handled.push(
          `${new URL(context.request.url).pathname} ${title}${robots?.directives.nosnippet === true ? ' nosnippet' : ''}`,
        );
        await context.enqueueLinks();
      },
      onSkippedRequest: ({ url, reason }) =>
        void skipped.push(`${reason} ${new URL(url).pathname}`),
    }),
    new Configuration({ persistStorage: false }),
  );
  await cheerio.run([`${site.origin}/`]);
  assert.deepEqual(handled.sort(), ['/ Home', '/a A nosnippet', '/meta Meta']);
  assert.deepEqual(skipped, ['robotsTxt /private/x']);

  const titles: string[] = [];
  const playwright = new PlaywrightCrawler(
    politeCrawlee(
      policy,
      {
        maxRequestRetries: 0,
        launchContext: {
          launcher: chromium,
          launchOptions: {
            executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
            args: ['--no-sandbox', '--disable-gpu'],
          },
        },
        headless: true,
        requestHandler: async ({ page, request, enqueueLinks }) => {
          titles.push(`${new URL(request.url).pathname} ${await page.title()}`);
          await enqueueLinks();
        },
        onSkippedRequest: ({ url, reason }) =>
          void skipped.push(`${reason} ${new URL(url).pathname}`),
      },
      { browser: createPlaywrightGate({ policy }) },
    ),
    new Configuration({ persistStorage: false }),
  );
  await playwright.run([`${site.origin}/b`]);
  assert.deepEqual(titles, ['/b B']);
  assert.deepEqual(skipped, ['robotsTxt /private/x', 'robotsTxt /private/y']);
  for (const path of ['/private/x', '/private/y']) {
    assert.ok(!site.requested.includes(path), `the refused URL ${path} was requested`);
  }
  console.log('ok crawlee: Cheerio handled 3 pages, Playwright 1, each skipped its /private/ link');
} finally {
  await policy.close();
  await site.close();
}
