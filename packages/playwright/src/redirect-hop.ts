/**
 * One request of a redirect chain, as the gate sends it.
 * @example
 * const hop: Hop = { url: 'https://a.test/', method: 'GET', headers: {}, body: undefined };
 */
export interface Hop {
  readonly url: string;
  readonly method: string;
  /** Lower-case header names; never `cookie` or `host` (the browser context adds them per URL). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | undefined;
}

/**
 * The statuses a browser follows as redirects (Fetch standard, "redirect status").
 * @example
 * REDIRECT_STATUSES.has(303); // true
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

/**
 * The request for the next hop of a redirect, as a browser would make it (Fetch standard,
 * "HTTP-redirect fetch"): 303 turns any method but HEAD into a body-less GET; 301/302 turn a
 * POST into a body-less GET; 307/308 keep method and body. `Authorization` is dropped when the
 * target is on another origin. Pure.
 * @example
 * nextHop({ url: 'https://a.test/form', method: 'POST', headers: {}, body: Buffer.from('x=1') }, 303, new URL('https://a.test/done'));
 * // → { url: 'https://a.test/done', method: 'GET', headers: {}, body: undefined }
 */
export function nextHop(current: Hop, status: number, target: URL): Hop {
  const method = current.method.toUpperCase();
  const toGet =
    (status === 303 && method !== 'HEAD') ||
    ((status === 301 || status === 302) && method === 'POST');
  const headers: Record<string, string> = { ...current.headers };
  if (toGet) for (const name of BODY_HEADERS) delete headers[name];
  if (new URL(current.url).origin !== target.origin) delete headers.authorization;
  return {
    url: target.href,
    method: toGet ? 'GET' : current.method,
    headers,
    body: toGet ? undefined : current.body,
  };
}
