import { DEFAULTS as FETCH_DEFAULTS } from '@polite-crawler/fetch';

/**
 * Every default of {@link politeCrawlee}, in one frozen object used by the code and the README.
 * @example
 * politeCrawlee(policy, options, { maxRedirects: DEFAULTS.maxRedirects / 2 });
 */
export const DEFAULTS = Object.freeze({
  noindex: 'handle',
  userAgent: 'policy',
  /** Redirect hops an HTTP request follows, each gated by its own origin's robots.txt. */
  maxRedirects: FETCH_DEFAULTS.maxRedirects,
  /** Bytes of an HTML body scanned for robots metas in `<head>`. */
  maxHeadBytes: FETCH_DEFAULTS.maxHeadBytes,
} as const);
