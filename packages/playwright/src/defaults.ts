import { DEFAULTS as FETCH_DEFAULTS } from '@polite-crawler/fetch';

/**
 * Every default of {@link createPlaywrightGate}, in one frozen object used by the code and the
 * README alike.
 * @example
 * createPlaywrightGate({ policy, maxRedirects: DEFAULTS.maxRedirects / 2 });
 */
export const DEFAULTS = Object.freeze({
  /** Redirect hops followed for one browser request, each gated by its own origin's robots.txt. */
  maxRedirects: FETCH_DEFAULTS.maxRedirects,
  /** Which User-Agent the gated requests carry: the policy's (as robots.txt was fetched with). */
  userAgent: 'policy',
  /** Which requests wait for the origin's pacing slot: every request, or documents only. */
  pace: 'all',
  /** Which robots metas count: those served in the HTML, those in the rendered DOM, or both. */
  metas: 'both',
  /** Bytes of a served HTML body read looking for robots metas in `<head>`. */
  maxHeadBytes: FETCH_DEFAULTS.maxHeadBytes,
} as const);
