import pLimit from 'p-limit';
import { getGlobalDispatcher } from 'undici';
import type { Agent } from '@polite-crawler/robots-txt';
import { directivesFor, parseRobotsTagHeaders } from '@polite-crawler/robots-tag';
import type { RobotsDirectives, RobotsTagRules } from '@polite-crawler/robots-tag';
import { RobotsClosedError, RobotsDeniedError, RobotsInvalidUrlError } from './errors.js';
import { createEventSink } from './events.js';
import { headerLines } from './header-input.js';
import { resolvePolicyOptions, resolvePrefetchConcurrency } from './options.js';
import type { ResolvedPolicyOptions } from './options.js';
import { OriginScheduler } from './origin-scheduler.js';
import { PacerScheduler } from './pacer-scheduler.js';
import { RobotsCache } from './robots-cache.js';
import type { CacheEntry, Resolved } from './robots-cache.js';
import type { Dispatcher } from 'undici';
import type {
  AssertOptions,
  CacheState,
  CheckOptions,
  Clock,
  Decision,
  Explanation,
  HeaderInput,
  PrefetchOptions,
  RobotsPolicy,
  RobotsPolicyOptions,
  RobotsTxtReport,
} from './types.js';

/**
 * `url` as an absolute http(s) URL, or a {@link RobotsInvalidUrlError}.
 * @example
 * toHttpUrl('https://example.com/a').origin; // 'https://example.com'
 */
export function toHttpUrl(url: string | URL): URL {
  let parsed: URL;
  try {
    parsed = url instanceof URL ? url : new URL(url);
  } catch (error) {
    throw new RobotsInvalidUrlError(withoutUserinfo(String(url)), 'not an absolute URL', error);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new RobotsInvalidUrlError(
      reportedHref(parsed),
      `robots.txt applies to http(s) URLs only, not ${parsed.protocol}`,
    );
  }
  return parsed;
}

/** A URL string that did not parse, with what looks like its userinfo (`//user:pass@`) cut out. */
function withoutUserinfo(text: string): string {
  return text.replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#@]*@/, '$1');
}

/**
 * `url.href` without its userinfo: decisions, errors and events are logged, and a password in
 * a URL must not end up in a log.
 * @example
 * reportedHref(new URL('https://user:secret@example.com/a')); // 'https://example.com/a'
 */
export function reportedHref(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  return bare.href;
}

/**
 * The decision for `url` under a cache entry.
 * @example
 * decide(entry, new URL('https://example.com/private')).allowed; // false when disallowed
 */
export function decide(entry: CacheEntry, url: URL, origin: string = url.origin): Decision {
  const { inForce, rules } = entry;
  const href = reportedHref(url);
  if (inForce === 'unavailable') {
    return {
      allowed: true,
      url: href,
      origin,
      reason: 'unavailable',
      robotsStatus: inForce,
      stale: entry.stale,
    };
  }
  if (inForce === 'unreachable' || rules === undefined) {
    return {
      allowed: false,
      url: href,
      origin,
      reason: 'unreachable',
      robotsStatus: 'unreachable',
      stale: false,
    };
  }
  const verdict = rules.explain(url);
  const { allowed, rule } = verdict;
  const reason = allowed ? 'allowed' : 'disallowed';
  const base = {
    allowed,
    url: href,
    origin,
    reason,
    robotsStatus: inForce,
    stale: entry.stale,
    verdict,
  } as const;
  return rule === undefined ? base : { ...base, rule, line: rule.line };
}

/** Whether `entry` allows `url`: `decide(entry, url).allowed` without building the decision. */
function allows(entry: CacheEntry, url: URL): boolean {
  const { inForce, rules } = entry;
  if (inForce === 'unavailable') return true;
  if (inForce === 'unreachable' || rules === undefined) return false;
  return rules.isAllowed(url);
}

