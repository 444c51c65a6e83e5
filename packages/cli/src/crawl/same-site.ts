/**
 * Whether two URLs are on the same site as the crawler understands it: same scheme and
 * same host name; ports may differ (`http://127.0.0.1:8080` and `http://127.0.0.1:8081` are
 * one site, two origins, each with its own robots.txt).
 *
 * @example
 * ```ts
 * isSameSite(new URL('http://127.0.0.1:8080/'), new URL('http://127.0.0.1:8081/a')); // true
 * isSameSite(new URL('http://127.0.0.1/'), new URL('https://127.0.0.1/')); // false
 * ```
 */
export function isSameSite(a: URL, b: URL): boolean {
  return a.protocol === b.protocol && a.hostname.toLowerCase() === b.hostname.toLowerCase();
}
