/**
 * The adapter's public types, checked by the compiler (`tsc -p tsconfig.json`): an
 * `@ts-expect-error` that no longer finds its error fails the typecheck.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { politeCrawlee, politeCrawler } from '@polite-crawler/crawlee';
import type {
  BrowserCrawleeOptions,
  CrawleeEvent,
  CrawlerOptionsOf,
  CrawlerOptionsUnknown,
  PageRobots,
  UsageSkippedEvent,
} from '@polite-crawler/crawlee';
import type { CheerioCrawlerOptions, CheerioCrawlingContext } from '@crawlee/cheerio';
import type { PlaywrightCrawlerOptions, PlaywrightCrawlingContext } from '@crawlee/playwright';
import type { HttpCrawlerOptions } from '@crawlee/http';
import { createRobotsPolicy } from '@polite-crawler/fetch';
import { createPlaywrightGate } from '@polite-crawler/playwright';
import {
  CheerioCrawler,
  Configuration,
  HttpCrawler,
  PlaywrightCrawler,
} from './helpers/crawlee.js';

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

describe('politeCrawler types', () => {
  it("reads the options type from the crawler class: the handlers get the crawler's context", () => {
    expectTypeOf<CrawlerOptionsOf<typeof CheerioCrawler>>().toEqualTypeOf<CheerioCrawlerOptions>();
    expectTypeOf<
      CrawlerOptionsOf<typeof PlaywrightCrawler>
    >().toEqualTypeOf<PlaywrightCrawlerOptions>();
    expectTypeOf<CrawlerOptionsOf<typeof HttpCrawler>>().toMatchTypeOf<HttpCrawlerOptions>();
    const config = new Configuration({ persistStorage: false });
    // Only constructed, never run.
    const crawler = politeCrawler(
      CheerioCrawler,
      policy,
      {
        requestHandler: (context) => {
          expectTypeOf(context.$).toEqualTypeOf<CheerioCrawlingContext['$']>();
          expectTypeOf(context.robots?.directives.noindex).toEqualTypeOf<boolean | undefined>();
        },
      },
      config,
      { noindex: 'reject' },
    );
    expectTypeOf(crawler).toEqualTypeOf<InstanceType<typeof CheerioCrawler>>();
    const http = politeCrawler(HttpCrawler, policy, {
      requestHandler: (context) => {
        expectTypeOf(context.body).not.toBeNever();
      },
    });
    expectTypeOf(http).toEqualTypeOf<InstanceType<typeof HttpCrawler>>();
  });

  it('a browser crawler requires the browser gate; the config is a Configuration, not an adapter option', () => {
    const browser = createPlaywrightGate({ policy });
    const config = new Configuration({ persistStorage: false });
    const build = () => {
      const crawler = politeCrawler(
        PlaywrightCrawler,
        policy,
        {
          requestHandler: (context) => {
            expectTypeOf(context.page).toEqualTypeOf<PlaywrightCrawlingContext['page']>();
          },
        },
        config,
        { browser },
      );
      expectTypeOf(crawler).toEqualTypeOf<InstanceType<typeof PlaywrightCrawler>>();
      politeCrawler(PlaywrightCrawler, policy, {}, undefined, { browser });
      // @ts-expect-error -- without the browser gate
      politeCrawler(PlaywrightCrawler, policy, {}, config);
      // @ts-expect-error -- without `browser` in the adapter options
      politeCrawler(PlaywrightCrawler, policy, {}, config, {});
      // @ts-expect-error -- the config is the fourth argument, not an adapter option
      politeCrawler(CheerioCrawler, policy, {}, undefined, { config });
      // @ts-expect-error -- a Configuration, not its options
      politeCrawler(CheerioCrawler, policy, {}, { persistStorage: false });
      // @ts-expect-error -- the options are the crawler's own: an unknown key is an error
      politeCrawler(CheerioCrawler, policy, { requestHandlr: () => undefined });
    };
    void build;
  });
});