/**
 * What `createPoliteFetch` uses on its hot path when it drives a policy made by
 * {@link createRobotsPolicy}: the same checks, pacing and events as the public methods, on an
 * already parsed URL and its origin, answering synchronously when nothing has to be waited for.
 * @example
 * const gate = politeGate(policy)!;
 * const entered = gate.enter(url, url.origin, undefined);
 * if (entered !== undefined) await entered;
 * try { response = await fetch(url); } finally { gate.release(url.origin); }
 */
export interface PoliteGate {
  /**
   * `assertAllowed` and then a pacing slot of `origin` (as `schedule` takes it; close aborts
   * the wait), for a caller without a signal, who gives the slot back with `release`.
   * `undefined` when both are done at once (the origin's rules are cached and allow `url`, a
   * slot is free and no spacing is due); otherwise a promise that settles when they are done.
   * Throws (or the promise rejects with) what `assertAllowed` and `schedule` reject with.
   */
  enter(url: URL, origin: string, redirectedFrom: string | undefined): Promise<void> | undefined;
  /**
   * `assertAllowed` alone, for a caller with a signal: `undefined` when `url` may be fetched
   * now, or a promise of the decision when robots.txt must be resolved first.
   */
  admit(
    url: URL,
    origin: string,
    signal: AbortSignal,
    redirectedFrom: string | undefined,
  ): Promise<Decision> | undefined;
  /** Gives back a slot taken by `enter`. */
  release(origin: string): void;
  /** `noteResponse` for an origin. */
  noteResponse(origin: string, status: number, headers: HeaderInput): void;
}

const gates = new WeakMap<object, PoliteGate>();

/**
 * The hot-path gate of a policy made by {@link createRobotsPolicy} in this copy of the
 * package, or `undefined` for any other {@link RobotsPolicy} (which is then driven through its
 * public methods).
 * @example
 * const gate = politeGate(policy) ?? publicGate(policy);
 */
export function politeGate(policy: RobotsPolicy): PoliteGate | undefined {
  return gates.get(policy);
}

function report(resolved: Resolved, url: URL, agent: Agent): RobotsTxtReport {
  const { entry, state } = resolved;
  const { stored, robots } = entry;
  const copy = entry.inForce === 'ok' ? stored.good : undefined;
  const httpStatus = copy?.httpStatus ?? stored.latest.httpStatus;
  const crawlDelay = entry.rules?.crawlDelay ?? robots?.crawlDelay(agent);
  return {
    url: `${url.origin}/robots.txt`,
    status: entry.inForce,
    ...(httpStatus === undefined ? {} : { httpStatus }),
    redirects: copy?.redirects ?? stored.latest.redirects,
    cache: state,
    bytes: copy?.bytes ?? 0,
    truncated: copy?.truncated ?? false,
    fetchedAt: copy?.fetchedAt ?? stored.latest.fetchedAt,
    expiresAt: stored.expiresAt,
    latest: stored.latest,
    diagnostics: robots?.diagnostics.length ?? 0,
    sitemaps: robots?.sitemaps ?? [],
    ...(crawlDelay === undefined ? {} : { crawlDelay }),
  };
}

/**
 * Builds a {@link RobotsPolicy}: the robots.txt resolver and cache plus the per-origin pacer,
 * shareable between a polite fetch, the Crawlee/Playwright adapters and one-off checks.
 * Throws {@link RobotsInvalidOptionError} naming the first invalid option.
 * @example
 * const policy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
 * const decision = await policy.check('https://example.com/private/page');
 * if (!decision.allowed) console.log(decision.reason, decision.line);
 */
export function createRobotsPolicy(options: RobotsPolicyOptions): RobotsPolicy {
  return new Policy(resolvePolicyOptions(options));
}

class Policy implements RobotsPolicy {
  readonly userAgent: string;
  readonly productToken: string;
  readonly purpose: string | undefined;
  readonly dispatcher: Dispatcher;
  readonly clock: Clock;
  readonly #options: ResolvedPolicyOptions;
  readonly #agent: Agent;
  readonly #cache: RobotsCache;
  readonly #scheduler: OriginScheduler | PacerScheduler;
  readonly #events;
  #closed = false;
  /** Settles once close() has stopped everything in flight. */
  #closedAll: Promise<void> = Promise.resolve();

