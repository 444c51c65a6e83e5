import {
  GotScrapingHttpClient,
  RequestQueue,
  RequestQueueV1,
  log as crawleeLog,
} from '@crawlee/core';
import type { BaseHttpClient, IRequestManager, Log, SkippedRequestCallback } from '@crawlee/core';
import { RobotsInvalidOptionError, isRobotsDeniedError } from '@polite-crawler/fetch';
import type { Decision, RobotsDeniedError, RobotsPolicy } from '@polite-crawler/fetch';
import { adapterDispatcher } from '@polite-crawler/fetch/internal';
import { readHttpRobots } from './page-robots.js';
import type { HttpContextLike } from './page-robots.js';
import { CRAWLEE_REQUEST, PoliteHttpClient } from './polite-http-client.js';
import type { HttpNavigation } from './polite-http-client.js';
import { PoliteRequestManager } from './polite-request-manager.js';
import type { RequestPacer } from './polite-request-manager.js';
import { takeTicket } from './origin-ticket.js';
import { SlotLeases } from './slot-leases.js';
import { BoundedKeys } from './bounded-keys.js';
import { TransportHttpClient } from './transport-http-client.js';
import { quietRefusals } from './refusal-logger.js';
import { DEFAULTS } from './defaults.js';
import { resolveCrawleeOptions } from './resolve-options.js';
import type { ResolvedCrawleeOptions } from './resolve-options.js';
import type { BrowserGate, CrawleeEvent, PageRobots, PoliteCrawleeOptions } from './types.js';

type Hook = (context: never, options: never) => unknown;

/**
 * The options type {@link politeCrawlee} falls back to when TypeScript cannot tell which
 * crawler the options are for (the call is not written inside `new XCrawler(...)` and names no
 * type): its one required property is the explanation, so the compiler error says what to do.
 * @example
 * const options = politeCrawlee<CheerioCrawlerOptions>(policy, { requestHandler });
 */
export interface CrawlerOptionsUnknown {
  readonly 'politeCrawlee: write the call inside `new XCrawler(...)`, or name the crawler options type: politeCrawlee<CheerioCrawlerOptions>(policy, options)': never;
}

/**
 * The adapter options of a browser crawler (`PlaywrightCrawler`): `browser` is required.
 * @example
 * const options: BrowserCrawleeOptions = { browser: createPlaywrightGate({ policy }) };
 */
export interface BrowserCrawleeOptions extends PoliteCrawleeOptions {
  readonly browser: BrowserGate;
}

/** The third argument of {@link politeCrawlee}: required, with `browser`, for browser crawlers. */
export type AdapterOptionsArgs<Options> = 'browserPoolOptions' extends keyof Options
  ? [adapterOptionsWithBrowserGate: BrowserCrawleeOptions]
  : [adapterOptions?: PoliteCrawleeOptions];

/**
 * The crawler options the adapter reads or replaces. The options of `HttpCrawler`,
 * `CheerioCrawler`, `JSDOMCrawler` and `PlaywrightCrawler` all fit.
 * @example
 * const options: CheerioCrawlerOptions = { requestHandler }; // assignable to CrawlerOptionsLike
 */
export interface CrawlerOptionsLike {
  requestHandler?: (context: never) => unknown;
  errorHandler?: (context: never, error: never) => unknown;
  preNavigationHooks?: Hook[];
  onSkippedRequest?: SkippedRequestCallback;
  httpClient?: BaseHttpClient;
  requestQueue?: object;
  requestList?: object;
  experiments?: { readonly requestLocking?: boolean };
  respectRobotsTxtFile?: boolean | { readonly userAgent?: string };
}

/** The parts of a crawling context the adapter touches. */
interface ContextLike extends HttpContextLike {
  readonly request: {
    readonly url: string;
    noRetry: boolean;
    loadedUrl?: string | undefined;
    readonly skipNavigation?: boolean;
  };
  readonly page?: unknown;
  readonly crawler?: {
    readonly router?: (context: never) => unknown;
    readonly config?: unknown;
    readonly log?: Log;
  };
  robots?: PageRobots;
}

type Handler = (context: ContextLike) => unknown;

