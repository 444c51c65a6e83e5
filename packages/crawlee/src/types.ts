import type { Configuration, Dictionary } from '@crawlee/core';
import type {
  Decision,
  HttpCacheStore,
  RobotsDeniedError,
  RobotsOfPage,
  RobotsPolicy,
  UsageCategory,
} from '@polite-crawler/fetch';

/**
 * The robots directives of one fetched page, and where its response really came from.
 * @example
 * const robots: PageRobots | undefined = robotsOf(context);
 * if (robots?.directives.nosnippet) dropSnippet(robots.url);
 */
export interface PageRobots extends RobotsOfPage {
  /** The URL of the response (the last redirect target after redirects). */
  readonly url: string;
  /** Redirect targets followed, in order. */
  readonly redirects: readonly string[];
}

/**
 * What the Crawlee adapter needs from a browser integration: the gate of
 * `@polite-crawler/playwright` (`createPlaywrightGate({ policy })`) fits as is.
 * @example
 * const browser: BrowserGate = createPlaywrightGate({ policy });
 * new PlaywrightCrawler(politeCrawlee(policy, options, { browser }));
 */
export interface BrowserGate {
  /** Routes a browser context's (or page's) requests through the policy; called per navigation. */
  attach(target: unknown): Promise<void>;
  /** The directives of the page's navigation response. */
  robots(response: unknown): Promise<PageRobots>;
  /** The refusal of the page's latest navigation (its URL or a redirect hop), if any. */
  deniedNavigation(page: unknown): RobotsDeniedError | undefined;
  /** The same gate sending through `view`: the policy with the request manager's lent slots. */
  withPolicy(view: RobotsPolicy): BrowserGate;
}

/**
 * A request was skipped before anything was sent: its URL is refused by robots.txt.
 * @example
 * onEvent: (e) => e.type === 'request-skipped' && console.log(e.url, e.decision.line, e.stage)
 */
export interface RequestSkippedEvent {
  readonly type: 'request-skipped';
  readonly url: string;
  /** Why: the rule and line that disallow it, or robots.txt unreachable. */
  readonly decision: Decision;
  /** `queue`: dropped when added (robots.txt already known); `fetch`: skipped when its turn came. */
  readonly stage: 'queue' | 'fetch';
}

/**
 * A redirect of a page led to a URL its own robots.txt refuses; the hop was never requested.
 * @example
 * onEvent: (e) => e.type === 'redirect-denied' && console.log(e.url, '→', e.error.url)
 */
export interface RedirectDeniedEvent {
  readonly type: 'redirect-denied';
  /** The URL of the crawler's request. */
  readonly url: string;
  /** The refusal: `error.url` is the refused hop, `error.decision` says why. */
  readonly error: RobotsDeniedError;
}

/**
 * With `noindex: 'reject'`, a page was fetched but not handed to the request handler.
 * @example
 * onEvent: (e) => e.type === 'noindex-skipped' && console.log('not indexed:', e.url)
 */
export interface NoindexSkippedEvent {
  readonly type: 'noindex-skipped';
  readonly url: string;
  readonly robots: PageRobots;
}

/**
 * With `usage: { <category>: 'reject' }`, a page was fetched but not handed to the request
 * handler: its usage preference for a declared category is `disallowed`.
 * @example
 * onEvent: (e) => e.type === 'usage-skipped' && console.log(e.url, e.categories)
 */
export interface UsageSkippedEvent {
  readonly type: 'usage-skipped';
  readonly url: string;
  /** The declared categories whose preference is `disallowed`. */
  readonly categories: readonly UsageCategory[];
  readonly robots: PageRobots;
}

/**
 * One state object per adapter event; new fields may be added.
 * @example
 * const events: CrawleeEvent[] = [];
 * politeCrawlee(policy, options, { onEvent: (event) => events.push(event) });
 */
export type CrawleeEvent =
  RequestSkippedEvent | RedirectDeniedEvent | NoindexSkippedEvent | UsageSkippedEvent;

/**
 * What a noindex page does: the values of `@polite-crawler/fetch`'s `noindex` option.
 * @example
 * const noindex: NoindexHandling = 'reject';
 */
export type NoindexHandling = 'annotate' | 'reject';

