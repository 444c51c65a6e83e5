/**
 * The adapter's public types, checked by the compiler (`tsc -p tsconfig.json`): an
 * `@ts-expect-error` that no longer finds its error fails the typecheck.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { politeCrawlee } from '@polite-crawler/crawlee';
import type {
  BrowserCrawleeOptions,
  CrawleeEvent,
  CrawlerOptionsUnknown,
  PageRobots,
  UsageSkippedEvent,
} from '@polite-crawler/crawlee';
import type { CheerioCrawlerOptions, CheerioCrawlingContext } from '@crawlee/cheerio';
import type { PlaywrightCrawlingContext } from '@crawlee/playwright';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import { CheerioCrawler, PlaywrightCrawler } from './helpers/crawlee.js';

const policy = createRobotsPolicy({ userAgent: 'TypesBot/1.0 (+https://example.com/bot)' });

describe('politeCrawlee types', () => {
  it('context.robots is typed in every crawling context (module augmentation)', () => {
    expectTypeOf<CheerioCrawlingContext['robots']>().toEqualTypeOf<PageRobots | undefined>();
    expectTypeOf<PlaywrightCrawlingContext['robots']>().toEqualTypeOf<PageRobots | undefined>();
    // Only constructed, never run: the handler's types are what is checked.
    new CheerioCrawler(
      politeCrawlee(policy, {
        requestHandler: (context) => {
          expectTypeOf(context.robots?.directives.noindex).toEqualTypeOf<boolean | undefined>();
          expectTypeOf(context.$).not.toBeNever();
        },
      }),
    );
  });

  it('the usage-skipped member of CrawleeEvent is exported by name', () => {
    expectTypeOf<
      Extract<CrawleeEvent, { type: 'usage-skipped' }>
    >().toEqualTypeOf<UsageSkippedEvent>();
  });

  it('outside a crawler constructor, the error says what to do (no handler typed never)', () => {
    const options = {
      requestHandler: (context: CheerioCrawlingContext) => {
        void context.request.url;
      },
    };
    // @ts-expect-error -- the parameter type is CrawlerOptionsUnknown: its property is the advice
    const unknownCrawler = () => politeCrawlee(policy, options);
    void unknownCrawler;
    expectTypeOf<CrawlerOptionsUnknown>().not.toBeNever();
    // Naming the crawler options type is the way out.
    expectTypeOf(
      politeCrawlee<CheerioCrawlerOptions>(policy, options),
    ).toEqualTypeOf<CheerioCrawlerOptions>();
  });

  it('a browser crawler requires the browser gate in the adapter options', () => {
    const browser = createPlaywrightGate({ policy });
    expectTypeOf<BrowserCrawleeOptions['browser']>().not.toBeUndefined();
    const build = () => {
      new PlaywrightCrawler(
        politeCrawlee(policy, { requestHandler: () => undefined }, { browser }),
      );
      // @ts-expect-error -- without `browser`
      new PlaywrightCrawler(politeCrawlee(policy, { requestHandler: () => undefined }, {}));
      // @ts-expect-error -- nor without the adapter options at all
      new PlaywrightCrawler(politeCrawlee(policy, { requestHandler: () => undefined }));
      // An HTTP crawler needs none.
      new CheerioCrawler(politeCrawlee(policy, { requestHandler: () => undefined }));
    };
    void build;
  });
});
