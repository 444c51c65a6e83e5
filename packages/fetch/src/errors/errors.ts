import { PoliteError, PoliteTypeError, errorBrand, guardOf } from './polite-error.js';
import type { MatchedRule } from '@polite-crawler/robots-txt';
import type { RobotsDirectives } from '@polite-crawler/robots-tag';
import type { UsageCategory, UsagePreferences } from '@polite-crawler/robots-txt';
import type { Decision, DeniedReason } from '../policy/decision.js';

/**
 * Every error code this package throws or rejects with. Each one is documented in the
 * README's errors table (a test checks both directions).
 * @example
 * if (ERROR_CODES.includes(error.code)) console.log('from @polite-crawler/fetch');
 */
export const ERROR_CODES = Object.freeze([
  'ERR_ROBOTS_DENIED',
  'ERR_ROBOTS_NOINDEX',
  'ERR_ROBOTS_USAGE',
  'ERR_ROBOTS_TOO_MANY_REDIRECTS',
  'ERR_ROBOTS_REDIRECT',
  'ERR_ROBOTS_INVALID_OPTION',
  'ERR_ROBOTS_INVALID_URL',
  'ERR_ROBOTS_CLOSED',
  'ERR_ROBOTS_UNSUPPORTED_NODE',
] as const);

/**
 * One of {@link ERROR_CODES}.
 * @example
 * const code: PoliteErrorCode = 'ERR_ROBOTS_DENIED';
 */
export type PoliteErrorCode = (typeof ERROR_CODES)[number];

function deniedMessage({ reason, decision, originalUrl }: RobotsDeniedErrorInit): string {
  const { url, rule } = decision;
  const why =
    decision.reason === 'unreachable'
      ? `robots.txt of ${decision.origin} is unreachable`
      : `disallowed${rule === undefined ? '' : ` by line ${rule.line} "${rule.text}"`}`;
  if (reason === 'redirect-disallowed') {
    return `Redirect refused by robots.txt: ${url} (redirected from ${originalUrl ?? '?'}; ${why})`;
  }
  return `Request denied by robots.txt: ${url} (${why})`;
}

/**
 * Fields of a {@link RobotsDeniedError}.
 * @example
 * new RobotsDeniedError({ reason: 'disallowed', decision });
 */
export interface RobotsDeniedErrorInit {
  readonly reason: DeniedReason;
  readonly decision: Decision;
  readonly originalUrl?: string;
  readonly cause?: unknown;
}

/**
 * A request was refused before anything was sent: robots.txt disallows the URL, robots.txt is
 * unreachable, or a redirect led to a URL its own robots.txt refuses.
 * @example
 * try { await politeFetch(url); } catch (error) {
 *   if (isRobotsDeniedError(error)) console.log(error.reason, error.line, error.rule?.pattern);
 * }
 */
export class RobotsDeniedError extends PoliteError {
  static override readonly brand = errorBrand('RobotsDeniedError');
  override readonly name = 'RobotsDeniedError' as const;
  override readonly code = 'ERR_ROBOTS_DENIED' as const;
  /** The refused URL (for `redirect-disallowed`, the redirect target). */
  declare readonly url: string;
  declare readonly origin: string;
  declare readonly reason: DeniedReason;
  /** For `redirect-disallowed`: the URL the caller asked for. */
  declare readonly originalUrl: string | undefined;
  /** The deciding robots.txt rule (its line and text included), when a rule decided. */
  declare readonly rule: MatchedRule | undefined;
  /** Its 1-based line number in robots.txt. */
  declare readonly line: number | undefined;
  /** The full decision for the refused URL. */
  declare readonly decision: Decision;

  constructor(init: RobotsDeniedErrorInit) {
    const { decision } = init;
    super(deniedMessage(init), {
      url: decision.url,
      origin: decision.origin,
      reason: init.reason,
      originalUrl: init.originalUrl,
      rule: decision.rule,
      line: decision.line,
      decision,
      cause: init.cause,
    });
  }
}

