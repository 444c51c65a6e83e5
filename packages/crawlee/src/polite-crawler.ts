import { Configuration } from '@crawlee/core';
import { RobotsInvalidOptionError } from '@polite-crawler/fetch';
import type { RobotsPolicy } from '@polite-crawler/fetch';
import { politeOptions } from './polite-crawlee.js';
import type { BrowserCrawleeOptions } from './polite-crawlee.js';
import { resolveCrawleeOptions } from './resolve-options.js';
import type { PoliteCrawleeOptions } from './types.js';

/**
 * A Crawlee 3 crawler class: `new Crawler(options, config)` (`HttpCrawler`, `CheerioCrawler`,
 * `JSDOMCrawler`, `PlaywrightCrawler`, or a subclass of one).
 * @example
 * const Crawler: CrawlerClass = CheerioCrawler;
 */
// `never`: any crawler's options parameter accepts it, so every crawler class is assignable.
export type CrawlerClass = new (options: never, config?: Configuration) => object;

/**
 * The options type of a crawler class, read from its constructor.
 * @example
 * type Options = CrawlerOptionsOf<typeof CheerioCrawler>; // CheerioCrawlerOptions
 */
export type CrawlerOptionsOf<Crawler extends CrawlerClass> = NonNullable<
  ConstructorParameters<Crawler>[0]
>;

/**
 * The adapter options of {@link politeCrawler}: those of `politeCrawlee` without `config`
 * (the Configuration is `politeCrawler`'s fourth argument, given to the crawler and the queue).
 * @example
 * const adapter: PoliteCrawlerOptions = { noindex: 'reject' };
 */
export type PoliteCrawlerOptions = Omit<PoliteCrawleeOptions, 'config'>;

/** The adapter options of a browser crawler's {@link politeCrawler}: `browser` is required. */
export type BrowserCrawlerOptions = Omit<BrowserCrawleeOptions, 'config'>;

/**
 * The arguments of {@link politeCrawler} after the options: the Configuration, then the adapter
 * options (required, with `browser`, for a browser crawler, whose options have
 * `browserPoolOptions`).
 */
export type PoliteCrawlerArgs<Options> = 'browserPoolOptions' extends keyof Options
  ? [config: Configuration | undefined, adapterOptions: BrowserCrawlerOptions]
  : [config?: Configuration | undefined, adapterOptions?: PoliteCrawlerOptions];

/**
 * Builds a polite Crawlee crawler: `new Crawler(options, config)`, with the policy plugged into
 * the options as `politeCrawlee` plugs it, and the adapter's request queue opened under the same
 * `config` (default: the global configuration, as Crawlee's own). So a crawler given
 * `new Configuration({ persistStorage: false })` keeps its queue in memory, with the adapter in
 * front of it. The options type is the crawler's own, read from the class: the handlers get its
 * crawling context. The README says how this maps onto Crawlee 4 (options `configuration`,
 * `requestManager`).
 * @example
 * const config = new Configuration({ persistStorage: false });
 * const crawler = politeCrawler(CheerioCrawler, policy, {
 *   requestHandler: async ({ $, enqueueLinks }) => { console.log($('title').text()); await enqueueLinks(); },
 * }, config);
 * await crawler.run(['https://example.com/']);
 */
export function politeCrawler<Crawler extends CrawlerClass>(
  Crawler: Crawler,
  policy: RobotsPolicy,
  options: NoInfer<CrawlerOptionsOf<Crawler>>,
  ...rest: NoInfer<PoliteCrawlerArgs<CrawlerOptionsOf<Crawler>>>
): InstanceType<Crawler> {
  const [config, adapterOptions] = rest as [unknown, PoliteCrawleeOptions | undefined];
  if (typeof Crawler !== 'function') {
    throw new RobotsInvalidOptionError(
      'Crawler',
      Crawler,
      'a Crawlee crawler class, such as CheerioCrawler',
    );
  }
  if (config !== undefined && !(config instanceof Configuration)) {
    throw new RobotsInvalidOptionError(
      'config',
      config,
      "a Configuration of the crawler's @crawlee/core (or undefined for the global one)",
    );
  }
  if (
    adapterOptions !== undefined &&
    (typeof adapterOptions !== 'object' || adapterOptions === null)
  ) {
    throw new RobotsInvalidOptionError('options', adapterOptions, 'an object');
  }
  if (adapterOptions !== undefined && 'config' in adapterOptions) {
    throw new RobotsInvalidOptionError(
      'config',
      adapterOptions.config,
      "not an adapter option of politeCrawler: the Configuration is its fourth argument, given to the crawler and the adapter's queue alike",
    );
  }
  const used = config ?? Configuration.getGlobalConfig();
  const resolved = resolveCrawleeOptions(policy, { ...adapterOptions, config: used });
  const polite = politeOptions(resolved, options);
  return construct(Crawler, polite, used) as InstanceType<Crawler>;
}

/**
 * How Crawlee 3 takes a Configuration: the constructor's second argument. (Crawlee 4 takes it in
 * the options, `configuration`, and the request manager as `requestManager`: this and
 * `politeOptions` are the two places that change; see the README.)
 */
function construct(Crawler: CrawlerClass, options: object, config: Configuration): object {
  return new Crawler(options as never, config);
}
