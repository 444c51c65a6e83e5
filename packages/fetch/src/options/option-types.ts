import type { Dispatcher } from 'undici';
import type { UsageCategory } from '@polite-crawler/robots-txt';
import type { Pacer } from '../pacing/pacer.js';
import type { PoliteEvent } from '../policy/events.js';
import type { RobotsPolicy } from '../policy/robots-policy.js';
import type { RobotsStore } from '../robots/robots-store.js';
import type { SignatureOptions } from '../signature/request-signer.js';
import type { HttpCacheStore } from '../transport/http-cache.js';
import type { Clock } from '../time/clock.js';

/**
 * Options of {@link createRobotsPolicy}. Each default and limit is written once, in the option
 * table (`option-table.ts`); the README's options table is generated from these comments
 * (`pnpm run docs:options`). Times are milliseconds.
 * @example
 * const options: RobotsPolicyOptions = { userAgent: 'ExampleBot/1.0 (+https://example.com/bot)', minInterval: 2_000 };
 */
export interface RobotsPolicyOptions {
  /**
   * The `User-Agent` of robots.txt and page requests.
   * @example 'ExampleBot/1.0 (+https://example.com/bot)'
   */
  readonly userAgent: string;
  /**
   * Matched against robots.txt `user-agent` lines. Derived when `userAgent` names exactly one
   * product (`ExampleBot/1.0 (+https://…)` → `ExampleBot`; not `Mozilla/…`), else required. A
   * valid RFC 9309 product token (`[A-Za-z_-]+`), found in `userAgent` in any case.
   * @default derived from `userAgent`
   * @example 'ExampleBot'
   */
  readonly productToken?: string;
  /**
   * Purpose token of `user-agent-purpose` groups (draft-illyes-rep-purpose), found in `userAgent`.
   * @default undefined
   * @example 'search'
   */
  readonly purpose?: string;
  /**
   * The dispatcher of robots.txt requests and (unless a request passes its own) page requests:
   * proxies, TLS settings, connection limits. undici 8's and undici 7's dispatchers work (both
   * take undici 8's handler API); one without `dispatch` and `compose`, or one that throws when
   * handed a request (undici 6's, which Node 22 bundles), is refused with
   * `ERR_ROBOTS_INVALID_OPTION` naming `dispatcher` before anything is sent.
   * @default the global dispatcher (`setGlobalDispatcher`; Node 24's and 26's own Agent work too)
   * @example new ProxyAgent(url)
   */
  readonly dispatcher?: Dispatcher;
  /**
   * Wait for robots.txt response headers, ms. undici checks it on a coarse clock: it fires up to
   * about a second late (`robotsTimeout` is exact).
   * @default 10_000
   * @example 5_000
   */
  readonly robotsHeadersTimeout?: number;
  /**
   * Longest silence while reading the robots.txt body, ms (coarse, as `robotsHeadersTimeout`).
   * @default 10_000
   * @example 5_000
   */
  readonly robotsBodyTimeout?: number;
  /**
   * Whole robots.txt fetch, redirects and body included, ms (on `clock`).
   * @default 30_000
   * @example 15_000
   */
  readonly robotsTimeout?: number;
  /**
   * Decompressed bytes of robots.txt read; the rest is ignored. At least 500 KiB (RFC 9309 §2.5).
   * @default 512_000
   * @example 1_048_576
   */
  readonly robotsMaxBytes?: number;
  /**
   * Redirects followed for robots.txt (RFC 9309 §2.3.1.2: at least 5); more → unavailable.
   * @default 5
   * @example 10
   */
  readonly robotsMaxRedirects?: number;
  /**
   * Longest use of a fetched robots.txt before it is revalidated, ms (RFC 9309 §2.4: 24 h at
   * most); `Cache-Control: max-age` (less its `Age`) may shorten it. An entry read from a
   * `store` counts from its fetch time, or from when this process first read it if its writer
   * dated it later (a writer's clock may be wrong).
   * @default 86_400_000
   * @example 3_600_000
   */
  readonly robotsMaxTtl?: number;
  /**
   * Shortest use of a fetched robots.txt, ms, even with `max-age=0` / `no-cache`, so that no
   * origin gets one robots.txt request per page. Left out, it is at most `robotsMaxTtl`.
   * @default 60_000
   * @example 300_000
   */
  readonly robotsMinTtl?: number;
  /**
   * How long an unreachable result is cached before robots.txt is tried again, ms. Left out, it
   * is at most `maxUnreachableRetryInterval`.
   * @default 60_000
   * @example 30_000
   */
  readonly unreachableRetryInterval?: number;
  /**
   * Cap on a robots.txt `Retry-After` that asks to wait longer than `unreachableRetryInterval`,
   * ms. Left out, it is at least `unreachableRetryInterval`.
   * @default 3_600_000
   * @example 600_000
   */
  readonly maxUnreachableRetryInterval?: number;
  /**
   * How long (since it was fetched, or first read from a `store` if dated later) a good copy is
   * served while the origin is unreachable, ms; 0 = never.
   * @default 2_592_000_000 (30 days)
   * @example 0
   */
  readonly staleIfUnreachable?: number;
  /**
   * A robots.txt 429 disallows all (like 5xx); `false` treats it as 4xx (allow all).
   * @default true
   * @example false
   */
  readonly treat429AsUnreachable?: boolean;
  /**
   * Origins in the in-memory robots.txt LRU. The least recently used goes first, except that an
   * unreachable origin whose retry is not due yet goes after all the others (dropping it would
   * send the next check's robots.txt fetch to the failing server early).
   * @default 10_000
   * @example 100_000
   */
  readonly maxOrigins?: number;
  /**
   * Secondary (shared) store for robots.txt outcomes, e.g. Redis. Without one, the bounded
   * in-memory LRU is the store.
   * @default undefined
   * @example createMemoryRobotsStore()
   */
  readonly store?: RobotsStore;
  /**
   * Grants the per-origin pacing slots: by default an in-memory scheduler built from `clock`,
   * `concurrency`, `minInterval`, crawl-delay and `maxTrackedOrigins`; a fleet pacer
   * (`@polite-crawler/redis`) applies them fleet-wide. The caller closes a pacer given here
   * (`policy.close()` only ends this policy's waits on it). A fleet's pacer and store (branded
   * `Symbol.for('polite-crawler.fleet')`) go together: one without the other (its own fleet's)
   * throws {@link RobotsInvalidOptionError} (option `store`).
   * @default the in-memory scheduler
   * @example fleet.policyOptions.pacer
   */
  readonly pacer?: Pacer;
  /**
   * Longest wait for one `store` call, ms: a slower, throwing or rejecting call counts as an
   * empty store for that lookup (a write is given up on).
   * @default 2_000
   * @example 500
   */
  readonly storeTimeout?: number;
  /**
   * Requests in flight per origin, on every path (`politeFetch`, `politeInterceptor`, the
   * adapters): a request counts from its start until its response body has ended at the
   * transport (all of it received, or cancelled, destroyed or failed), at most `maxBodyHold`
   * after its headers (README: "What `concurrency` counts").
   * @default 1
   * @example 4
   */
  readonly concurrency?: number;
  /**
   * Longest time a request keeps counting toward `concurrency` after its response headers while
   * its body has not ended, ms: a body nobody reads (undici stops reading it from the socket)
   * then frees its origin's slot; the body stays readable. 0 counts a request until its headers
   * only.
   * @default 60_000
   * @example 10_000
   */
  readonly maxBodyHold?: number;
  /**
   * Minimum time between the starts of two requests to one origin, ms.
   * @default 1_000
   * @example 250
   */
  readonly minInterval?: number;
  /**
   * Whether robots.txt `crawl-delay` widens the interval between requests to an origin.
   * @default 'honor'
   * @example 'ignore'
   */
  readonly crawlDelay?: 'honor' | 'ignore';
  /**
   * Cap on an honoured crawl-delay, ms.
   * @default 30_000
   * @example 10_000
   */
  readonly maxCrawlDelay?: number;
  /**
   * Cap on the pause a page's 429/503 `Retry-After` imposes on its origin, ms. An HTTP-date
   * counts from the response's `Date` (the server's clock), or from `clock` without a valid one.
   * @default 600_000
   * @example 60_000
   */
  readonly maxRetryAfter?: number;
  /**
   * Cap on the back-off after distress outcomes, ms; 0 turns back-off off. Distress is a 500,
   * 502 or 504, a 503 or 429 without `Retry-After` (with one, its pause wins), a 408, a
   * connection error or a timeout: after the k-th in a row the origin's starts are 2^k times its interval
   * apart (1 s when the interval is shorter), and each success halves that until the origin is
   * back to its interval (eight successes at most). The default, one minute, is Crawlee's cap:
   * one request a minute is no load for any server, a failing origin is still probed often
   * enough to notice its recovery within minutes, and from the cap eight successes recover.
   * @default 60_000
   * @example 300_000
   */
  readonly maxBackoff?: number;
  /**
   * Starts to one origin are at least this many times its smoothed response time apart (the
   * time to response headers; an exponentially weighted moving average, each new response
   * weighing 0.3), never closer than `minInterval` or Crawl-delay. 1: on average at most one
   * request's worth of the server's time is taken at once, whatever `concurrency` allows; 0
   * turns it off. A number from 0 to 100.
   * @default 1
   * @example 2
   */
  readonly latencyFactor?: number;
  /**
   * Idle origins whose pacing state is kept (least recently used dropped; an origin still paused
   * by `Retry-After`, spaced by the interval or backed off goes after those with nothing left to
   * wait for).
   * @default 10_000
   * @example 100_000
   */
  readonly maxTrackedOrigins?: number;
  /**
   * Time source for waits, TTLs and the robots.txt timeout; inject one in tests.
   * @default `systemClock`
   * @example { now, sleep }
   */
  readonly clock?: Clock;
  /**
   * Called synchronously with one state object per event; exceptions (and an async hook's
   * rejections) are swallowed.
   * @default undefined
   * @example (e) => log(e)
   */
  readonly onEvent?: (event: PoliteEvent) => void;
  /**
   * Web Bot Auth: sign every request the package sends (robots.txt, each page hop, interceptor
   * requests, the Crawlee HTTP client, the Playwright route handler) with HTTP Message
   * Signatures (RFC 9421, `tag="web-bot-auth"`, `keyid` the key's JWK thumbprint, `created`,
   * `expires` 5 minutes later, a nonce), using Cloudflare's `web-bot-auth`. `key`: an Ed25519
   * private JWK; `agent`: the URL of the crawler's key directory, sent (and signed) as
   * `Signature-Agent`. A bad key or agent is {@link RobotsInvalidOptionError} naming `signature`
   * (the error never carries the key). `polite keys` (CLI) makes a key pair and its directory.
   * @default undefined (unsigned)
   * @example { key: privateJwk, agent: 'https://example.com/.well-known/http-message-signatures-directory' }
   */
  readonly signature?: SignatureOptions;
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
 * A shared policy in place of the options that make one.
 * @example
 * createPoliteFetch({ policy, maxRedirects: 5 });
 */
export type SharedPolicyOptions = {
  /**
   * `createPoliteFetch` and `politeInterceptor`: use this policy instead of the policy options;
   * giving any of them beside it is an error (a type error, and at run time
   * {@link RobotsInvalidOptionError}, `ERR_ROBOTS_INVALID_OPTION`, option `policy`), as the
   * policy has its own.
   * @default undefined
   * @example createRobotsPolicy({...})
   */
  readonly policy: RobotsPolicy;
} & { readonly [Name in keyof RobotsPolicyOptions]?: never };

/**
 * Per usage category (draft-ietf-aipref-vocab), what a `disallowed` page does.
 * @example
 * createPoliteFetch({ userAgent, usage: { 'train-ai': 'reject' } satisfies UsageActions });
 */
export type UsageActions = { readonly [Category in UsageCategory]?: 'annotate' | 'reject' };

/**
 * Options about the pages themselves (not robots.txt), of {@link createPoliteFetch} only.
 * @example
 * createPoliteFetch({ userAgent, maxRedirects: 5, scanMeta: false });
 */
export interface PageOptions {
  /**
   * Page redirects followed (each hop gated by its origin's robots.txt).
   * @default 20
   * @example 5
   */
  readonly maxRedirects?: number;
  /**
   * What a page whose directives say `noindex` (header or meta; or whose `unavailable_after` has
   * passed) does: `annotate` returns it with `response.robots.noindex === true`; `reject` rejects
   * with {@link RobotsNoIndexError} and discards the body.
   * @default 'annotate'
   * @example 'reject'
   */
  readonly noindex?: 'annotate' | 'reject';
  /**
   * Per usage category the crawler declares (`'train-ai'`, `'ai-use'`, `'search'`), what a
   * page whose combined usage preference (robots.txt `Content-Usage` / `Content-Signal` for the
   * URL, plus the response's `Content-Usage` field) is `disallowed` does: `annotate` returns it with
   * `response.usage[category] === 'disallowed'`; `reject` rejects with {@link RobotsUsageError}
   * and discards the body. Categories left out are annotated only; another key is refused
   * (`ERR_ROBOTS_INVALID_OPTION`). Each category is judged on its own value: `search`
   * overriding the others (vocab-08) says which one governs a use, so declare the categories
   * your use falls under (a RAG answer engine: `'ai-use'`).
   * @default {} (annotate only)
   * @example { 'train-ai': 'reject', 'ai-use': 'reject' }
   */
  readonly usage?: UsageActions;
  /**
   * Read `<meta name="robots">` / `<meta name="<token>">` in the `<head>` of HTML responses.
   * @default true
   * @example false
   */
  readonly scanMeta?: boolean;
  /**
   * Bytes of an HTML body read (and held for replay) while looking for the end of `<head>`.
   * @default 262_144
   * @example 65_536
   */
  readonly maxHeadBytes?: number;
  /**
   * Longest wait for one page request (each redirect hop apart), from sending it until its
   * response headers and, for HTML, its `<head>` are in, ms — when the call gives no `signal`
   * (a call's own `signal` is the caller's limit, as with fetch). On `clock`. The body after
   * that is the caller's to read (undici's own `bodyTimeout` still applies).
   * @default 60_000
   * @example 15_000
   */
  readonly responseTimeout?: number;
  /**
   * HTTP caching (RFC 9111) of pages with undici's own cache interceptor: `true` is a bounded
   * in-memory store (1,024 responses, 64 MiB, 4 MiB a response), or pass an undici cache store
   * (`new cacheStores.SqliteCacheStore({ location })` for a crawl that restarts); `false` turns
   * it off. A fresh copy is served without a request; a stale one is revalidated
   * (`If-None-Match` / `If-Modified-Since`) and a 304 gives the stored body with status 200.
   * Identical GETs in flight at once are sent once (undici's `deduplicate`). The gate and the
   * pacing slot come first: a URL robots.txt disallows is refused even when cached, and a cached
   * answer still takes its slot, but is not noted as the origin's response (it eases no back-off
   * and is no response time). `true`'s store drops the least recently used entries, down to half
   * its bounds, once one response more would pass them; a bigger response is not stored.
   * @default true
   * @example new cacheStores.SqliteCacheStore({ location: 'crawl-cache.db' })
   */
  readonly cache?: boolean | HttpCacheStore;
}
