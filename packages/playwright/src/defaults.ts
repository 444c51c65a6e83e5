import { DEFAULTS as FETCH_DEFAULTS } from '@polite-crawler/fetch';

/**
 * Every default of {@link createPlaywrightGate} (each option's doc is in `PlaywrightGateOptions`),
 * in one frozen object used by the code and the README alike.
 * @example
 * createPlaywrightGate({ policy, maxRedirects: DEFAULTS.maxRedirects / 2 });
 */
export const DEFAULTS = Object.freeze({
  maxRedirects: FETCH_DEFAULTS.maxRedirects,
  userAgent: 'policy',
  pace: 'all',
  metas: 'both',
  maxHeadBytes: FETCH_DEFAULTS.maxHeadBytes,
  /** No HTTP cache: the context's request API sends (see `PlaywrightGateOptions.cache`). */
  cache: false,
} as const);
