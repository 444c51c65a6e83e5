import pLimit from 'p-limit';
import { combineUsage, parseContentUsage } from '@polite-crawler/robots-txt';
import type { Agent, UsagePreferences } from '@polite-crawler/robots-txt';
import type { RobotsDirectives, RobotsTagRules } from '@polite-crawler/robots-tag';
import { RobotsClosedError, RobotsDeniedError, RobotsInvalidUrlError } from '../errors/errors.js';
import { BodyHolds } from './body-holds.js';
import type { BodyHold } from './body-holds.js';
import { NotedOutcome, UNNOTED } from './hop-outcome.js';
import type { HopOutcome } from './hop-outcome.js';
import { createEventSink } from './events.js';
import { headerLines } from '../response/header-input.js';
import { readDirectives } from '../response/page-robots.js';
import { readOption } from '../options/option-spec.js';
import { POLICY_OPTIONS, PREFETCH_CONCURRENCY } from '../options/option-table.js';
import { resolvePolicyOptions } from '../options/options.js';
import { refuseUnknownOptions } from '../options/known-options.js';
import { warnIfUnidentifiable } from '../options/user-agent-url.js';
import type { ResolvedPolicyOptions } from '../options/options.js';
import { OriginScheduler } from '../pacing/origin-scheduler.js';
import type { DistressFailure } from '../pacing/distress.js';
import type { PaceChange, PaceRules, Pacer, PacerSlot } from '../pacing/pacer.js';
import { parseRetryAfter } from '../pacing/retry-after.js';
import { raceSignal } from '../time/signals.js';
import { defaultDispatcher } from '../transport/default-dispatcher.js';
import { refuseUndrivable } from '../transport/dispatcher-guard.js';
import { transportDispatcher } from '../transport/compose-transport.js';
import type { RequestSigner } from '../signature/request-signer.js';
import { RobotsCache } from '../robots/robots-cache.js';
import type { CacheEntry, Resolved } from '../robots/robots-cache.js';
import type { Dispatcher } from 'undici';
import type {
  AssertOptions,
  CheckOptions,
  DirectivesAt,
  EnterOptions,
  HeaderInput,
  HopSlot,
  PrefetchOptions,
  RobotsPolicy,
} from './robots-policy.js';
import type { CacheState, Decision, Explanation, RobotsTxtReport } from './decision.js';
import type { Clock } from '../time/clock.js';
import type { RobotsPolicyOptions } from '../options/option-types.js';

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

/** `url.href` without its userinfo: decisions, errors and events are logged, a password must not be. */
function reportedHref(url: URL): string {
  if (url.username === '' && url.password === '') return url.href;
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  return bare.href;
}

/** The decision for `url` under a cache entry. */
function decide(entry: CacheEntry, url: URL, origin: string = url.origin): Decision {
  const { inForce, rules } = entry;
  const href = reportedHref(url);
  if (inForce !== 'ok' || rules === undefined) {
    // Unavailable allows all; unreachable (or no rules to read) disallows all.
    const allowed = inForce === 'unavailable';
    const reason = allowed ? 'unavailable' : 'unreachable';
    return {
      allowed,
      url: href,
      origin,
      reason,
      robotsStatus: reason,
      stale: allowed && entry.stale,
      usage: NO_USAGE,
    };
  }
  const verdict = rules.explain(url);
  const { allowed, rule } = verdict;
  const reason = allowed ? 'allowed' : 'disallowed';
  const decision: Omit<Decision, 'usage'> = {
    allowed,
    url: href,
    origin,
    reason,
    robotsStatus: inForce,
    stale: entry.stale,
    verdict,
    ...(rule === undefined ? {} : { rule, line: rule.line }),
  };
  // Read on first use: most checks never look at it, and it costs a second match.
  let usage: UsagePreferences | undefined;
  return Object.defineProperty(decision, 'usage', {
    enumerable: true,
    get: () => (usage ??= rules.contentUsage(url)),
  });
}

/**
 * Statuses whose `Retry-After` pauses the origin (RFC 9110 §10.2.3 gives it to 503, RFC 6585 to
 * 429). On a 500, 502 or 504 it is not read: those are distress, and the origin backs off.
 */
