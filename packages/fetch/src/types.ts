/**
 * Public types of @polite-crawler/fetch. This file is the contract the adapters and the CLI
 * build on: add fields freely, never remove or rename one.
 */
import type { Dispatcher, RequestInit as UndiciRequestInit, Response } from 'undici';
import type { MatchedRule, Verdict } from '@polite-crawler/robots-txt';
import type { RobotsDirectives, RobotsTagRules } from '@polite-crawler/robots-tag';

export type { MatchedRule, Verdict } from '@polite-crawler/robots-txt';
export type { RobotsDirectives, RobotsTagRules } from '@polite-crawler/robots-tag';

// ---------------------------------------------------------------------------------------------
// Time
// ---------------------------------------------------------------------------------------------

/**
 * The source of time for every wait, TTL and timeout the policy applies. Inject one in tests
 * so that nothing ever really waits.
 * @example
 * const clock: Clock = { now: () => Date.now(), sleep: (ms, signal) => setTimeout(ms, undefined, { signal }) };
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds of this clock's time; rejects with `signal.reason` when
   * `signal` aborts first.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// robots.txt outcomes and the store
// ---------------------------------------------------------------------------------------------

/**
 * How robots.txt was obtained (RFC 9309 §2.3.1):
 * - `ok`: a 2xx body was read and parsed; its rules apply.
 * - `unavailable`: 4xx (except 429 by default) or too many redirects; everything is allowed.
 * - `unreachable`: 5xx, 429, network/TLS/DNS failure or timeout; everything is disallowed
 *   (unless a good copy from the last 30 days is still served: see {@link Decision.stale}).
 * @example
 * if (explanation.robotsTxt.status === ('unreachable' satisfies RobotsStatus)) retryLater();
 */
export type RobotsStatus = 'ok' | 'unavailable' | 'unreachable';

/**
 * Why a robots.txt fetch was not a plain success.
 * @example
 * if (explanation.robotsTxt.latest.failure?.kind === ('dns' satisfies RobotsFailureKind)) checkHostName();
 */
export type RobotsFailureKind =
  | 'http-status' // a status mapped to unavailable/unreachable
  | 'too-many-redirects'
  | 'redirect-loop'
  | 'invalid-redirect' // missing/unparseable Location, or a non-http(s) target
  | 'dns'
  | 'connect' // refused, unreachable host
  | 'reset' // connection reset or closed mid-response
  | 'tls'
  | 'timeout' // headers, body or overall timeout
  | 'network'; // any other transport failure

/**
 * @example
 * const failure: RobotsFetchFailure | undefined = explanation.robotsTxt.latest.failure;
 */
export interface RobotsFetchFailure {
  readonly kind: RobotsFailureKind;
  /** Human-readable detail, e.g. the underlying error message or `HTTP 503`. */
  readonly message: string;
  /** The underlying error code, when there was one (`ECONNREFUSED`, `ENOTFOUND`, ...). */
  readonly code?: string;
}

/**
 * The outcome of the latest robots.txt fetch attempt for one origin. JSON-serialisable.
 * @example
 * const { status, httpStatus }: RobotsFetchRecord = explanation.robotsTxt.latest;
 */
export interface RobotsFetchRecord {
  readonly status: RobotsStatus;
  /** Final HTTP status, when a response was received. */
  readonly httpStatus?: number;
  /** The `Location` targets followed, in order (absolute URLs). */
  readonly redirects: readonly string[];
  /** When the attempt finished (clock ms). */
  readonly fetchedAt: number;
  readonly failure?: RobotsFetchFailure;
  /** A `Retry-After` on a 429/5xx answer, in ms, before capping. */
  readonly retryAfterMs?: number;
}

/**
 * The last successfully fetched (2xx) robots.txt of an origin. JSON-serialisable.
 * @example
 * const text = Buffer.from(stored.good!.body, 'base64').toString('utf8');
 */
