import type { Dispatcher } from 'undici';
import type { UsageCategory } from '@polite-crawler/robots-tag';
import type { Pacer } from '../pacing/pacer.js';
import type { PoliteEvent } from '../policy/events.js';
import type { RobotsPolicy } from '../policy/robots-policy.js';
import type { RobotsStore } from '../robots/robots-store.js';
import type { Clock } from '../time/clock.js';

/**
 * Options of {@link createRobotsPolicy}. Each default and limit is written once, in the option
 * table (`option-table.ts`), and exported as `DEFAULTS` and `OPTION_BOUNDS`.
 * @example
 * const options: RobotsPolicyOptions = { userAgent: 'ExampleBot/1.0 (+https://example.com/bot)', minInterval: 2_000 };
 */
export interface RobotsPolicyOptions {
  /**
   * The full User-Agent header sent with robots.txt and page requests. Required.
   * @example 'ExampleBot/1.0 (+https://example.com/bot)'
   */
  readonly userAgent: string;
  /**
   * The product token matched against robots.txt `user-agent` lines. Derived from
   * `userAgent` when it names exactly one product (`ExampleBot/1.0 (+https://…)` →
   * `ExampleBot`); otherwise required. Must be a valid RFC 9309 product token and a
   * case-insensitive substring of `userAgent`.
   * @default derived from userAgent
   * @example 'ExampleBot'
   */
  readonly productToken?: string;
  /**
   * The crawler's purpose token (draft-illyes-rep-purpose), matched against
   * `user-agent-purpose` lines. Must appear in `userAgent`.
   * @default undefined
   * @example 'search'
   */
  readonly purpose?: string;
  /**
   * The undici dispatcher used for robots.txt and, unless a request passes its own, for pages
   * (proxies, TLS settings, connection limits). An undici 7 dispatcher.
   * @default undici's global dispatcher when it is this undici's (set with `setGlobalDispatcher`),
   * else an Agent shared by the process (Node's built-in fetch may register its own undici 6
   * Agent, which cannot carry this package's interceptors)
   */
  readonly dispatcher?: Dispatcher;
  /**
   * Time to wait for the robots.txt response headers, ms.
   * @default 10_000
   */
  readonly robotsHeadersTimeout?: number;
  /**
   * Longest silence while reading the robots.txt body, ms.
   * @default 10_000
   */
  readonly robotsBodyTimeout?: number;
  /**
   * Overall time for one robots.txt fetch including redirects and body (clock ms).
   * @default 30_000
   */
  readonly robotsTimeout?: number;
  /**
   * Bytes of robots.txt read (decompressed); the rest is ignored. At least 512000 (500 KiB).
   * @default 512_000
   */
  readonly robotsMaxBytes?: number;
  /**
   * Redirects followed when fetching robots.txt (RFC 9309: at least 5). More → unavailable.
   * @default 5
   */
  readonly robotsMaxRedirects?: number;
  /**
   * Longest time a fetched robots.txt is used before it is revalidated, ms (RFC 9309 §2.4).
   * `Cache-Control: max-age` may shorten it.
   * @default 86_400_000
   */
  readonly robotsMaxTtl?: number;
  /**
   * Shortest time a fetched robots.txt is used, ms, even when `Cache-Control` says `max-age=0`
   * or `no-cache`, so that no origin gets one robots.txt request per page.
   * @default 60_000
   */
  readonly robotsMinTtl?: number;
  /**
   * How long an unreachable result is cached before robots.txt is tried again, ms.
   * @default 60_000
   */
  readonly unreachableRetryInterval?: number;
  /**
   * Cap on a robots.txt `Retry-After` that asks to wait longer than `unreachableRetryInterval`, ms.
   * @default 3_600_000
   */
  readonly maxUnreachableRetryInterval?: number;
  /**
   * How long a good copy keeps being served while the origin is unreachable, counted from when
   * it was fetched, ms. 0 disables stale serving.
   * @default 2_592_000_000 (30 days)
   */
  readonly staleIfUnreachable?: number;
  /**
   * Treat a 429 answer to robots.txt as unreachable (disallow all), like 5xx.
   * `false` treats it as any other 4xx (allow all).
   * @default true
   */
  readonly treat429AsUnreachable?: boolean;
  /**
   * Origins kept in the in-memory robots.txt cache (LRU).
   * @default 10_000
   */
  readonly maxOrigins?: number;
  /**
   * Secondary store for robots.txt outcomes (e.g. shared Redis). Without one, the bounded
   * in-memory LRU is the store.
   * @default undefined
   */
  readonly store?: RobotsStore;
  /**
   * Grants the per-origin pacing slots. The default is an in-memory scheduler built from
   * this policy's `clock`, `concurrency`, `minInterval`, crawl-delay and `maxTrackedOrigins`;
   * a fleet pacer (`@polite-crawler/redis`) applies them fleet-wide. A pacer given here is the
   * caller's to close: `policy.close()` ends this policy's waits on it, not the pacer.
   * @default the in-memory scheduler
   */
  readonly pacer?: Pacer;
  /**
   * Longest wait for one `store` call, ms: a slower call (or one that throws or rejects) counts
   * as an empty store for that lookup, and a write is given up on.
   * @default 2_000
   */
  readonly storeTimeout?: number;
  /**
   * Requests in flight per origin (counted until the response headers arrive).
   * @default 1
   */
  readonly concurrency?: number;
  /**
   * Minimum ms between the starts of two requests to one origin.
   * @default 1_000
   */
  readonly minInterval?: number;
  /**
   * Whether robots.txt `crawl-delay` widens the spacing between requests to an origin.
   * @default 'honor'
   */
  readonly crawlDelay?: 'honor' | 'ignore';
  /**
   * Cap on an honoured crawl-delay, ms.
   * @default 30_000
   */
  readonly maxCrawlDelay?: number;
  /**
   * Cap on the pause a page's 429/503 `Retry-After` imposes on its origin, ms.
   * @default 600_000
   */
  readonly maxRetryAfter?: number;
  /**
   * Origins whose pacing state is kept while idle (LRU beyond that).
   * @default 10_000
   */
  readonly maxTrackedOrigins?: number;
  /** Time source. @default the system clock */
  readonly clock?: Clock;
  /** Called synchronously with one state object per event; exceptions are swallowed. */
  readonly onEvent?: (event: PoliteEvent) => void;
}