const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** No statement: every category `unknown` (robots.txt unavailable, unreachable, not read). */
const NO_USAGE: UsagePreferences = combineUsage();

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as Partial<PromiseLike<T>>).then === 'function';
}

/** Whether `entry` allows `url`: `decide(entry, url).allowed` without building the decision. */
function allows(entry: CacheEntry, url: URL): boolean {
  const { inForce, rules } = entry;
  if (inForce === 'unavailable') return true;
  if (inForce === 'unreachable' || rules === undefined) return false;
  return rules.isAllowed(url);
}

/** A hop's place in its origin's pacing, as {@link RobotsPolicy.enter} grants it. */
class PolicySlot implements HopSlot {
  readonly url: URL;
  readonly #policy: Policy;
  /** `url.origin`, as the policy computed it (the getter builds a new string on each read). */
  readonly #origin: string;
  #slot: PacerSlot | undefined;
  /** The interval the slot was granted under, until `sent()`; 0 when there is nothing to restart. */
  #interval: number;
  /** When the slot was granted (clock ms), read only when there is an interval to restart. */
  readonly #grantedAt: number;
  /** How the hop goes, for the pacer ({@link UNNOTED} when the policy notes no outcomes). */
  readonly #outcome: HopOutcome;
  #noted = false;
  /** Lets the slot go `maxBodyHold` after the response headers; none when that is 0. */
  readonly #holds: BodyHolds | undefined;
  /** The slot's hold, from its response headers to its body's end. */
  #hold: BodyHold | undefined;

  constructor(
    policy: Policy,
    url: URL,
    origin: string,
    slot: PacerSlot | undefined,
    interval = 0,
    holds?: BodyHolds,
    outcome: HopOutcome = UNNOTED,
  ) {
    this.#policy = policy;
    this.#holds = holds;
    this.url = url;
    this.#origin = origin;
    this.#slot = slot;
    this.#interval = slot === undefined ? 0 : interval;
    this.#grantedAt = this.#interval > 0 ? policy.clock.now() : 0;
    this.#outcome = outcome;
  }

