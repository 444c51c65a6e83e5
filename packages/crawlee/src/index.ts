export { DEFAULTS } from './defaults.js';
export { politeCrawlee, robotsOf } from './polite-crawlee.js';
export { politeCrawler } from './polite-crawler.js';
export type {
  BrowserCrawlerOptions,
  CrawlerClass,
  CrawlerOptionsOf,
  PoliteCrawlerArgs,
  PoliteCrawlerOptions,
} from './polite-crawler.js';
export type {
  AdapterOptionsArgs,
  BrowserCrawleeOptions,
  CrawlerOptionsLike,
  CrawlerOptionsUnknown,
} from './polite-crawlee.js';
export type {
  BrowserGate,
  CrawleeEvent,
  DeprecatedNoindexHandling,
  NoindexHandling,
  NoindexSkippedEvent,
  PageRobots,
  PoliteCrawleeOptions,
  RedirectDeniedEvent,
  RequestSkippedEvent,
  UsageSkippedEvent,
} from './types.js';