export interface RobotsGoodCopy {
  /** The bytes read (at most the byte limit), base64-encoded. */
  readonly body: string;
  readonly bytes: number;
  /** Whether the body was cut at the byte limit. */
  readonly truncated: boolean;
  readonly httpStatus: number;
  readonly redirects: readonly string[];
  /** When it was fetched or last revalidated with a 304 (clock ms). */
  readonly fetchedAt: number;
  readonly etag?: string;
  readonly lastModified?: string;
  /**
   * The `Cache-Control: max-age` (ms) the copy came with, kept for its revalidations: a 304
   * without one leaves it in force (RFC 9111 §4.3.4).
   */
  readonly maxAge?: number;
}

/**
 * What a {@link RobotsStore} holds for one origin: plain JSON, so that a shared store (Redis)
 * can hold it too.
 * @example
 * const entry: StoredRobots | undefined = await store.get('https://example.com');
 */
export interface StoredRobots {
  readonly version: 1;
  /** `scheme://authority/robots.txt` of the origin. */
  readonly robotsUrl: string;
  readonly latest: RobotsFetchRecord;
  /** The last 2xx copy, kept to be served while the origin is unreachable (up to `staleIfUnreachable`). */
  readonly good?: RobotsGoodCopy;
  /** When this entry must be refreshed (clock ms). */
  readonly expiresAt: number;
}

/**
 * Where robots.txt outcomes are kept between requests. Async so that a shared store can back
 * a fleet of crawlers. The policy always keeps a bounded in-memory LRU of parsed entries in
 * front of it; without a `store`, that LRU is the only storage.
 * @example
 * const store: RobotsStore = createMemoryRobotsStore({ maxOrigins: 50_000 });
 */
export interface RobotsStore {
  get(origin: string): Promise<StoredRobots | undefined>;
  set(origin: string, entry: StoredRobots): Promise<void>;
  delete(origin: string): Promise<void>;
  /**
   * Optional, for stores shared by several processes: called when this process is about to
   * fetch robots.txt for `origin` (nothing usable stored, or the stored copy expired). Resolves
   * `{ fetch: true, release }` when this process should fetch (it then `set`s the result and
   * calls `release()`); resolves `{ fetch: false }` once another process has stored a new
   * entry for `origin` (this process then reads it with `get`). Rejects on `signal` abort.
   * A claim left by a process that died expires on its own.
   */
  claimFetch?(origin: string, signal?: AbortSignal): Promise<RobotsFetchClaim>;
}

/**
 * The answer of {@link RobotsStore.claimFetch}: fetch robots.txt yourself (and `release()` the
 * claim once the outcome is stored), or read what another process stored.
 * @example
 * const claim: RobotsFetchClaim = await store.claimFetch!(origin);
 * if (claim.fetch) try { await fetchAndStore(); } finally { await claim.release(); }
 */
export type RobotsFetchClaim =
  { readonly fetch: true; release(): Promise<void> } | { readonly fetch: false };

/**
 * One process's own pacing settings for an origin; in a fleet the strictest applies to everyone.
 * @example
 * const rules: PaceRules = { concurrency: 1, interval: 1_000 };
 */
export interface PaceRules {
  /** Requests of this origin in flight at once (>= 1). */
  readonly concurrency: number;
  /** Minimum ms between two starts on this origin: max(minInterval, capped Crawl-delay). */
  readonly interval: number;
}

/**
 * A granted slot. `release()` gives it back; idempotent (a second call does nothing).
 * @example
 * const slot = await pacer.acquire(origin, rules);
 * try { await work(); } finally { slot.release(); }
 */
export interface PacerSlot {
  release(): void;
}

/**
 * Grants per-origin slots. The in-memory scheduler is the default; a fleet pacer (Redis)
 * replaces it through the policy option `pacer`.
 * @example
 * const policy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0', pacer, store });
 */
