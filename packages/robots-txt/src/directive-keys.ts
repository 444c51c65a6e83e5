/** The keys the parser knows. Numbers, so the scanner's hot loop compares integers. */
export const KEY_UNKNOWN = 0;
export const KEY_USER_AGENT = 1;
export const KEY_USER_AGENT_PURPOSE = 2;
export const KEY_ALLOW = 3;
export const KEY_DISALLOW = 4;
export const KEY_SITEMAP = 5;
export const KEY_CRAWL_DELAY = 6;
export const KEY_HOST = 7;
/** A key other crawlers use that this parser knows and ignores (`noindex`, `clean-param`…). */
export const KEY_OTHER_KNOWN = 8;
/** AI usage preferences (draft-ietf-aipref-attach §3) and Cloudflare's `Content-Signal`: rules of a group. */
export const KEY_CONTENT_USAGE = 9;
export const KEY_CONTENT_SIGNAL = 10;

/** Set on the result of {@link classifyKey} when the key is an accepted misspelling. */
export const KEY_TYPO = 0x100;

/** The canonical spelling of each key number (the line report's `LineKey`). */
export const KEY_NAMES = Object.freeze([
  'unknown',
  'user-agent',
  'user-agent-purpose',
  'allow',
  'disallow',
  'sitemap',
  'crawl-delay',
  'host',
  'other',
  'content-usage',
  'content-signal',
] as const);

/**
 * Keys that other crawlers read (or once read) and this parser knows and ignores, each with
 * the one-line reason that the `ignored-key` diagnostic gives. `host` has a key number of
 * its own (the line report names it); the others are {@link KEY_OTHER_KNOWN}.
 * `content-usage` and `content-signal` are not here: they are read (KEY_CONTENT_USAGE,
 * KEY_CONTENT_SIGNAL).
 */
export const IGNORED_KEYS: Readonly<Record<string, string>> = Object.freeze({
  host: "Yandex's preferred-mirror key, not part of RFC 9309; it names no rule for crawlers",
  'clean-param': "Yandex's URL-parameter hint, not part of RFC 9309",
  noindex:
    'not a robots.txt rule, and supported by no major crawler since 2019 (Google dropped it on 1 September 2019); use a robots meta tag or X-Robots-Tag',
  nofollow: 'a page-level rule, not a robots.txt rule; use a robots meta tag or X-Robots-Tag',
  noarchive: 'a page-level rule, not a robots.txt rule; use a robots meta tag or X-Robots-Tag',
  'request-rate':
    'a 1996 extension draft that RFC 9309 did not adopt; pacing is not read from it (Crawl-delay is)',
  'visit-time': 'a 1996 extension draft that RFC 9309 did not adopt; it restricts nothing here',
});

const SPELLINGS: readonly (readonly [string, number])[] = [
  ['user-agent', KEY_USER_AGENT],
  ['useragent', KEY_USER_AGENT | KEY_TYPO],
  ['user agent', KEY_USER_AGENT | KEY_TYPO],
  ['user-agent-purpose', KEY_USER_AGENT_PURPOSE],
  ['allow', KEY_ALLOW],
  ['disallow', KEY_DISALLOW],
  ['dissallow', KEY_DISALLOW | KEY_TYPO],
  ['dissalow', KEY_DISALLOW | KEY_TYPO],
  ['disalow', KEY_DISALLOW | KEY_TYPO],
  ['diasllow', KEY_DISALLOW | KEY_TYPO],
  ['disallaw', KEY_DISALLOW | KEY_TYPO],
  ['sitemap', KEY_SITEMAP],
  ['site-map', KEY_SITEMAP | KEY_TYPO],
  ['crawl-delay', KEY_CRAWL_DELAY],
  ['host', KEY_HOST],
  ...Object.keys(IGNORED_KEYS)
    .filter((name) => name !== 'host')
    .map((name): [string, number] => [name, KEY_OTHER_KNOWN]),
  ['content-usage', KEY_CONTENT_USAGE],
  ['content-signal', KEY_CONTENT_SIGNAL],
];

/**
 * The spellings as one automaton over ASCII, upper and lower case alike, so that a key is read
 * in one pass over its characters: `KEY_NEXT[state * 128 + c]` is the state after character
 * `c` (-1: no spelling goes on with it), `KEY_FOUND[state]` the key (and KEY_TYPO) of the
 * spelling that ends there, KEY_UNKNOWN when none does. State 0 is the start.
 */
export const { next: KEY_NEXT, found: KEY_FOUND } = ((): {
  next: Int16Array;
  found: Uint16Array;
} => {
  const next: number[] = [];
  const found: number[] = [KEY_UNKNOWN];
  for (const [name, result] of SPELLINGS) {
    let state = 0;
    for (const ch of name) {
      let to = next[state * 128 + ch.charCodeAt(0)] ?? -1;
      if (to < 0) {
        to = found.push(KEY_UNKNOWN) - 1;
        next[state * 128 + ch.toLowerCase().charCodeAt(0)] = to;
        next[state * 128 + ch.toUpperCase().charCodeAt(0)] = to;
      }
      state = to;
    }
    found[state] = result;
  }
  return {
    next: Int16Array.from({ length: found.length * 128 }, (_, i) => next[i] ?? -1),
    found: Uint16Array.from(found),
  };
})();

/**
 * Classifies the key `text[start, end)`, case-insensitively: a `KEY_*` number, with
 * {@link KEY_TYPO} set for an accepted misspelling.
 */
export function classifyKey(text: string, start: number, end: number): number {
  let state = 0;
  for (let i = start; i < end && state >= 0; i++) {
    const c = text.charCodeAt(i);
    state = c < 128 ? KEY_NEXT[state * 128 + c]! : -1;
  }
  return state < 0 ? KEY_UNKNOWN : KEY_FOUND[state]!;
}