/**
 * @deprecated Use `'annotate'` (for `'handle'`) or `'reject'` (for `'skip'`).
 * @example
 * politeCrawlee(policy, options, { noindex: 'reject' }); // was 'skip'
 */
export type DeprecatedNoindexHandling = 'handle' | 'skip';

/**
 * Options of {@link politeCrawlee}. Every default is in `DEFAULTS`.
 * @example
 * politeCrawlee(policy, crawlerOptions, { noindex: 'reject', config });
 */
export interface PoliteCrawleeOptions {
  /**
   * What a page whose directives say `noindex` (or whose `unavailable_after` has passed) does:
   * `'annotate'` hands it to the request handler with `context.robots.directives.noindex` set;
   * `'reject'` does not call the handler (the request still counts as finished: it was fetched).
   * `'handle'` and `'skip'` are their deprecated earlier names.
   * @default 'annotate'
   */
  readonly noindex?: NoindexHandling | DeprecatedNoindexHandling;
  /**
   * Per usage category the crawler declares (`train-ai`, `ai-use`, `search`), what a page whose
   * `context.robots.usage` for it is `disallowed` does, as for `noindex`. Categories left out are
   * handled.
   * @default {}
   */
  readonly usage?: { readonly [Category in UsageCategory]?: NoindexHandling };
  /**
   * The browser integration for `PlaywrightCrawler`: `createPlaywrightGate({ policy })` from
   * `@polite-crawler/playwright`. Required for browser crawlers.
   * @default undefined
   */
  readonly browser?: BrowserGate;
  /**
   * `'policy'`: HTTP requests carry the policy's User-Agent (the one robots.txt was fetched with
   * and matched against). `'keep'`: leave the crawler's (e.g. got-scraping's generated browser UA).
   * @default 'policy'
   */
  readonly userAgent?: 'policy' | 'keep';
  /**
   * Redirect hops an HTTP request follows, each checked against its own origin's robots.txt.
   * One more fails the request.
   * @default 20
   */
  readonly maxRedirects?: number;
  /**
   * Bytes of an HTML body scanned for robots metas in `<head>`.
   * @default 262144
   */
  readonly maxHeadBytes?: number;
  /**
   * Requests pulled from the queue and held back while their origin cannot take them yet. Past
   * it, the crawler takes nothing new until one is handed out.
   * @default 1000
   */
  readonly maxWaitingRequests?: number;
  /**
   * HTTP caching (RFC 9111) of the crawler's HTTP requests with undici's own cache, as
   * `@polite-crawler/fetch`'s `cache`: `true` is a bounded in-memory store (`MEMORY_CACHE_LIMITS`:
   * 1,024 responses, 64 MiB, 4 MiB a response), or pass an undici cache store (`SqliteCacheStore`
   * for a crawl that restarts). A fresh copy is served without a request, a stale one revalidated
   * (a 304 gives the stored body with status 200), identical GETs in flight at once are sent once.
   * With it, hops are sent with undici through the policy's `dispatcher` instead of got-scraping:
   * no generated browser headers, and a proxy is the policy dispatcher's (a `ProxyAgent`), so
   * `httpClient` and `proxyConfiguration` are refused beside it. Off by default for that reason,
   * and because Crawlee's queue already fetches each URL once per crawl.
   * @default false
   */
  readonly cache?: boolean | HttpCacheStore;
  /**
   * The Crawlee configuration the default request queue is opened with, when the crawler
   * options name no `requestQueue`. Pass the same one you give the crawler.
   * @default Configuration.getGlobalConfig()
   */
  readonly config?: Configuration;
  /**
   * Time source for `unavailable_after` on pages fetched over HTTP (the browser gate reads at its
   * policy's clock).
   * @default the policy's `clock.now`
   */
  readonly now?: () => number;
  /** Called synchronously with one state object per event; exceptions are swallowed. */
  readonly onEvent?: (event: CrawleeEvent) => void;
}

// Crawlee's crawling contexts get the `robots` field (the type parameters are Crawlee's own: every
// declaration of an interface must have the same ones).
declare module '@crawlee/core' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface CrawlingContext<Crawler = unknown, UserData extends Dictionary = Dictionary> {
    /**
     * Set by `politeCrawlee` before the request handler runs: the robots directives of the page
     * (see `robotsOf`). `undefined` for a `skipNavigation` request or outside a polite crawler.
     */
    robots?: PageRobots;
  }
}
