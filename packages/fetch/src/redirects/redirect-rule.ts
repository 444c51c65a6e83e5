import { RobotsRedirectError } from '../errors/errors.js';
import type { RedirectFailureReason } from '../errors/errors.js';

/**
 * The statuses followed as redirects (Fetch standard, "redirect status"): 301, 302, 303, 307,
 * 308. A 300 or 304 is a final response.
 * @example
 * REDIRECT_STATUSES.has(303); // true
 * REDIRECT_STATUSES.has(304); // false
 */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * The request whose response redirected, as {@link nextRedirectHop} needs it.
 * @example
 * const from: RedirectingRequest = { url: new URL('https://a.test/form'), method: 'POST', replayableBody: true };
 */
export interface RedirectingRequest {
  /** The URL that answered with the redirect. */
  readonly url: URL;
  readonly method: string;
  /** Whether its body (if any) can be sent again: `false` for a stream already consumed. */
  readonly replayableBody: boolean;
}

/**
 * How the next hop of a redirect is requested.
 * @example
 * const { url, method, keepBody, dropHeaders }: RedirectHop = nextRedirectHop(from, 302, '/next');
 */
export interface RedirectHop {
  /** The resolved `Location` (absolute, http(s); no fragment inherited). */
  readonly url: URL;
  readonly method: string;
  /** `false` when the body is dropped (the request became a body-less GET). */
  readonly keepBody: boolean;
  /** Lower-case names of the request headers not carried to the next hop. */
  readonly dropHeaders: readonly string[];
}

/** Request headers that describe the body and go when the body goes (Fetch standard, request-body-header names). */
const BODY_HEADERS = Object.freeze([
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'content-length',
]);

/** Headers that belong to one origin and are not carried to another. */
const ORIGIN_HEADERS = Object.freeze(['authorization', 'proxy-authorization', 'cookie', 'host']);

const BODY_AND_ORIGIN_HEADERS = Object.freeze([...BODY_HEADERS, ...ORIGIN_HEADERS]);
const NO_HEADERS: readonly string[] = Object.freeze([]);

/**
 * The next hop of a redirect, as a browser makes it (Fetch standard, "HTTP-redirect fetch"; the
 * README spells the rules out). Pure: applying `dropHeaders` is the caller's part. Throws
 * {@link RobotsRedirectError} (`invalid-location`, `unsupported-scheme`, `unreplayable-body`).
 * @example
 * const hop = nextRedirectHop({ url: new URL('https://a.test/form'), method: 'POST', replayableBody: true }, 303, '/done');
 * // → { url: URL('https://a.test/done'), method: 'GET', keepBody: false, dropHeaders: ['content-encoding', …] }
 */
export function nextRedirectHop(
  from: RedirectingRequest,
  status: number,
  location: string,
): RedirectHop {
  const refused = (reason: RedirectFailureReason, cause?: unknown): RobotsRedirectError =>
    new RobotsRedirectError({ url: from.url.href, reason, location, status, cause });
  let url: URL;
  try {
    url = new URL(location, from.url);
  } catch (cause) {
    throw refused('invalid-location', cause);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refused('unsupported-scheme');
  const upper = from.method.toUpperCase();
  const toGet =
    ((status === 301 || status === 302) && upper === 'POST') ||
    (status === 303 && upper !== 'GET' && upper !== 'HEAD');
  if (!toGet && !from.replayableBody) throw refused('unreplayable-body');
  const crossOrigin = url.origin !== from.url.origin;
  let dropHeaders = NO_HEADERS;
  if (toGet) dropHeaders = crossOrigin ? BODY_AND_ORIGIN_HEADERS : BODY_HEADERS;
  else if (crossOrigin) dropHeaders = ORIGIN_HEADERS;
  return { url, method: toGet ? 'GET' : from.method, keepBody: !toGet, dropHeaders };
}
