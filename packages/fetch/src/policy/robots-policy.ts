import type { Dispatcher } from 'undici';
import type { RequestSigner } from '../signature/request-signer.js';
import type { RobotsDirectives, RobotsTagRules } from '@polite-crawler/robots-tag';
import type { UsagePreferences } from '@polite-crawler/robots-txt';
import type { Clock } from '../time/clock.js';
import type { Decision, Explanation } from './decision.js';

/**
 * Per-call options for checks.
 * @example
 * await policy.check(url, { signal: AbortSignal.timeout(5_000) } satisfies CheckOptions);
 */
export interface CheckOptions {
  readonly signal?: AbortSignal;
}

/**
 * The instant {@link RobotsPolicy.directives} reads directives at.
 * @example
 * policy.directives(response.headers, undefined, { now: Date.UTC(2031, 0, 1) } satisfies DirectivesAt);
 */
export interface DirectivesAt {
  /** Epoch milliseconds. @default the policy's `clock.now()` */
  readonly now?: number;
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
 * The robots.txt engine and per-origin pacer, shared by a polite fetch, the adapters and
 * one-off checks (one cache and one pacing per origin).
 * @example
 * const policy: RobotsPolicy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
 */
export interface RobotsPolicy {
  readonly userAgent: string;
  readonly productToken: string;
  readonly purpose: string | undefined;
  /** The dispatcher robots.txt is fetched with; a polite fetch uses it for pages too. */
  readonly dispatcher: Dispatcher;
  /** Signs requests (the `signature` option); `undefined` when they go unsigned. */
  readonly signer: RequestSigner | undefined;
  /** The policy's time source. */
  readonly clock: Clock;
  /** Resolves robots.txt (cached, single-flight) and decides. */
  check(url: string | URL, options?: CheckOptions): Promise<Decision>;
  /**
   * Like `check`, but rejects with {@link RobotsDeniedError} (and publishes `request-denied`)
   * when the URL may not be fetched; `redirect-disallowed` with `redirectedFrom`.
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
   * The gate every request goes through, one hop at a time (the README's "gated hop"): checked
   * as `assertAllowed` does, then it waits for the origin's pacing slot and is checked again
   * under the rules in force then (a copy can expire while a hop waits). Always a promise. Rejects with
   * `signal.reason` on abort, `RobotsClosedError` after `close()`.
   * @example
   * const slot = await policy.enter(url, { signal });
   * try {
   *   const response = await undici.request(slot.url, { signal });
   *   slot.noteResponse(response.statusCode, response.headers);
   *   await response.body.text();
   * } finally { slot.release(); }
   */
  enter(url: string | URL, options?: EnterOptions): Promise<HopSlot>;
  /**
   * Runs `task` in the origin's pacing slot (concurrency, interval or crawl-delay, Retry-After).
   * `task`'s signal aborts with `options.signal` or when the policy closes.
   */
  schedule<T>(
    url: string | URL,
    task: (signal: AbortSignal) => Promise<T>,
    options?: CheckOptions,
  ): Promise<T>;
  /**
   * Tells the pacer about a response: a 429 or 503 with `Retry-After` pauses the origin for
   * that long (capped at `maxRetryAfter`). Back-off and latency spacing need the
   * request's slot: they follow `HopSlot.noteResponse` / `noteFailure`, not this.
   */
  noteResponse(url: string | URL, status: number, headers: HeaderInput): void;
  /**
   * The robots-tag directives for this crawler from header lines and optional meta rules, at
   * `clock.now()` (or `options.now`): a passed `unavailable_after` is `noindex`. Whole headers
   * (not field values) also give the response's `freshness`.
   */
  directives(
    headerLines: string | readonly string[] | HeaderInput,
    metaRules?: RobotsTagRules,
    options?: DirectivesAt,
  ): RobotsDirectives;
  /**
   * A response's usage preferences (IETF AIPREF), synchronously: robots.txt's for `url` from the
   * copy in memory (all `unknown` without one), combined with its `Content-Usage` field lines.
   */
  usage(url: string | URL, headers?: string | readonly string[] | HeaderInput): UsagePreferences;
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
 * @example
 * await policy.enter(target, { signal, redirectedFrom: original } satisfies EnterOptions);
 */
export interface EnterOptions extends AssertOptions {
  /** `false` admits the hop without a pacing slot (Playwright sub-resources). @default true */
  readonly paced?: boolean;
}

/**
 * A hop admitted by {@link RobotsPolicy.enter}, holding its origin's pacing slot.
 * @example
 * const slot: HopSlot = await policy.enter(url);
 */
export interface HopSlot {
  /** The hop's URL, parsed. */
  readonly url: URL;
  /**
   * Tells the pacer about the hop's response (call it when the headers are in: the time since
   * the start is the origin's response time): a 429 or 503 with `Retry-After` pauses the
   * origin for that long (capped at `maxRetryAfter`), before the next hop takes the slot; a 429
   * or 503 without one, a 500, 502, 504 or 408 is distress, and the origin backs off once the
   * slot is released; anything else is a success. Once per hop: a later call is ignored.
   */
  noteResponse(status: number, headers: HeaderInput): void;
  /**
   * Tells the pacer the hop failed without a response: a connection error or a timeout is
   * distress (the origin backs off once the slot is released); anything else (an abort, a DNS
   * failure) changes nothing. After `noteResponse`, a distress failure (the body timed out)
   * replaces what the response said.
   */
  noteFailure(error: unknown): void;
  /**
   * Says the hop is being sent now, for a slot held a while before its request goes out (a
   * crawler queue): the origin's next start then counts from now, not from the grant. Once per
   * slot; a no-op right after the grant or for an unpaced hop.
   */
  sent(): void;
  /** Gives the slot back; idempotent. */
  release(): void;
}