/**
 * Whether `value` is a {@link RobotsDeniedError}, also from another copy of this package.
 * @example
 * if (isRobotsDeniedError(error)) skip(error.url);
 */
export const isRobotsDeniedError = guardOf(RobotsDeniedError);

/**
 * With `noindex: 'reject'`, a page's Robots-Tag header or robots meta says `noindex` (or its
 * `unavailable_after` date has passed). The body was discarded.
 * @example
 * const fetch = createPoliteFetch({ userAgent, noindex: 'reject' });
 * await fetch(url).catch((e) => { if (isRobotsNoIndexError(e)) console.log(e.directives.rules); });
 */
export class RobotsNoIndexError extends PoliteError {
  static override readonly brand = errorBrand('RobotsNoIndexError');
  override readonly name = 'RobotsNoIndexError' as const;
  override readonly code = 'ERR_ROBOTS_NOINDEX' as const;
  declare readonly url: string;
  declare readonly origin: string;
  declare readonly status: number;
  declare readonly directives: RobotsDirectives;

  constructor(init: { url: string; status: number; directives: RobotsDirectives }) {
    const unavailable = init.directives.noindexReason === 'unavailable_after';
    super(
      `Page refused by its robots directives: ${init.url} (${unavailable ? 'unavailable_after has passed' : 'noindex'})`,
      { ...init, origin: new URL(init.url).origin },
    );
  }
}

/**
 * Whether `value` is a {@link RobotsNoIndexError}, also from another copy of this package.
 * @example
 * if (isRobotsNoIndexError(error)) markNotIndexable(error.url);
 */
export const isRobotsNoIndexError = guardOf(RobotsNoIndexError);

/**
 * With `usage: { <category>: 'reject' }`, the page's combined usage preferences (robots.txt
 * `Content-Usage` / `Content-Signal` for its URL and its `Content-Usage` response field) say
 * `disallowed` for a category the crawler declared. The body was discarded.
 * @example
 * const fetch = createPoliteFetch({ userAgent, usage: { 'train-ai': 'reject' } });
 * await fetch(url).catch((e) => { if (isRobotsUsageError(e)) console.log(e.categories, e.usage.sources); });
 */
export class RobotsUsageError extends PoliteError {
  static override readonly brand = errorBrand('RobotsUsageError');
  override readonly name = 'RobotsUsageError' as const;
  override readonly code = 'ERR_ROBOTS_USAGE' as const;
  declare readonly url: string;
  declare readonly origin: string;
  declare readonly status: number;
  /** The declared categories whose preference is `disallowed`. */
  declare readonly categories: readonly UsageCategory[];
  /** The combined preferences, with the statements (robots.txt lines, field) behind each. */
  declare readonly usage: UsagePreferences;

  constructor(init: {
    url: string;
    status: number;
    categories: readonly UsageCategory[];
    usage: UsagePreferences;
  }) {
    const why = init.categories
      .map((category) => {
        const where = init.usage.sources[category].map((source) =>
          source.kind === 'content-usage-field'
            ? 'Content-Usage field'
            : `robots.txt line ${source.line}`,
        );
        return `${category} disallowed by ${where.join(' and ')}`;
      })
      .join('; ');
    super(`Page refused by its usage preferences: ${init.url} (${why})`, {
      ...init,
      origin: new URL(init.url).origin,
    });
  }
}

/**
 * Whether `value` is a {@link RobotsUsageError}, also from another copy of this package.
 * @example
 * if (isRobotsUsageError(error)) skipForTraining(error.url);
 */
export const isRobotsUsageError = guardOf(RobotsUsageError);

/**
 * A page redirected more than `maxRedirects` times. A `TypeError`, as fetch's own redirect
 * failures are.
 * @example
 * if (isRobotsTooManyRedirectsError(error)) console.log(error.redirects);
 */
