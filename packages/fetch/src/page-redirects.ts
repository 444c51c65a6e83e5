import { Headers } from 'undici';
import type { HeadersInit, RequestInit } from 'undici';
import { RobotsRedirectError } from './errors.js';

/**
 * One hop of a page request: what is sent to `url`.
 * @example
 * const hop: Hop = { url: new URL('https://example.com/'), method: 'GET', headers: {}, body: null };
 */
export interface Hop {
  readonly url: URL;
  readonly method: string;
  /** Request headers (a plain record when the caller gave none: cheaper for undici to copy). */
  readonly headers: Headers | HeadersInit;
  readonly body: NonNullable<RequestInit['body']> | null;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Headers that describe a request body and go when the body goes (fetch's request-body-header names). */
const BODY_HEADERS = [
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'content-length',
];

/** Credentials that never follow a redirect to another origin (fetch drops `authorization`; undici also the others). */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'host'];

/**
 * Whether `status` is a redirect a fetch follows (301, 302, 303, 307, 308).
 * @example
 * isRedirectStatus(308); // true
 */
export function isRedirectStatus(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/**
 * Whether a request body can be sent again on a 307/308 hop: everything but streams.
 * @example
 * isReplayableBody('a=1'); // true
 */
export function isReplayableBody(body: RequestInit['body']): boolean {
  if (body === null || body === undefined || typeof body === 'string') return true;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return true;
  if (body instanceof URLSearchParams || body instanceof FormData || body instanceof Blob)
    return true;
  return false;
}

/**
 * The request for the next hop after a redirect, following the fetch standard
 * (§4.4 HTTP-redirect fetch): 301/302 turn POST into GET and 303 turns anything but
 * GET/HEAD into GET, dropping the body and its headers; a hop to another origin drops
 * `Authorization`, `Proxy-Authorization` and `Cookie`. Throws {@link RobotsRedirectError}
 * for a missing/invalid `Location`, a non-http(s) target, or a 307/308 that would resend a
 * streamed body.
 * @example
 * const next = nextHop(hop, 303, '/done'); // GET https://example.com/done, no body
 */
export function nextHop(hop: Hop, status: number, location: string): Hop {
  let url: URL;
  try {
    url = new URL(location, hop.url);
  } catch (error) {
    throw new RobotsRedirectError({
      url: hop.url.href,
      reason: 'invalid-location',
      location,
      status,
      cause: error,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RobotsRedirectError({
      url: hop.url.href,
      reason: 'unsupported-scheme',
      location,
      status,
    });
  }
  if (url.hash === '' && hop.url.hash !== '') url.hash = hop.url.hash;
  const headers = new Headers(hop.headers);
  let { method, body } = hop;
  if (
    ((status === 301 || status === 302) && method === 'POST') ||
    (status === 303 && method !== 'GET' && method !== 'HEAD')
  ) {
    method = 'GET';
    body = null;
    for (const name of BODY_HEADERS) headers.delete(name);
  } else if (!isReplayableBody(body)) {
    throw new RobotsRedirectError({
      url: hop.url.href,
      reason: 'unreplayable-body',
      location,
      status,
    });
  }
  if (url.origin !== hop.url.origin) {
    for (const name of CREDENTIAL_HEADERS) headers.delete(name);
  }
  return { url, method, headers, body };
}
