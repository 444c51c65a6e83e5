import type { HttpRequest } from '@crawlee/core';

type Headers = NonNullable<HttpRequest['headers']>;

/**
 * The statuses followed as redirects (Fetch standard, "redirect status").
 * @example
 * REDIRECT_STATUSES.has(300); // false
 */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Request headers that describe the body and go when the body goes (Fetch standard §4.4). */
const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
];

/** Headers that belong to one origin and are not carried to another. */
const ORIGIN_HEADERS = ['authorization', 'cookie', 'host'];

/**
 * `headers` without the named ones, compared case-insensitively. Pure.
 * @example
 * withoutHeaders({ Cookie: 'a=1', Accept: '*\/*' }, ['cookie']); // { Accept: '*\/*' }
 */
export function withoutHeaders(headers: Headers, names: readonly string[]): Headers {
  const out: Headers = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!names.includes(name.toLowerCase())) out[name] = value;
  }
  return out;
}

/** What changes from one hop of a redirect chain to the next. */
export interface HopChange {
  readonly method: string;
  readonly headers: Headers;
  /** `false` when the body is dropped (the request becomes a body-less GET). */
  readonly keepBody: boolean;
}

/**
 * How the next hop of a redirect is requested, as a browser would (Fetch standard,
 * "HTTP-redirect fetch"): 303 turns any method but HEAD into a body-less GET; 301/302 turn a
 * POST into a body-less GET; 307/308 keep method and body. `Authorization`, `Cookie` and `Host`
 * are dropped when the target is on another origin. Pure.
 * @example
 * nextHop('POST', { 'Content-Type': 'text/plain' }, 303, new URL('https://a.test/form'), new URL('https://a.test/done'));
 * // → { method: 'GET', headers: {}, keepBody: false }
 */
export function nextHop(
  method: string,
  headers: Headers,
  status: number,
  from: URL,
  to: URL,
): HopChange {
  const upper = method.toUpperCase();
  const toGet =
    (status === 303 && upper !== 'HEAD') ||
    ((status === 301 || status === 302) && upper === 'POST');
  let next = toGet ? withoutHeaders(headers, BODY_HEADERS) : { ...headers };
  if (from.origin !== to.origin) next = withoutHeaders(next, ORIGIN_HEADERS);
  return { method: toGet ? 'GET' : method, headers: next, keepBody: !toGet };
}