export class RobotsTooManyRedirectsError extends PoliteTypeError {
  static override readonly brand = errorBrand('RobotsTooManyRedirectsError');
  override readonly name = 'RobotsTooManyRedirectsError' as const;
  override readonly code = 'ERR_ROBOTS_TOO_MANY_REDIRECTS' as const;
  /** The URL the caller asked for. */
  declare readonly url: string;
  /** Every redirect target followed, in order. */
  declare readonly redirects: readonly string[];
  declare readonly maxRedirects: number;

  constructor(init: { url: string; redirects: readonly string[]; maxRedirects: number }) {
    super(`Too many redirects: ${init.url} (more than ${init.maxRedirects})`, init);
  }
}

/**
 * Whether `value` is a {@link RobotsTooManyRedirectsError}, also from another copy of this package.
 * @example
 * if (isRobotsTooManyRedirectsError(error)) console.log(error.redirects.length);
 */
export const isRobotsTooManyRedirectsError = guardOf(RobotsTooManyRedirectsError);

/**
 * Why a page redirect could not be followed:
 * - `redirect-mode-error`: the request said `redirect: 'error'`.
 * - `invalid-location`: the `Location` header is not a valid URL.
 * - `unsupported-scheme`: the target is not http(s).
 * - `unreplayable-body`: a 307/308 would resend a streamed request body.
 * @example
 * if (error.reason === ('unsupported-scheme' satisfies RedirectFailureReason)) skip();
 */
export type RedirectFailureReason =
  'redirect-mode-error' | 'invalid-location' | 'unsupported-scheme' | 'unreplayable-body';

/**
 * A page redirect could not be followed (see {@link RedirectFailureReason}). A `TypeError`, as
 * fetch's own redirect failures are.
 * @example
 * if (isRobotsRedirectError(error) && error.reason === 'redirect-mode-error') console.log(error.location);
 */
export class RobotsRedirectError extends PoliteTypeError {
  static override readonly brand = errorBrand('RobotsRedirectError');
  override readonly name = 'RobotsRedirectError' as const;
  override readonly code = 'ERR_ROBOTS_REDIRECT' as const;
  /** The URL whose response redirected. */
  declare readonly url: string;
  declare readonly reason: RedirectFailureReason;
  /** The raw `Location` value. */
  declare readonly location: string | undefined;
  declare readonly status: number;

  constructor(init: {
    url: string;
    reason: RedirectFailureReason;
    location?: string | undefined;
    status: number;
    cause?: unknown;
  }) {
    super(
      `Redirect not followed: ${init.url} (${init.reason}${init.location === undefined ? '' : ` to ${init.location}`})`,
      { location: undefined, ...init },
    );
  }
}

/**
 * Whether `value` is a {@link RobotsRedirectError}, also from another copy of this package.
 * @example
 * if (isRobotsRedirectError(error)) console.log(error.reason);
 */
export const isRobotsRedirectError = guardOf(RobotsRedirectError);

/**
 * An option passed to a factory is invalid, or is not an option of that factory (then `value` is
 * the value given and `suggestion` the closest known option, if one is close). Thrown at
 * construction, naming the option.
 * @example
 * try { createRobotsPolicy({ userAgent: '' }); } catch (e) { if (isRobotsInvalidOptionError(e)) console.log(e.option); }
 */
export class RobotsInvalidOptionError extends PoliteTypeError {
  static override readonly brand = errorBrand('RobotsInvalidOptionError');
  override readonly name = 'RobotsInvalidOptionError' as const;
  override readonly code = 'ERR_ROBOTS_INVALID_OPTION' as const;
  /** The option's name, e.g. `productToken`. */
  declare readonly option: string;
  declare readonly value: unknown;
  /** For an unknown option: the known option closest to its name (`minInterval` for `minIntervall`). */
  declare readonly suggestion: string | undefined;

