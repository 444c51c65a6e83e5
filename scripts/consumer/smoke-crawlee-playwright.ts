// @polite-crawler/crawlee with PlaywrightCrawler, as the README's PlaywrightCrawler line installs
// it: Crawlee's own launcher (no `launcher` option: it requires `playwright`), system Chromium,
// the browser gate; /private/y is skipped, never requested, and nothing is written to ./storage.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { Configuration, PlaywrightCrawler, log } from 'crawlee';
import { politeCrawler } from '@polite-crawler/crawlee';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import { startSite } from './site.mjs';

log.setLevel(log.LEVELS.WARNING);
const site = await startSite();
const policy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0', minInterval: 0 });
try {
  const titles: string[] = [];
  const skipped: string[] = [];
  const crawler = politeCrawler(
    PlaywrightCrawler,
    policy,
    {
      maxRequestRetries: 0,
      launchContext: {
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
    new Configuration({ persistStorage: false }),
    { browser: createPlaywrightGate({ policy }) },
  );
  await crawler.run([`${site.origin}/b`]);
  assert.deepEqual(titles, ['/b B']);
  assert.deepEqual(skipped, ['robotsTxt /private/y']);
  assert.ok(!site.requested.includes('/private/y'), 'the refused URL /private/y was requested');
  assert.ok(!existsSync('storage'), 'persistStorage: false, yet ./storage was written');
  console.log(
    'ok crawlee-playwright: Playwright handled 1 page, skipped /private/y, wrote no ./storage',
  );
} finally {
  await policy.close();
  await site.close();
}
