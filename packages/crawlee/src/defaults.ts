import { DEFAULTS as FETCH_DEFAULTS } from '@polite-crawler/fetch';

/**
 * Every default of {@link politeCrawlee} (each option's doc is in `PoliteCrawleeOptions`), in one
 * frozen object used by the code and the README.
 * @example
 * politeCrawlee(policy, options, { maxRedirects: DEFAULTS.maxRedirects / 2 });
 */
export const DEFAULTS = Object.freeze({
  noindex: 'annotate',
  userAgent: 'policy',
  maxRedirects: FETCH_DEFAULTS.maxRedirects,
  maxHeadBytes: FETCH_DEFAULTS.maxHeadBytes,
  maxWaitingRequests: 1_000,
  /** No HTTP cache: got-scraping sends (see `PoliteCrawleeOptions.cache`). */
  cache: false,
  /**
   * Skipped URLs remembered so that each is reported once (log line, event, `onSkippedRequest`)
   * however many pages link to it; past it, the oldest are forgotten (and may be reported again).
   */
  maxRememberedSkips: 10_000,
} as const);

/**
 * The accepted range of each numeric option that is the adapter's own (the others are
 * `@polite-crawler/fetch`'s `OPTION_BOUNDS`).
 * @example
 * const [min, max] = CRAWLEE_OPTION_BOUNDS.maxWaitingRequests; // 1, 100000
 */
export const CRAWLEE_OPTION_BOUNDS = Object.freeze({
  maxWaitingRequests: [1, 100_000] as const,
});