/**
 * The robots directives of the page in a crawling context: the header lines and `<head>` metas
 * read by {@link politeCrawlee} before the request handler runs (also on `context.robots`).
 * `undefined` for a request with `skipNavigation`, or outside a polite crawler.
 * @example
 * requestHandler: async (context) => {
 *   const robots = robotsOf(context);
 *   if (!robots?.directives.noindex) await context.pushData({ url: robots?.url });
 * }
 */
export function robotsOf(context: object): PageRobots | undefined {
  return (context as { robots?: PageRobots }).robots;
}

function describe(decision: Decision): string {
  if (decision.reason === 'unreachable') return `robots.txt of ${decision.origin} is unreachable`;
  const rule = decision.rule;
  return rule === undefined
    ? decision.reason
    : `line ${rule.line} "${rule.kind === 'allow' ? 'Allow' : 'Disallow'}: ${rule.pattern}"`;
}

/** Opens what the crawler would have opened: the given queue, or the default one. */
async function openQueue(
  options: CrawlerOptionsLike,
  resolved: ResolvedCrawleeOptions,
): Promise<IRequestManager> {
  if (options.requestQueue !== undefined) return options.requestQueue as IRequestManager;
  const Queue = options.experiments?.requestLocking === false ? RequestQueueV1 : RequestQueue;
  return Queue.open(null, { config: resolved.config });
}

/**
 * Makes a Crawlee crawler polite: wrap the options you would pass to `HttpCrawler`,
 * `CheerioCrawler` or `PlaywrightCrawler` (browser crawlers also need the Playwright gate,
 * `browser`). A refused URL is **skipped** (reported to `onSkippedRequest` with reason
 * `robotsTxt`), requests are paced through the queue, every redirect hop is checked, and each
 * page's directives are on `context.robots` ({@link robotsOf}). Your own hooks, handlers,
 * router, queue/list and `httpClient` keep working. The README's API section says how.
 * @example
 * const policy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
 * const crawler = new CheerioCrawler(
 *   politeCrawlee(policy, {
 *     requestHandler: async (context) => {
 *       console.log(context.request.url, robotsOf(context)?.directives.noindex);
 *       await context.enqueueLinks();
 *     },
 *     onSkippedRequest: ({ url, reason }) => console.log('skipped', url, reason),
 *   }),
 * );
 * await crawler.run(['https://example.com/']);
 */
export function politeCrawlee<Options extends object | undefined = CrawlerOptionsUnknown>(
  policy: RobotsPolicy,
  // Inferred from where the result goes (`new CheerioCrawler(politeCrawlee(...))`, an optional
  // parameter: hence `| undefined`), so the handlers get the crawler's own context types.
  options: NoInfer<NonNullable<Options>>,
  // A browser crawler's options (they have `browserPoolOptions`) require `browser`.
  ...adapterOptions: NoInfer<AdapterOptionsArgs<NonNullable<Options>>>
): NonNullable<Options> {
  const resolved = resolveCrawleeOptions(policy, adapterOptions[0]);
  return politeOptions(resolved, options) as NonNullable<Options>;
}

/** Options keys only browser crawlers (`PlaywrightCrawler`, `PuppeteerCrawler`) have. */
const BROWSER_CRAWLER_KEYS = ['browserPoolOptions', 'launchContext', 'headless', 'launcher'];

/**
 * The crawler options with the policy plugged in (the body of {@link politeCrawlee} and of
 * `politeCrawler`); the default queue, if one is needed, is opened with `resolved.config`.
 */