  constructor(options: ResolvedPolicyOptions) {
    this.#options = options;
    this.userAgent = options.userAgent;
    this.productToken = options.productToken;
    this.purpose = options.purpose;
    this.dispatcher = options.dispatcher ?? getGlobalDispatcher();
    this.clock = options.clock;
    this.#agent =
      options.purpose === undefined
        ? options.productToken
        : { productToken: options.productToken, purpose: options.purpose };
    this.#events = createEventSink(options.onEvent);
    this.#cache = new RobotsCache({
      agent: this.#agent,
      fetch: {
        userAgent: options.userAgent,
        dispatcher: this.dispatcher,
        headersTimeout: options.robotsHeadersTimeout,
        bodyTimeout: options.robotsBodyTimeout,
        timeout: options.robotsTimeout,
        maxBytes: options.robotsMaxBytes,
        maxRedirects: options.robotsMaxRedirects,
        treat429AsUnreachable: options.treat429AsUnreachable,
        clock: options.clock,
      },
      maxOrigins: options.maxOrigins,
      store: options.store,
      storeTimeout: options.storeTimeout,
      minTtl: options.robotsMinTtl,
      maxTtl: options.robotsMaxTtl,
      unreachableRetryInterval: options.unreachableRetryInterval,
      maxUnreachableRetryInterval: options.maxUnreachableRetryInterval,
      staleIfUnreachable: options.staleIfUnreachable,
      events: this.#events,
    });
    const pacing = {
      concurrency: options.concurrency,
      minInterval: options.minInterval,
      maxRetryAfter: options.maxRetryAfter,
      maxTrackedOrigins: options.maxTrackedOrigins,
      clock: options.clock,
      events: this.#events,
      crawlDelayFor: (origin: string) => this.#crawlDelay(origin),
    };
    this.#scheduler =
      options.pacer === undefined
        ? new OriginScheduler(pacing)
        : new PacerScheduler({ ...pacing, pacer: options.pacer });
    const scheduler = this.#scheduler;
    gates.set(this, {
      enter: (url, origin, redirectedFrom) => this.#enter(url, origin, redirectedFrom),
      admit: (url, origin, signal, redirectedFrom) =>
        this.#admit(url, origin, signal, redirectedFrom),
      release: (origin) => scheduler.release(origin),
      noteResponse: (origin, status, headers) => {
        if (!this.#closed) scheduler.noteResponse(origin, status, headers);
      },
    });
  }

  #enter(url: URL, origin: string, redirectedFrom: string | undefined): Promise<void> | undefined {
    if (this.#closed) throw new RobotsClosedError();
    const entry = this.#cache.peek(origin);
    if (entry === undefined) return this.#enterLater(url, origin, redirectedFrom);
    this.#noteCache(origin, entry.stale ? 'stale' : 'hit');
    if (!allows(entry, url)) {
      this.#deny(
        decide(entry, url, origin),
        redirectedFrom === undefined ? {} : { redirectedFrom },
      );
    }
    // The crawl-delay of the rules that just admitted the request (no second lookup).
    const waiting = this.#scheduler.acquire(origin, undefined, this.#crawlDelayOf(entry));
    return waiting?.then(() => this.#stillAllowed(url, origin, entry, redirectedFrom));
  }

  async #enterLater(url: URL, origin: string, redirectedFrom: string | undefined): Promise<void> {
    const resolved = await this.#resolve(origin, undefined);
    const decision = decide(resolved.entry, url, origin);
    if (!decision.allowed) {
      this.#deny(decision, redirectedFrom === undefined ? {} : { redirectedFrom });
    }
    if (this.#closed) throw new RobotsClosedError();
    const waiting = this.#scheduler.acquire(origin);
    if (waiting !== undefined) {
      await waiting;
      await this.#stillAllowed(url, origin, resolved.entry, redirectedFrom);
    }
  }

  /**
   * After a wait for the pacing slot: the robots.txt copy that admitted the request may have
   * expired or been replaced meanwhile (a queue can take longer than a copy may be used), so
   * the request goes out only if the rules in force now allow it too. The slot is given back
   * when they do not. Nothing to do while the admitting copy is still the fresh one.
   */
  #stillAllowed(
    url: URL,
    origin: string,
    admittedBy: CacheEntry,
    redirectedFrom: string | undefined,
  ): Promise<void> | undefined {
    if (this.#cache.peek(origin) === admittedBy) return undefined;
    return this.#resolve(origin, undefined).then(
      (resolved) => {
        const decision = decide(resolved.entry, url, origin);
        if (decision.allowed) return;
        this.#scheduler.release(origin);
        this.#deny(decision, redirectedFrom === undefined ? {} : { redirectedFrom });
      },
      (error: unknown) => {
        this.#scheduler.release(origin);
        throw error;
      },
    );
  }

  #admit(
    url: URL,
    origin: string,
    signal: AbortSignal,
    redirectedFrom: string | undefined,
  ): Promise<Decision> | undefined {
    if (this.#closed) throw new RobotsClosedError();
    signal.throwIfAborted();
    const entry = this.#cache.peek(origin);
    if (entry === undefined) {
      const options = redirectedFrom === undefined ? {} : { redirectedFrom };
      return this.#resolve(origin, signal).then((resolved) => {
        const decision = decide(resolved.entry, url, origin);
        return decision.allowed ? decision : this.#deny(decision, options);
      });
    }
    this.#noteCache(origin, entry.stale ? 'stale' : 'hit');
    if (allows(entry, url)) return undefined;
    return this.#deny(
      decide(entry, url, origin),
      redirectedFrom === undefined ? {} : { redirectedFrom },
    );
  }

  async check(url: string | URL, options: CheckOptions = {}): Promise<Decision> {
    if (this.#closed) throw new RobotsClosedError();
    options.signal?.throwIfAborted();
    const parsed = toHttpUrl(url);
    const { origin } = parsed;
    // Fast path: a fresh entry answers without waiting for anything.
    const entry = this.#cache.peek(origin);
    if (entry !== undefined) {
      this.#noteCache(origin, entry.stale ? 'stale' : 'hit');
      return decide(entry, parsed, origin);
    }
    const resolved = await this.#resolve(origin, options.signal);
    return decide(resolved.entry, parsed, origin);
  }

  assertAllowed(url: string | URL, options: AssertOptions = {}): Promise<Decision> {
    return this.check(url, options).then((decision) =>
      decision.allowed ? decision : this.#deny(decision, options),
    );
  }

  #deny(decision: Decision, options: AssertOptions): never {
    const { redirectedFrom } = options;
    const reason =
      redirectedFrom !== undefined
        ? 'redirect-disallowed'
        : decision.reason === 'unreachable'
          ? 'unreachable'
          : 'disallowed';
    if (this.#events.wants('request-denied')) {
      this.#events.emit({
        type: 'request-denied',
        url: decision.url,
        origin: decision.origin,
        reason,
        ...(redirectedFrom === undefined ? {} : { originalUrl: redirectedFrom }),
        ...(decision.rule === undefined ? {} : { rule: decision.rule, line: decision.rule.line }),
      });
    }
    throw new RobotsDeniedError({
      reason,
      decision,
      ...(redirectedFrom === undefined ? {} : { originalUrl: redirectedFrom }),
    });
  }

  async explain(url: string | URL, options: CheckOptions = {}): Promise<Explanation> {
    if (this.#closed) throw new RobotsClosedError();
    options.signal?.throwIfAborted();
    const parsed = toHttpUrl(url);
    const resolved = await this.#resolve(parsed.origin, options.signal);
    return { ...decide(resolved.entry, parsed), robotsTxt: report(resolved, parsed, this.#agent) };
  }

  peek(url: string | URL): Decision | undefined {
    if (this.#closed) return undefined;
    const parsed = toHttpUrl(url);
    const entry = this.#cache.peek(parsed.origin);
    return entry === undefined ? undefined : decide(entry, parsed);
  }

  async prefetch(
    origins: Iterable<string | URL> | string | URL,
    options: PrefetchOptions = {},
  ): Promise<void> {
    if (this.#closed) throw new RobotsClosedError();
    options.signal?.throwIfAborted();
    const limit = pLimit(resolvePrefetchConcurrency(options.concurrency));
    const unique = new Set<string>();
    // One URL is one origin (a string is iterable too: character by character).
    const list = typeof origins === 'string' || origins instanceof URL ? [origins] : origins;
    for (const origin of list) unique.add(toHttpUrl(origin).origin);
    const { signal } = options;
    await Promise.all(
      [...unique].map((origin) =>
        limit(() => {
          // An origin still queued when the signal aborts is not started (it would be let go at once).
          signal?.throwIfAborted();
          return this.#resolve(origin, signal);
        }),
      ),
    );
  }

  async schedule<T>(
    url: string | URL,
    task: (signal: AbortSignal) => Promise<T>,
    options: CheckOptions = {},
  ): Promise<T> {
    if (this.#closed) throw new RobotsClosedError();
    return await this.#scheduler.run(toHttpUrl(url).origin, task, options.signal);
  }

  noteResponse(url: string | URL, status: number, headers: HeaderInput): void {
    if (this.#closed) return;
    this.#scheduler.noteResponse(toHttpUrl(url).origin, status, headers);
  }

  directives(
    headerLinesOrHeaders: string | readonly string[] | HeaderInput,
    metaRules?: RobotsTagRules,
  ): RobotsDirectives {
    const lines =
      typeof headerLinesOrHeaders === 'string'
        ? [headerLinesOrHeaders]
        : Array.isArray(headerLinesOrHeaders)
          ? (headerLinesOrHeaders as readonly string[])
          : [
              ...headerLines(headerLinesOrHeaders as HeaderInput, 'robots-tag'),
              ...headerLines(headerLinesOrHeaders as HeaderInput, 'x-robots-tag'),
            ];
    const headerRules = parseRobotsTagHeaders([...lines]);
    return directivesFor(
      metaRules === undefined ? headerRules : [headerRules, metaRules],
      this.productToken,
    );
  }

  async forget(origin: string | URL): Promise<void> {
    if (this.#closed) throw new RobotsClosedError();
    await this.#cache.forget(toHttpUrl(origin).origin);
  }

  close(): Promise<void> {
    if (this.#closed) return this.#closedAll;
    this.#closed = true;
    const reason = new RobotsClosedError();
    const pacing = this.#scheduler.close(reason);
    this.#closedAll = Promise.all([pacing, this.#cache.close(reason)]).then(() => undefined);
    return this.#closedAll;
  }

  /** Until when `origin` is paused by a Retry-After (clock ms), if it is. */
  pausedUntil(origin: string): number | undefined {
    return this.#scheduler.pausedUntil(origin);
  }

  async #resolve(origin: string, signal: AbortSignal | undefined): Promise<Resolved> {
    if (this.#closed) throw new RobotsClosedError();
    const resolved = await this.#cache.resolve(origin, signal);
    this.#noteCache(origin, resolved.state);
    return resolved;
  }

  #noteCache(origin: string, state: CacheState): void {
    if (this.#events.wants('robots-cache'))
      this.#events.emit({ type: 'robots-cache', origin, state });
  }

  #crawlDelay(origin: string): number {
    // An expired copy's crawl-delay still stands until the next check replaces it.
    return this.#crawlDelayOf(this.#cache.latest(origin));
  }

  /** The spacing `entry`'s crawl-delay asks for (capped), ms; 0 when none or ignored. */
  #crawlDelayOf(entry: CacheEntry | undefined): number {
    if (this.#options.crawlDelay === 'ignore') return 0;
    const seconds = entry?.rules?.crawlDelay;
    if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return 0;
    return Math.min(this.#options.maxCrawlDelay, Math.round(seconds * 1_000));
  }
}
