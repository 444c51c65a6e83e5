/**
 * Every default of {@link politeCrawlee}, in one frozen object used by the code and the README.
 * @example
 * politeCrawlee(policy, options, { maxRedirects: DEFAULTS.maxRedirects / 2 });
 */
export const DEFAULTS = Object.freeze({
  noindex: 'handle',
  userAgent: 'policy',
  /** Redirect hops an HTTP request follows, each gated by its own origin's robots.txt. */
  maxRedirects: 20,
  /** Bytes of an HTML body scanned for robots metas in `<head>`. */
  maxHeadBytes: 262_144,
} as const);

/** Hard bounds on the numeric options: [min, max]. */
export const BOUNDS = Object.freeze({
  maxRedirects: [0, 100],
  maxHeadBytes: [1_024, 16 * 1024 * 1024],
} as const);
