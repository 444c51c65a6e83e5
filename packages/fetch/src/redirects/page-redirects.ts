import { Headers } from 'undici';
import type { HeadersInit, RequestInit } from 'undici';
import { REDIRECT_STATUSES, nextRedirectHop } from './redirect-rule.js';

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
 * The request for the next hop after a redirect: {@link nextRedirectHop}'s rule applied to a
 * fetch request (301/302 turn POST into GET and 303 turns anything but GET/HEAD into GET,
 * dropping the body and its headers; a hop to another origin drops `Authorization`,
 * `Proxy-Authorization`, `Cookie` and `Host`), and the fragment kept when `Location` has none.
 * Throws `RobotsRedirectError` for a missing/invalid `Location`, a non-http(s) target, or
 * a 307/308 that would resend a streamed body.
 * @example
 * const next = nextHop(hop, 303, '/done'); // GET https://example.com/done, no body
 */
export function nextHop(hop: Hop, status: number, location: string): Hop {
  const next = nextRedirectHop(
    { url: hop.url, method: hop.method, replayableBody: isReplayableBody(hop.body) },
    status,
    location,
  );
  const { url } = next;
  if (url.hash === '' && hop.url.hash !== '') url.hash = hop.url.hash;
  const headers = new Headers(hop.headers);
  for (const name of next.dropHeaders) headers.delete(name);
  return { url, method: next.method, headers, body: next.keepBody ? hop.body : null };
}
