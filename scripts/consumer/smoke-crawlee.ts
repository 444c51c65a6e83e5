// @polite-crawler/crawlee as a user installs it (the README's CheerioCrawler line), with the
// user's crawlee: politeCrawler builds a CheerioCrawler with its own in-memory Configuration and
// crawls the site; /private/x is skipped, never requested, the handler sees each page's
// directives, and nothing is written to ./storage.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { CheerioCrawler, Configuration, log } from 'crawlee';
import { politeCrawler, robotsOf } from '@polite-crawler/crawlee';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import { startSite } from './site.mjs';

log.setLevel(log.LEVELS.WARNING);
const site = await startSite();
const policy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0', minInterval: 0 });
try {
  const handled: string[] = [];
  const skipped: string[] = [];
  const config = new Configuration({ persistStorage: false });
  const crawler = politeCrawler(
    CheerioCrawler,
    policy,
    {
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
    },
    config,
  );
  await crawler.run([`${site.origin}/`]);
  assert.equal(crawler.config, config);
  assert.deepEqual(handled.sort(), ['/ Home', '/a A nosnippet', '/meta Meta']);
  assert.deepEqual(skipped, ['robotsTxt /private/x']);
  assert.ok(!site.requested.includes('/private/x'), 'the refused URL /private/x was requested');
  assert.ok(!existsSync('storage'), 'persistStorage: false, yet ./storage was written');
  console.log('ok crawlee: Cheerio handled 3 pages, skipped /private/x, wrote no ./storage');
} finally {
  await policy.close();
  await site.close();
}
