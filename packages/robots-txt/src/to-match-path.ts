import { normalizeRange } from './percent-encoding.js';
import { RobotsTxtUsageError } from './robots-txt-usage-error.js';

/**
 * Character classes of the fast path for string URLs: 0 = the WHATWG URL parser leaves it
 * alone and so does our normaliser; 1 = WHATWG leaves it alone but our normaliser rewrites
 * it; 2 = WHATWG might rewrite it (or it needs a closer look), so take the slow path.
 */
const FAST = ((): Uint8Array => {
  const t = new Uint8Array(128).fill(2);
  for (let c = 0x21; c < 0x7f; c++) t[c] = 0;
  for (const ch of '%*$"<>^`{|}') t[ch.charCodeAt(0)] = 1;
  t[92] = 2; // '\' is '/' to WHATWG in special URLs
  t[39] = 2; // "'" is escaped by WHATWG in special queries
  t[46] = 2; // '.' may start a dot segment: checked in place
  t[35] = 2; // '#': end of the match text, handled in place
  t[63] = 2; // '?': start of the query, handled in place
  return t;
})();

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
  return scanMatchPath(s, r);
}

/** The path of `s` from `r`, character by character (for paths with `%`, `#`, `*`…). */
function scanMatchPath(s: string, r: number): string {
  const n = s.length;
  let needs = false;
  let inQuery = false;
  let end = n;
  for (let i = r; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128) return slowMatchPath(s, r === 0);
    const cls = FAST[c];
    if (cls === 0) continue;
    if (cls === 1) {
      needs = true;
      if (c === 37 && !inQuery) {
        // '%2e' is a dot to WHATWG, in path segments.
        const c2 = s.charCodeAt(i + 2) | 0x20;
        if (s.charCodeAt(i + 1) === 50 && c2 === 101) return slowMatchPath(s, r === 0);
      }
      continue;
    }
    if (c === 35) {
      end = i;
      break;
    }
    if (c === 63) {
      inQuery = true;
      continue;
    }
    if (c === 46) {
      if (!inQuery && i > r && s.charCodeAt(i - 1) === 47) return slowMatchPath(s, r === 0);
      continue;
    }
    return slowMatchPath(s, r === 0);
  }
  if (r === end) return '/';
  const path = s.charCodeAt(r) === 47 ? s.slice(r, end) : '/' + s.slice(r, end);
  return needs ? normalizeRange(path, 0, path.length, true, false) : path;
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