/**
 * Options of {@link createPoliteFetch}: the policy's options, or a shared policy, plus page options.
 * @example
 * createPoliteFetch({ policy, noindex: 'reject' } satisfies PoliteFetchOptions);
 */
export type PoliteFetchOptions = (
  (RobotsPolicyOptions & { readonly policy?: never }) | SharedPolicyOptions
) &
  PageOptions;

/**
 * A shared policy in place of the options that make one: it has its own, so giving any of them
 * beside it is an error (a type error, and {@link RobotsInvalidOptionError} at run time).
 * @example
 * createPoliteFetch({ policy, maxRedirects: 5 });
 */
export type SharedPolicyOptions = { readonly policy: RobotsPolicy } & {
  readonly [Name in keyof RobotsPolicyOptions]?: never;
};

/**
 * Per usage category (draft-ietf-aipref-vocab), what a `disallowed` page does.
 * @example
 * createPoliteFetch({ userAgent, usage: { 'train-ai': 'reject' } satisfies UsageActions });
 */
export type UsageActions = { readonly [Category in UsageCategory]?: 'annotate' | 'reject' };

/**
 * Options about the pages themselves (not robots.txt).
 * @example
 * createPoliteFetch({ userAgent, maxRedirects: 5, scanMeta: false });
 */
export interface PageOptions {
  /**
   * Redirects followed for a page (each hop gated by its origin's robots.txt).
   * @default 20
   */
  readonly maxRedirects?: number;
  /**
   * What a page whose directives say `noindex` (or whose `unavailable_after` has passed) does:
   * `annotate` returns it with `response.robots.noindex === true`; `reject` rejects with
   * {@link RobotsNoIndexError} and discards the body.
   * @default 'annotate'
   */
  readonly noindex?: 'annotate' | 'reject';
  /**
   * What the crawler does with a page whose combined usage preference (robots.txt
   * `Content-Usage` / `Content-Signal` for the URL, plus the response's `Content-Usage` field)
   * is `disallowed`, per category it declares a use for: `annotate` returns it with
   * `response.usage[category] === 'disallowed'`; `reject` rejects with {@link RobotsUsageError}
   * and discards the body. Categories left out are annotated only.
   * @default {} (annotate only)
   */
  readonly usage?: UsageActions;
  /**
   * Read `<meta name="robots">` / `<meta name="<token>">` in the `<head>` of HTML responses.
   * @default true
   */
  readonly scanMeta?: boolean;
  /**
   * Bytes of an HTML body read (and buffered for replay) looking for the end of `<head>`.
   * @default 262_144
   */
  readonly maxHeadBytes?: number;
}