  constructor(
    option: string,
    value: unknown,
    requirement: string,
    extra: { readonly suggestion?: string | undefined; readonly cause?: unknown } = {},
  ) {
    const { suggestion, cause } = extra;
    const hint = suggestion === undefined ? '' : `; did you mean ${suggestion}?`;
    super(`Invalid option: ${option} (${requirement}${hint}; got ${describeValue(value)})`, {
      option,
      value,
      suggestion,
      cause,
    });
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  }
  const printable = value === null || ['number', 'boolean', 'undefined'].includes(typeof value);
  return printable ? String(value) : typeof value;
}

/**
 * Whether `value` is a {@link RobotsInvalidOptionError}, also from another copy of this package.
 * @example
 * if (isRobotsInvalidOptionError(error)) console.error(`fix option ${error.option}`);
 */
export const isRobotsInvalidOptionError = guardOf(RobotsInvalidOptionError);

/**
 * A URL given to the policy or the fetch is not an absolute http(s) URL.
 * @example
 * await policy.check('ftp://example.com/').catch((e) => isRobotsInvalidUrlError(e) && console.log(e.url));
 */
export class RobotsInvalidUrlError extends PoliteTypeError {
  static override readonly brand = errorBrand('RobotsInvalidUrlError');
  override readonly name = 'RobotsInvalidUrlError' as const;
  override readonly code = 'ERR_ROBOTS_INVALID_URL' as const;
  declare readonly url: string;

  constructor(url: string, why: string, cause?: unknown) {
    super(`Invalid URL: ${url} (${why})`, { url, cause });
  }
}

/**
 * Whether `value` is a {@link RobotsInvalidUrlError}, also from another copy of this package.
 * @example
 * if (isRobotsInvalidUrlError(error)) console.log('bad URL', error.url);
 */
export const isRobotsInvalidUrlError = guardOf(RobotsInvalidUrlError);

/**
 * The policy (or the fetch that owns it) was closed; pending and later calls reject with this.
 * @example
 * await policy.close(); await policy.check(url).catch((e) => isRobotsClosedError(e)); // true
 */
export class RobotsClosedError extends PoliteError {
  static override readonly brand = errorBrand('RobotsClosedError');
  override readonly name = 'RobotsClosedError' as const;
  override readonly code = 'ERR_ROBOTS_CLOSED' as const;

  constructor(what = 'robots policy') {
    super(`Closed: ${what} (close() was called)`, {});
  }
}

/**
 * Whether `value` is a {@link RobotsClosedError}, also from another copy of this package.
 * @example
 * if (isRobotsClosedError(error)) return; // shutting down
 */
export const isRobotsClosedError = guardOf(RobotsClosedError);

/**
 * The package was loaded on a Node.js older than it supports (undici 8, its transport, needs
 * Node 22.19 or later). Thrown when the package entry is imported, before undici is.
 * @example
 * await import('@polite-crawler/fetch').catch((e) => isRobotsUnsupportedNodeError(e)); // on Node 20
 */
export class RobotsUnsupportedNodeError extends PoliteError {
  static override readonly brand = errorBrand('RobotsUnsupportedNodeError');
  override readonly name = 'RobotsUnsupportedNodeError' as const;
  override readonly code = 'ERR_ROBOTS_UNSUPPORTED_NODE' as const;
  /** The running Node.js version, as `process.version` gives it. */
  declare readonly running: string;
  /** The Node.js versions the package supports (its `engines` range). */
  declare readonly required: string;

  constructor(running: string, required: string) {
    super(
      `@polite-crawler/fetch needs Node.js ${required}; this is Node.js ${running}. ` +
        'Run it on Node 22.19 or later (Node 24 or 26 LTS).',
      { running, required },
    );
  }
}

/**
 * Whether `value` is a {@link RobotsUnsupportedNodeError}, also from another copy of this package.
 * @example
 * if (isRobotsUnsupportedNodeError(error)) console.error(error.message);
 */
export const isRobotsUnsupportedNodeError = guardOf(RobotsUnsupportedNodeError);