  noteResponse(status: number, headers: HeaderInput): void {
    // One response per hop: the first note stands (the transport's, then the walker's).
    if (this.#noted) return;
    this.#noted = true;
    const retryAfter = this.#policy.notePause(this.#origin, status, headers);
    if (this.#slot === undefined) return;
    this.#outcome.response(status, retryAfter);
    this.#holdBody();
  }

  /**
   * Bounds the hold on the slot once the headers are in: a body nobody reads is not read from the
   * socket either (undici pauses it), so its end may never come; `maxBodyHold` later the slot
   * goes back anyway (the body stays readable).
   */
  #holdBody(): void {
    if (this.#hold !== undefined) return;
    if (this.#holds === undefined) {
      this.release();
      return;
    }
    this.#hold = this.#holds.start(this);
  }

  noteFailure(error: unknown): void {
    if (this.#slot === undefined) return;
    this.#outcome.failure(error);
  }

  sent(): void {
    const interval = this.#interval;
    this.#interval = 0;
    if (this.#slot === undefined) return;
    this.#outcome.sent();
    if (interval > 0 && this.#policy.clock.now() > this.#grantedAt) {
      this.#policy.restartInterval(this.#origin, interval);
    }
  }

  release(): void {
    const slot = this.#slot;
    if (slot === undefined) return;
    this.#slot = undefined;
    if (this.#hold !== undefined) this.#holds!.end(this.#hold);
    this.#outcome.release(slot);
  }
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
    parsedBytes: robots?.parsedBytes ?? 0,
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
  if (typeof options === 'object' && options !== null)
    refuseUnknownOptions(options, POLICY_OPTION_NAMES, 'createRobotsPolicy');
  return policyOf(options);
}

/**
 * {@link createRobotsPolicy} without the check for unknown keys, for the factories that take
 * the policy options among their own (they check the keys themselves).
 * @example
 * const policy = policyOf(options); // options of createPoliteFetch
 */
export function policyOf(options: RobotsPolicyOptions): RobotsPolicy {
  return new Policy(resolvePolicyOptions(options));
}

const POLICY_OPTION_NAMES = Object.keys(POLICY_OPTIONS);

class Policy implements RobotsPolicy {
  readonly userAgent: string;
  readonly productToken: string;
  readonly purpose: string | undefined;
  readonly dispatcher: Dispatcher;
  readonly signer: RequestSigner | undefined;
  readonly clock: Clock;
  readonly #options: ResolvedPolicyOptions;
  readonly #agent: Agent;
  readonly #cache: RobotsCache;
  readonly #pacer: Pacer;
  /** The pacer is this policy's own (the default), closed with it. */
  readonly #ownPacer: boolean;
  /** Pacing of an origin without (or with a lower) crawl-delay: shared, never changes. */
  readonly #defaultRules: PaceRules;
  /** Aborts with the close reason: ends the waits of this policy's hops on any pacer. */
  readonly #closing = new AbortController();
  /** `maxBodyHold` of every slot this policy grants (none when 0: released at the headers). */
  readonly #holds: BodyHolds | undefined;
  /**
   * The outcome a paced hop of `origin` notes for the pacer, decided once here: hops are timed
   * and classed when back-off or latency pacing is on, or when the pacer is given (a fleet's
   * other members may back off on them); else an outcome would change nothing, and none is noted.
   */
  readonly #outcomeOf: (origin: string) => HopOutcome;
  readonly #events;
  #closed = false;

  /** Settles once close() has stopped everything in flight. */
  #closedAll: Promise<void> = Promise.resolve();

  constructor(options: ResolvedPolicyOptions) {
    this.#options = options;
    warnIfUnidentifiable(options.userAgent);
    this.userAgent = options.userAgent;
    this.productToken = options.productToken;
    this.purpose = options.purpose;
    this.signer = options.signature;
    this.dispatcher = transportDispatcher(options.dispatcher ?? defaultDispatcher(), this.signer);
    this.clock = options.clock;
    this.#holds =
      options.maxBodyHold === 0 ? undefined : new BodyHolds(options.clock, options.maxBodyHold);
    this.#agent =
      options.purpose === undefined
        ? options.productToken
        : { productToken: options.productToken, purpose: options.purpose };
    this.#events = createEventSink(options.onEvent);
    this.#cache = new RobotsCache({
      agent: this.#agent,
      fetch: {
        userAgent: options.userAgent,
        // A dispatcher that throws when handed a request is refused as an invalid option.
        dispatcher: this.dispatcher.compose(refuseUndrivable(this.dispatcher)),
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
    this.#ownPacer = options.pacer === undefined;
    this.#pacer =
      options.pacer ??
      new OriginScheduler({ maxTrackedOrigins: options.maxTrackedOrigins, clock: options.clock });
    this.#defaultRules = Object.freeze({
      concurrency: options.concurrency,
      interval: options.minInterval,
      maxBackoff: options.maxBackoff,
      latencyFactor: options.latencyFactor,
    });
    const notesOutcomes =
      options.maxBackoff > 0 || options.latencyFactor > 0 || options.pacer !== undefined;
    this.#outcomeOf = notesOutcomes
      ? (origin) => new NotedOutcome(options.clock, origin, this)
      : () => UNNOTED;
  }

  async enter(url: string | URL, options: EnterOptions = {}): Promise<HopSlot> {
    if (this.#closed) throw new RobotsClosedError();
    options.signal?.throwIfAborted();
    const parsed = toHttpUrl(url);
    const origin = parsed.origin;
    let admittedBy = this.#cache.peek(origin);
    // Something was awaited since `admittedBy` was read: the copy in force may have changed.
    let awaited = admittedBy === undefined;
    if (admittedBy === undefined) {
      admittedBy = (await this.#resolve(origin, options.signal)).entry;
      if (!allows(admittedBy, parsed)) this.#deny(decide(admittedBy, parsed, origin), options);
      if (this.#closed) throw new RobotsClosedError();
    } else {
      this.#noteCache(origin, admittedBy.stale ? 'stale' : 'hit');
      if (!allows(admittedBy, parsed)) this.#deny(decide(admittedBy, parsed, origin), options);
    }
    if (options.paced === false) return new PolicySlot(this, parsed, origin, undefined);
    const rules = this.#rulesOf(admittedBy);
    const got = this.#pacer.acquire(origin, rules, this.#waitSignal(options));
    // A free slot comes as it is (see Pacer.acquire): no turn of the microtask queue for it.
    let slot: PacerSlot;
    if (isPromiseLike(got)) {
      slot = await got;
      awaited = true;
    } else slot = got;
    try {
      if (this.#closed) throw new RobotsClosedError();
      // After a wait (for robots.txt or for the slot) the copy that admitted the hop may have
      // expired or been replaced (a queue can take longer than a copy may be used): the hop goes
      // out only if the rules in force now allow it too. A fresh copy read in this same
      // synchronous run, with the slot granted at once, is the copy in force: no second lookup.
      if (awaited && this.#cache.peek(origin) !== admittedBy) {
        const now = (await this.#resolve(origin, options.signal)).entry;
        if (!allows(now, parsed)) this.#deny(decide(now, parsed, origin), options);
      }
    } catch (error) {
      slot.release();
      throw error;
    }
    return new PolicySlot(
      this,
      parsed,
      origin,
      slot,
      rules.interval,
      this.#holds,
      this.#outcomeOf(origin),
    );
  }

  /** A hop's wait signal: the caller's, plus this policy's close when the pacer is not its own. */
  #waitSignal(options: CheckOptions): AbortSignal | undefined {
    const { signal } = options;
    if (this.#ownPacer) return signal;
    const closing = this.#closing.signal;
    return signal === undefined ? closing : AbortSignal.any([signal, closing]);
  }

  /** The pacing of an origin under `entry`'s rules: its crawl-delay widens the interval. */
  #rulesOf(entry: CacheEntry | undefined): PaceRules {
    const delay = this.#crawlDelayOf(entry);
    const rules = this.#defaultRules;
    return delay > rules.interval ? { ...rules, interval: delay } : rules;
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
    const { entry } = resolved;
    return {
      ...decide(entry, parsed),
      robotsTxt: report(resolved, parsed, this.#agent),
      interval: this.#rulesOf(entry).interval,
      ...(entry.inForce === 'ok' && entry.rules !== undefined
        ? { contentUsage: entry.rules.explainContentUsage(parsed) }
        : {}),
    };
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
    const limit = pLimit(readOption('concurrency', PREFETCH_CONCURRENCY, options.concurrency));
    // One URL is one origin (a string is iterable too: character by character).
    const list = typeof origins === 'string' || origins instanceof URL ? [origins] : origins;
    const unique = new Set(Array.from(list, (origin) => toHttpUrl(origin).origin));
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
    const origin = toHttpUrl(url).origin;
    // The slot is asked for after the caller's synchronous code, never inside `schedule()`
    // itself (a pause or close right after the call applies to this task).
    await Promise.resolve();
    const closing = this.#closing.signal;
    const signal =
      options.signal === undefined ? closing : AbortSignal.any([options.signal, closing]);
    signal.throwIfAborted();
    // An expired copy's crawl-delay still stands until the next check replaces it.
    const slot = await this.#pacer.acquire(
      origin,
      this.#rulesOf(this.#cache.latest(origin)),
      signal,
    );
    const running = (async (): Promise<T> => {
      try {
        return await task(signal);
      } finally {
        slot.release();
      }
    })();
    return signal === closing ? running : raceSignal(running, signal);
  }

  noteResponse(url: string | URL, status: number, headers: HeaderInput): void {
    if (this.#closed) return;
    this.notePause(toHttpUrl(url).origin, status, headers);
  }

  /**
   * Internal (also a {@link PolicySlot}'s). A 429 or 503 with a parseable `Retry-After` (an
   * HTTP-date measured from the response's `Date`) pauses the origin (capped at
   * `maxRetryAfter`). Whether it had one: then the server said when to come back, and that is
   * not distress (a `Retry-After: 0` included).
   */
  notePause(origin: string, status: number, headers: HeaderInput): boolean {
    if (!RETRY_AFTER_STATUSES.has(status) || this.#closed) return false;
    const raw = headerLines(headers, 'retry-after')[0];
    const now = this.clock.now();
    // The server's Date, not this host's clock, is what its HTTP-date Retry-After counts from.
    const requested = parseRetryAfter(raw, now, headerLines(headers, 'date')[0]);
    if (raw === undefined || requested === undefined) return false;
    const duration = Math.min(requested, this.#options.maxRetryAfter);
    if (duration <= 0) return true;
    this.#pacer.pause(origin, duration);
    if (this.#events.wants('origin-paused')) {
      const until = now + duration;
      this.#events.emit({
        type: 'origin-paused',
        origin,
        status,
        until,
        duration,
        retryAfter: raw,
      });
    }
    return true;
  }

  /**
   * Internal (a {@link PolicySlot}'s): the pacer's pause is "no slot of the origin starts before
   * now + ms", so a hop sent later than its grant books one interval from the moment it left.
   */
  restartInterval(origin: string, interval: number): void {
    if (!this.#closed) this.#pacer.pause(origin, interval);
  }

  /** Internal (a {@link PolicySlot}'s): publishes what a released slot's outcome changed. */
  noteChange(
    origin: string,
    cause: number | DistressFailure,
    change: ReturnType<PacerSlot['release']>,
  ): void {
    if (typeof change !== 'object' || change === null) return;
    if (typeof (change as { then?: unknown }).then !== 'function') {
      this.#emitChange(origin, cause, change as PaceChange);
      return;
    }
    // A fleet pacer answers after its round trip; a failed one changed nothing to report.
    Promise.resolve(change as PromiseLike<PaceChange | undefined>).then(
      (settled) => {
        if (settled !== undefined) this.#emitChange(origin, cause, settled);
      },
      () => undefined,
    );
  }

  /** Publishes what a hop's outcome changed in its origin's back-off. */
  #emitChange(origin: string, cause: number | DistressFailure, change: PaceChange): void {
    if (change.kind === 'recovered') {
      if (this.#events.wants('origin-recovered')) {
        this.#events.emit({ type: 'origin-recovered', origin });
      }
      return;
    }
    if (!this.#events.wants('origin-backoff')) return;
    const { distress, delay } = change;
    this.#events.emit({
      type: 'origin-backoff',
      origin,
      cause,
      distress,
      delay,
      until: this.clock.now() + delay,
    });
  }

  directives(
    headerLinesOrHeaders: string | readonly string[] | HeaderInput,
    metaRules?: RobotsTagRules,
    options: DirectivesAt = {},
  ): RobotsDirectives {
    // One clock for every surface: an `unavailable_after` that has passed is `noindex` here.
    const now = options.now ?? this.clock.now();
    return readDirectives(this.productToken, headerLinesOrHeaders, metaRules, now);
  }

  usage(url: string | URL, headers?: string | readonly string[] | HeaderInput): UsagePreferences {
    const parsed = toHttpUrl(url);
    // The robots.txt part: under the copy in memory (fresh or expired: the one the request was
    // admitted under); all `unknown` without one.
    const entry = this.#cache.latest(parsed.origin);
    const fromRobots =
      entry?.inForce === 'ok' && entry.rules !== undefined
        ? entry.rules.contentUsage(parsed)
        : NO_USAGE;
    if (headers === undefined) return fromRobots;
    const lines =
      typeof headers === 'string'
        ? [headers]
        : Array.isArray(headers) && headers.every((line) => typeof line === 'string')
          ? (headers as readonly string[])
          : headerLines(headers as HeaderInput, 'content-usage');
    return lines.length === 0 ? fromRobots : combineUsage(fromRobots, parseContentUsage(lines));
  }

  async forget(origin: string | URL): Promise<void> {
    if (this.#closed) throw new RobotsClosedError();
    await this.#cache.forget(toHttpUrl(origin).origin);
  }

  close(): Promise<void> {
    if (this.#closed) return this.#closedAll;
    this.#closed = true;
    const reason = new RobotsClosedError();
    this.#closing.abort(reason);
    // A pacer given in the options is its owner's to close (a fleet's is shared).
    const pacer = this.#ownPacer ? this.#pacer.close(reason) : undefined;
    this.#closedAll = Promise.all([this.#cache.close(reason), pacer]).then(() => undefined);
    return this.#closedAll;
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

  /** The spacing `entry`'s crawl-delay asks for (capped), ms; 0 when none or ignored. */
  #crawlDelayOf(entry: CacheEntry | undefined): number {
    if (this.#options.crawlDelay === 'ignore') return 0;
    const seconds = entry?.rules?.crawlDelay;
    if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return 0;
    return Math.min(this.#options.maxCrawlDelay, Math.round(seconds * 1_000));
  }
}