export interface Pacer {
  /**
   * A slot of `origin` under `rules`. May return the slot synchronously when it is free now.
   * Rejects with `signal.reason` when `signal` aborts first, and with the pacer's close reason
   * after `close()`. A request "starts" when this resolves.
   */
  acquire(origin: string, rules: PaceRules, signal?: AbortSignal): PacerSlot | Promise<PacerSlot>;
  /** Retry-After: no slot of `origin` starts for the next `ms` milliseconds (longest pause wins). */
  pause(origin: string, ms: number): void;
  /** Rejects every waiter with `reason`, gives back every held slot. */
  close(reason: Error): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Decisions
// ---------------------------------------------------------------------------------------------

/**
 * Why a URL is allowed or not:
 * - `allowed`: robots.txt was read and allows the URL (including `/robots.txt` itself).
 * - `disallowed`: a robots.txt rule disallows it (see `rule`).
 * - `unavailable`: robots.txt is unavailable (4xx, too many redirects): everything is allowed.
 * - `unreachable`: robots.txt could not be fetched and no good copy is usable: everything is disallowed.
 * @example
 * if (decision.reason === ('unreachable' satisfies DecisionReason)) retryLater();
 */
export type DecisionReason = 'allowed' | 'disallowed' | 'unavailable' | 'unreachable';

/**
 * Why a request was refused:
 * - `disallowed`: a robots.txt rule disallows the URL.
 * - `unreachable`: robots.txt could not be fetched (disallow all).
 * - `redirect-disallowed`: a redirect hop's target is refused by its own origin's robots.txt
 *   (the error's `decision` says why); the hop was never requested.
 * @example
 * if (error.reason === ('redirect-disallowed' satisfies DeniedReason)) console.log(error.originalUrl);
 */
export type DeniedReason = 'disallowed' | 'unreachable' | 'redirect-disallowed';

/**
 * The answer to "may this crawler fetch this URL?".
 * @example
 * const { allowed, reason, line }: Decision = await policy.check('https://example.com/private');
 */
export interface Decision {
  readonly allowed: boolean;
  /** The URL that was checked, serialised. */
  readonly url: string;
  /** `scheme://authority` of the URL. */
  readonly origin: string;
  readonly reason: DecisionReason;
  /** The deciding robots.txt rule, when a rule decided. */
  readonly rule?: MatchedRule;
  /** The deciding rule's 1-based line number in robots.txt (same as `rule.line`). */
  readonly line?: number;
  /** The robots.txt verdict (group selection, rule, normalised path) when robots.txt was parsed. */
  readonly verdict?: Verdict;
  /** Status of the robots.txt whose rules are in force. */
  readonly robotsStatus: RobotsStatus;
  /** True when the origin is unreachable now and an older good copy is being served. */
  readonly stale: boolean;
}

/**
 * How the robots.txt entry for this check was obtained.
 * @example
 * if (explanation.robotsTxt.cache === ('stale' satisfies CacheState)) warn('serving an old robots.txt');
 */
export type CacheState =
  | 'hit' // fresh entry in cache
  | 'miss' // fetched now (first time, or after expiry with a full 200 answer)
  | 'revalidated' // expired, conditional request answered 304
  | 'stale'; // unreachable now; an older good copy is served

/**
 * How robots.txt was obtained, for {@link RobotsPolicy.explain}.
 * @example
 * const { status, redirects, bytes }: RobotsTxtReport = (await policy.explain(url)).robotsTxt;
 */
export interface RobotsTxtReport {
  /** `scheme://authority/robots.txt` of the checked URL's origin. */
  readonly url: string;
  /** Status of the rules in force (a stale good copy reports `ok`). */
  readonly status: RobotsStatus;
  /** HTTP status of the copy in force, or of the latest attempt when no copy is in force. */
  readonly httpStatus?: number;
  /** Redirect targets followed to obtain the copy in force. */
  readonly redirects: readonly string[];
  readonly cache: CacheState;
  /** Bytes of robots.txt read (decompressed, at most the limit). */
  readonly bytes: number;
  readonly truncated: boolean;
  /** When the copy in force was fetched or last revalidated (clock ms). */
  readonly fetchedAt: number;
  /** When the entry will be refreshed (clock ms). */
  readonly expiresAt: number;
  /** The latest attempt, which differs from the copy in force when serving stale. */
  readonly latest: RobotsFetchRecord;
  /** Number of parser diagnostics (lint findings) in the copy in force. */
  readonly diagnostics: number;
  readonly sitemaps: readonly string[];
  /** Crawl-delay (seconds) set for this crawler, if any. */
  readonly crawlDelay?: number;
}

/**
 * A {@link Decision} plus how robots.txt was obtained.
 * @example
 * const explanation: Explanation = await policy.explain('https://example.com/private');
 */
export interface Explanation extends Decision {
  readonly robotsTxt: RobotsTxtReport;
}

// ---------------------------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------------------------

/**
 * @example
 * onEvent: (e) => { if (e.type === 'robots-fetched') log(e.origin, e.status, e.duration); }
 */
export interface RobotsFetchedEvent {
  readonly type: 'robots-fetched';
  readonly origin: string;
  readonly robotsUrl: string;
  readonly status: RobotsStatus;
  readonly httpStatus?: number;
  /** `true` when a conditional request was answered 304. */
  readonly notModified: boolean;
  readonly redirects: readonly string[];
  readonly bytes: number;
  readonly truncated: boolean;
  readonly failure?: RobotsFetchFailure;
  /** Clock ms spent fetching. */
  readonly duration: number;
}

/**
 * @example
 * onEvent: (e) => { if (e.type === 'robots-cache') metrics.count(`robots.${e.state}`); }
 */
export interface RobotsCacheEvent {
  readonly type: 'robots-cache';
  readonly origin: string;
  readonly state: CacheState;
}

/**
 * @example
 * onEvent: (e) => { if (e.type === 'request-denied') log(e.url, e.reason, e.line); }
 */
export interface RequestDeniedEvent {
  readonly type: 'request-denied';
  readonly url: string;
  readonly origin: string;
  readonly reason: DeniedReason;
  /** For `redirect-disallowed`: the URL the caller asked for. */
  readonly originalUrl?: string;
  readonly rule?: MatchedRule;
  readonly line?: number;
}

/**
 * @example
 * onEvent: (e) => { if (e.type === 'origin-paused') log(`${e.origin} paused for ${e.duration} ms`); }
 */
export interface OriginPausedEvent {
  readonly type: 'origin-paused';
  readonly origin: string;
  /** The status that asked for the pause (429, 503). */
  readonly status: number;
  /** Clock ms until which the origin is paused. */
  readonly until: number;
  /** The pause in ms, after capping at `maxRetryAfter`. */
  readonly duration: number;
  /** The raw `Retry-After` value. */
  readonly retryAfter: string;
}

/**
 * One state object per event; new fields may be added.
 * @example
 * createPoliteFetch({ userAgent, onEvent: (event: PoliteEvent) => console.log(event.type) });
 */
export type PoliteEvent =
  RobotsFetchedEvent | RobotsCacheEvent | RequestDeniedEvent | OriginPausedEvent;

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

/**
 * Options of {@link createRobotsPolicy}. Every limit has a default in `DEFAULTS`.
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
   * (proxies, TLS settings, connection limits).
   * @default undici's global dispatcher
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
   * Grants per-origin pacing slots instead of the in-memory scheduler (a fleet pacer such as
   * `@polite-crawler/redis`). Pacing settings stay this policy's own and are passed to it.
   * @default undefined (the in-memory scheduler)
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

// ---------------------------------------------------------------------------------------------
// The policy and the fetch
// ---------------------------------------------------------------------------------------------

/**
 * Per-call options for checks.
 * @example
 * await policy.check(url, { signal: AbortSignal.timeout(5_000) } satisfies CheckOptions);
 */
export interface CheckOptions {
  readonly signal?: AbortSignal;
}

/**
 * A header list accepted by {@link RobotsPolicy.noteResponse} and {@link RobotsPolicy.directives}.
 * @example
 * policy.noteResponse(url, 429, { 'retry-after': '120' } satisfies HeaderInput);
 */
export type HeaderInput =
  | Headers
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | Iterable<readonly [string, string]>;

/**
 * The robots.txt engine and per-origin pacer. Shareable: one policy serves a polite fetch,
 * the Crawlee and Playwright adapters, and one-off checks, with one cache and one pacing per
 * origin.
 * @example
 * const policy: RobotsPolicy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0' });
 */
export interface RobotsPolicy {
  readonly userAgent: string;
  readonly productToken: string;
  readonly purpose: string | undefined;
  /** The dispatcher robots.txt is fetched with; a polite fetch uses it for pages too. */
  readonly dispatcher: Dispatcher;
  /** The policy's time source. */
  readonly clock: Clock;
  /** Resolves robots.txt (cached, single-flight) and decides. */
  check(url: string | URL, options?: CheckOptions): Promise<Decision>;
  /**
   * Like `check`, but rejects with {@link RobotsDeniedError} (and publishes a
   * `request-denied` event) when the URL may not be fetched. Pass `redirectedFrom` when `url`
   * is a redirect target: the error's reason is then `redirect-disallowed`.
   */
  assertAllowed(url: string | URL, options?: AssertOptions): Promise<Decision>;
  /** Like `check`, plus how robots.txt was obtained. */
  explain(url: string | URL, options?: CheckOptions): Promise<Explanation>;
  /**
   * Synchronous decision from the in-memory cache only; `undefined` when the origin's
   * robots.txt is not cached or has expired (call `check` or `prefetch`).
   */
  peek(url: string | URL): Decision | undefined;
  /** Resolves robots.txt for each origin (at most `concurrency` at once). */
  prefetch(
    origins: Iterable<string | URL> | string | URL,
    options?: PrefetchOptions,
  ): Promise<void>;
  /**
   * Runs `task` in the origin's pacing slot: waits for a free slot (per-origin concurrency),
   * the minimum interval / crawl-delay since the previous start, and any Retry-After pause.
   * `task` receives a signal that aborts when `options.signal` does or the policy closes
   * (without `options.signal`, the policy's own close signal, shared by every such task).
   */
  schedule<T>(
    url: string | URL,
    task: (signal: AbortSignal) => Promise<T>,
    options?: CheckOptions,
  ): Promise<T>;
  /**
   * Tells the pacer about a response: a 429 or 503 with `Retry-After` pauses the origin for
   * that long (capped at `maxRetryAfter`).
   */
  noteResponse(url: string | URL, status: number, headers: HeaderInput): void;
  /** The robots-tag directives for this crawler from header lines and optional meta rules. */
  directives(
    headerLines: string | readonly string[] | HeaderInput,
    metaRules?: RobotsTagRules,
  ): RobotsDirectives;
  /** Forgets an origin's robots.txt (memory and store). */
  forget(origin: string | URL): Promise<void>;
  /** Aborts waits and in-flight robots.txt fetches; later calls reject with `ERR_ROBOTS_CLOSED`. */
  close(): Promise<void>;
}

/**
 * @example
 * await policy.assertAllowed(target, { redirectedFrom: original } satisfies AssertOptions);
 */
export interface AssertOptions extends CheckOptions {
  /** The URL the caller asked for, when `url` is a redirect target. */
  readonly redirectedFrom?: string;
}

/**
 * @example
 * await policy.prefetch(origins, { concurrency: 32 } satisfies PrefetchOptions);
 */
export interface PrefetchOptions extends CheckOptions {
  /** Origins resolved at once. @default 16 */
  readonly concurrency?: number;
}

/**
 * A fetch Response plus the robots directives that apply to this crawler.
 * @example
 * const response: PoliteResponse = await politeFetch(url); if (response.robots.noindex) skip();
 */
export interface PoliteResponse extends Response {
  /** Robots-Tag / X-Robots-Tag header rules and `<head>` robots metas, for this crawler. */
  readonly robots: RobotsDirectives;
}

/**
 * Request init accepted by a polite fetch: undici's, so `dispatcher` works per call.
 * @example
 * await politeFetch(url, { method: 'POST', body: 'q=1', dispatcher } satisfies PoliteRequestInit);
 */
export type PoliteRequestInit = UndiciRequestInit;

/**
 * A request accepted by a polite fetch: a URL, or a Request (undici's or the global one).
 * @example
 * await politeFetch(new Request('https://example.com/') satisfies PoliteRequestInput);
 */
export type PoliteRequestInput = string | URL | { readonly url: string; readonly method: string };

/**
 * `fetch`, made polite: every request is gated by robots.txt and paced per origin, and every
 * response carries its robots directives.
 * @example
 * const politeFetch: PoliteFetch = createPoliteFetch({ userAgent: 'ExampleBot/1.0' });
 */
export interface PoliteFetch {
  (input: PoliteRequestInput, init?: PoliteRequestInit): Promise<PoliteResponse>;
  readonly policy: RobotsPolicy;
  /** Closes the policy if this fetch created it (a shared policy is left open). */
  close(): Promise<void>;
}