export function politeOptions(
  resolved: ResolvedCrawleeOptions,
  options: CrawlerOptionsLike,
): object {
  if (typeof options !== 'object' || options === null) {
    throw new RobotsInvalidOptionError('options', options, 'the crawler options object');
  }
  const { policy } = resolved;
  if (resolved.browser === undefined && BROWSER_CRAWLER_KEYS.some((key) => key in options)) {
    throw new RobotsInvalidOptionError(
      'browser',
      undefined,
      "a gate from createPlaywrightGate({ policy }) (@polite-crawler/playwright): these are a browser crawler's options, and browsing ungated would bypass the policy",
    );
  }
  if (options.respectRobotsTxtFile !== undefined && options.respectRobotsTxtFile !== false) {
    throw new RobotsInvalidOptionError(
      'respectRobotsTxtFile',
      options.respectRobotsTxtFile,
      'leave it unset: the policy gates every request, Crawlee would fetch robots.txt a second time with other rules',
    );
  }
  if (resolved.cache.store !== false) {
    // The cache is undici's: hops go through the policy's transport, not another client.
    for (const name of ['httpClient', 'proxyConfiguration'] as const) {
      if ((options as Record<string, unknown>)[name] !== undefined) {
        throw new RobotsInvalidOptionError(
          'cache',
          true,
          `false when the crawler options have ${name}: with cache, requests go through the policy's dispatcher (give it a ProxyAgent for a proxy)`,
        );
      }
    }
  }
  if ('requestManager' in options) {
    throw new RobotsInvalidOptionError(
      'requestManager',
      'requestManager',
      'not supported: pass requestQueue and/or requestList',
    );
  }
  const log = crawleeLog.child({ prefix: 'PoliteCrawlee' });
  const emit = (event: CrawleeEvent): void => {
    try {
      resolved.onEvent?.(event);
    } catch {
      // an observer must not break the crawl
    }
  };
  const userSkipped = options.onSkippedRequest;
  const userHandler = options.requestHandler as Handler | undefined;
  const userErrorHandler = options.errorHandler as
    ((context: ContextLike, error: unknown) => unknown) | undefined;
  const navigations = new WeakMap<object, HttpNavigation>();
  const reported = new BoundedKeys(DEFAULTS.maxRememberedSkips);
  const refusals = new BoundedKeys(DEFAULTS.maxRememberedSkips);

  const skipped = async (
    url: string,
    decision: Decision,
    stage: 'queue' | 'fetch',
  ): Promise<void> => {
    // Once per URL, however many pages link to it.
    if (!reported.first(url)) return;
    log.info(`Skipped (robots.txt): ${url} (${describe(decision)})`);
    emit({ type: 'request-skipped', url, decision, stage });
    await userSkipped?.({ url, reason: 'robotsTxt' });
  };

  const denied = async (
    url: string,
    error: RobotsDeniedError,
    request: object | undefined,
  ): Promise<void> => {
    if (error.reason !== 'redirect-disallowed') return;
    // Crawlee fails the request (its navigation has started: there is no public way to end it as
    // skipped) and would log that at ERROR, with a stack into the adapter: its line is dropped,
    // this skip line says it instead.
    const uniqueKey = (request as { uniqueKey?: unknown } | undefined)?.uniqueKey;
    if (typeof uniqueKey === 'string') refusals.add(uniqueKey);
    error.stack = `${error.name}: ${error.message}`;
    log.info(
      `Skipped (robots.txt): ${error.url}, the redirect target of ${url} (${describe(error.decision)})`,
    );
    emit({ type: 'redirect-denied', url, error });
    if (reported.first(error.url)) await userSkipped?.({ url: error.url, reason: 'robotsTxt' });
  };

  // The slots the request manager obtains are lent to their request's first hop (HTTP client or
  // browser gate's route). The steal function runs once the crawl does: `requestQueue` exists.
  const leases = new SlotLeases(policy, (origin) => requestQueue.stealReady(origin));
  const pacer: RequestPacer = {
    ticket: (url) => takeTicket(policy, url),
    lend: (request, ticket) => leases.lend(request, ticket),
    settle: (request) => leases.settle(request),
    offer: (origin, ticket) => leases.offer(origin, ticket),
    maxWaitingRequests: resolved.maxWaitingRequests,
  };
  const browser = resolved.browser?.withPolicy(leases.policy);

  const requestQueue = new PoliteRequestManager(
    () => openQueue(options, resolved),
    {
      decide: (url) => policy.check(url),
      peek: (url) => policy.peek(url),
      skipped,
    },
    pacer,
  );

  const httpClient = new PoliteHttpClient({
    options: { ...resolved, policy: leases.policy },
    // With `cache`, hops go through the policy's transport (undici's cache and deduplication).
    inner:
      resolved.cache.store === false
        ? (options.httpClient ?? new GotScrapingHttpClient())
        : new TransportHttpClient(adapterDispatcher(policy.dispatcher, resolved.cache.store)),
    transport: resolved.cache.store !== false,
    navigations,
    onRedirectDenied: async (owner, error) => denied(error.originalUrl ?? '', error, owner),
  });

  // The first request shows the crawler's own Configuration: too late to open the queue with it,
  // but a queue opened with another one is said out loud, once.
  let configChecked = options.requestQueue !== undefined;
  const checkConfig = (context: ContextLike): void => {
    if (configChecked) return;
    configChecked = true;
    const own = context.crawler?.config;
    if (own === undefined || own === resolved.config) return;
    log.warning(
      'The crawler has a Configuration of its own, but the adapter opened the default request queue with another one (the global one unless you pass { config }): build the crawler with politeCrawler(Crawler, policy, options, config), or pass a requestQueue',
    );
  };

  const preNavigation = async (
    context: ContextLike,
    navigationOptions: Record<PropertyKey, unknown>,
  ): Promise<void> => {
    checkConfig(context);
    if (context.crawler?.log !== undefined) quietRefusals(context.crawler.log, refusals);
    if (context.page !== undefined) {
      if (browser === undefined) {
        throw new Error(
          'politeCrawlee: a browser crawler needs the `browser` option (createPlaywrightGate({ policy }) from @polite-crawler/playwright); refusing to browse ungated',
        );
      }
      // The page's whole browser context: popups and other pages it opens are gated too.
      const page = context.page as { context?: () => unknown };
      await browser.attach(typeof page.context === 'function' ? page.context() : page);
      return;
    }
    navigationOptions[CRAWLEE_REQUEST] = context.request;
  };

  const readRobots = async (context: ContextLike): Promise<PageRobots> => {
    if (context.page === undefined || browser === undefined) {
      return readHttpRobots(context, navigations.get(context.request), resolved);
    }
    if (context.response !== undefined && context.response !== null) {
      return browser.robots(context.response);
    }
    // A browser page without a response: nothing to read but its URL.
    return readHttpRobots(
      context,
      { url: context.request.url, redirects: [], headers: [] },
      resolved,
    );
  };

  const requestHandler = async (context: ContextLike): Promise<unknown> => {
    if (context.request.skipNavigation !== true) {
      const robots = await readRobots(context);
      context.robots = robots;
      // The gate hands the browser the final response for the URL it asked for, so `page.url()`
      // (which Crawlee copied into `loadedUrl`) is still the first URL after redirects: the
      // crawler gets the final one, which `enqueueLinks` resolves relative links against.
      if (context.page !== undefined && robots.url !== '') context.request.loadedUrl = robots.url;
      const { directives } = robots;
      // `noindex` is true too when `unavailable_after` has passed (the policy's clock decides).
      if (resolved.noindex === 'reject' && directives.noindex) {
        log.info(`Not handled (noindex): ${context.request.url}`);
        emit({ type: 'noindex-skipped', url: context.request.url, robots });
        return undefined;
      }
      const categories = resolved.skipUsage.filter(
        (category) => robots.usage[category] === 'disallowed',
      );
      if (categories.length > 0) {
        log.info(`Not handled (usage ${categories.join(', ')} disallowed): ${context.request.url}`);
        emit({ type: 'usage-skipped', url: context.request.url, categories, robots });
        return undefined;
      }
    }
    const handler = userHandler ?? (context.crawler?.router as Handler | undefined);
    return handler?.(context);
  };
  // Router-aware features (userData schemas) read `getSchema` off the request handler.
  const getSchema = (userHandler as { getSchema?: unknown } | undefined)?.getSchema;
  if (typeof getSchema === 'function') {
    Object.assign(requestHandler, { getSchema: getSchema.bind(userHandler) as unknown });
  }

  const errorHandler = async (context: ContextLike, error: unknown): Promise<unknown> => {
    // Only a navigation the gate blocked has the page's recorded refusal as its reason (a
    // refusal of a script's navigation must not make an unrelated error final).
    const blocked = error instanceof Error && error.message.includes('ERR_BLOCKED_BY_CLIENT');
    const refusal = isRobotsDeniedError(error)
      ? error
      : context.page !== undefined && blocked
        ? browser?.deniedNavigation(context.page)
        : undefined;
    if (refusal !== undefined) {
      // A refusal does not change on retry: fail now.
      context.request.noRetry = true;
      if (!isRobotsDeniedError(error)) await denied(context.request.url, refusal, context.request);
    }
    return userErrorHandler?.(context, error);
  };

  const { requestQueue: _queue, ...rest } = options;
  return {
    ...rest,
    requestQueue,
    httpClient,
    preNavigationHooks: [preNavigation, ...(options.preNavigationHooks ?? [])],
    requestHandler,
    errorHandler,
    ...(userSkipped === undefined ? {} : { onSkippedRequest: userSkipped }),
  };
}
