import { normalizeRange } from './percent-encoding.js';
import { RobotsTxtUsageError } from './robots-txt-usage-error.js';

const PLACEHOLDER_BASE = 'http://robots-txt.invalid/';

function invalidUrl(url: unknown, why: string, cause?: unknown): RobotsTxtUsageError {
  const shown =
    typeof url === 'string'
      ? JSON.stringify(url.length > 200 ? url.slice(0, 200) + '…' : url)
      : String(url);
  return new RobotsTxtUsageError(`Invalid URL for robots.txt matching: ${shown} (${why})`, {
    reason: 'invalid-url',
    value: url,
    cause,
  });
}

/**
 * Reduces a URL to the text that robots.txt rules are matched against: path, `;params`
 * and `?query`, without the fragment, normalised like patterns (RFC 9309 §2.2.2). `*` and
 * `$` in the URL become `%2A` and `%24`, so that only a pattern's `%2A` / `%24` matches them.
 *
 * A string may be an absolute URL or a path starting with `/` (a leading `//` starts a
 * host, as in a relative reference). The path is what a WHATWG `fetch` would request
 * (dot segments resolved, `\` read as `/`), but an empty query is kept: `/search?` and
 * `/search` are different texts. Throws {@link RobotsTxtUsageError} for anything else.
 * @example
 * toMatchPath('https://example.com/a/b?c=d#top'); // '/a/b?c=d'
 * toMatchPath('https://example.com'); // '/'
 * toMatchPath('/search?'); // '/search?'
 * toMatchPath(new URL('https://example.com/ツ')); // '/%E3%83%84'
 */
export function toMatchPath(url: string | URL): string {
  if (typeof url === 'string') return stringMatchPath(url);
  if (typeof url === 'object' && url !== null && typeof url.href === 'string') {
    return hrefMatchPath(url.href, url);
  }
  throw invalidUrl(url, 'expected a string or a URL');
}

/**
 * `http(s)://` and a plain DNS host whose last label starts with a letter (so it is not an
 * IPv4 address), without '--' (IDNA), with an optional port of at most 65535; then the
 * path. Anything else is left to the WHATWG parser. Linear: labels are split by '.'.
 */
const HTTP_AUTHORITY =
  /https?:\/\/(?![^/?#]*--)(?:[A-Za-z0-9-]+\.)*[A-Za-z][A-Za-z0-9-]*(?::(?:[0-9]{1,4}|[0-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(?=[/?#]|$)/iy;
/**
 * The first character that is not plainly the same to WHATWG and to us, or the start of a
 * possible dot segment.
 */
const NOT_PLAIN = /[^A-Za-z0-9\-._~!&()+,;=:@/[\]?]|\/\./g;
/**
 * The first character that WHATWG might rewrite otherwise than our normaliser does, or that
 * needs a closer look: beyond the plain ones, `%*$"<>^`{|}` come out the same through both (as
 * escapes, or `%2A` / `%24` from us); a possible dot segment (`/.`, `%2e`); or `#`, which ends
 * the match text.
 */
const NOT_SAFE = /[^A-Za-z0-9\-._~!&()+,;=:@/[\]?%*$"<>^`{|}]|\/\.|%2[eE]/g;
function stringMatchPath(s: string): string {
  const n = s.length;
  if (n === 0) throw invalidUrl(s, 'empty');
  let r: number;
  if (s.charCodeAt(0) === 47) {
    if (n > 1 && (s.charCodeAt(1) === 47 || s.charCodeAt(1) === 92)) return slowMatchPath(s, true);
    r = 0;
  } else {
    r = authorityEnd(s);
    if (r < 0) return slowMatchPath(s, false);
  }
  if (r === n) return '/';
  // Fast path: only plain characters and no dot segment; the path is the rest as it is.
  NOT_PLAIN.lastIndex = r;
  if (!NOT_PLAIN.test(s))
    return s.charCodeAt(r) === 47 ? (r === 0 ? s : s.slice(r)) : '/' + s.slice(r);
  // Else, up to a '#', characters that the normaliser alone makes what WHATWG would request.
  NOT_SAFE.lastIndex = r;
  let end = n;
  if (NOT_SAFE.test(s)) {
    end = NOT_SAFE.lastIndex - 1; // a '#' is a match of its own: '/.' and '%2e' end otherwise
    if (s.charCodeAt(end) !== 35) return slowMatchPath(s, r === 0);
  }
  if (r === end) return '/';
  const path = s.charCodeAt(r) === 47 ? s.slice(r, end) : '/' + s.slice(r, end);
  return normalizeRange(path, 0, path.length, true, false);
}

/**
 * For `http(s)://host[:port]` with a plain DNS-style host, the index where the path
 * starts; -1 when the WHATWG parser must decide (other schemes, user info, IP literals,
 * IDNA, odd ports, anything unusual).
 */
function authorityEnd(s: string): number {
  const re = HTTP_AUTHORITY;
  re.lastIndex = 0;
  return re.test(s) ? re.lastIndex : -1;
}

/** The WHATWG URL parser decides; the match text is then cut from `href`. */
function slowMatchPath(s: string, relative: boolean): string {
  let parsed: URL;
  try {
    parsed = relative ? new URL(s, PLACEHOLDER_BASE) : new URL(s);
  } catch (cause) {
    throw invalidUrl(s, 'not an absolute URL nor a path starting with "/"', cause);
  }
  return hrefMatchPath(parsed.href, s);
}

/**
 * Cuts path + params + query out of a WHATWG-serialised `href`. `URL#search` is empty for
 * both `/a` and `/a?`; the serialisation keeps the difference.
 */
function hrefMatchPath(href: string, original: unknown): string {
  const colon = href.indexOf(':');
  if (colon < 0 || href.charCodeAt(colon + 1) !== 47 || href.charCodeAt(colon + 2) !== 47) {
    throw invalidUrl(original, 'the URL has no authority, so robots.txt does not apply');
  }
  let end = href.indexOf('#', colon + 3);
  if (end < 0) end = href.length;
  let q = href.indexOf('?', colon + 3);
  if (q > end) q = -1;
  let p = href.indexOf('/', colon + 3);
  if (p > end || (q >= 0 && p > q)) p = -1;
  let path: string;
  if (p >= 0) path = href.slice(p, end);
  else if (q >= 0) path = '/' + href.slice(q, end);
  else path = '/';
  return normalizeRange(path, 0, path.length, true, false);
}
