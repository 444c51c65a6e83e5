import type { ContentUsageVerdict, MatchedRule, Verdict } from '@polite-crawler/robots-txt';
import type { UsagePreferences } from '@polite-crawler/robots-txt';
import type { RobotsFetchRecord, RobotsStatus } from '../robots/robots-store.js';

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
  /**
   * The robots.txt part of the URL's usage preferences, computed on first read (see the README).
   * Always set on the policy's decisions; optional so that decisions built elsewhere stay valid.
   */
  readonly usage?: UsagePreferences;
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
  /**
   * Bytes of it parsed: `bytes` less a last line cut by the limit, which is not read (a rule cut
   * short must not be read as a broader one). What `parseRobotsTxt` reports as `parsedBytes`.
   */
  readonly parsedBytes: number;
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
  /**
   * The spacing (ms) this policy keeps between two requests to the URL's origin under the
   * robots.txt in force: `minInterval`, or its Crawl-delay (capped at `maxCrawlDelay`) when
   * longer. Back-off and latency-aware pacing may make a wait longer still.
   */
  readonly interval: number;
  /** How robots.txt set `usage` (rules, lines, groups, reason); absent when it was not read. */
  readonly contentUsage?: ContentUsageVerdict;
}
