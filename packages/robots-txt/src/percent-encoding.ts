/**
 * The normalisation of RFC 9309 §2.2.2, shared by patterns and URLs: octets outside the
 * URI character set (and every non-ASCII octet) are percent-encoded with upper-case hex,
 * existing `%xx` escapes get upper-case hex, and escapes of *unreserved* ASCII are decoded.
 * `*` and `$` are special: in a URL they always become `%2A` / `%24`, so that they can
 * only match a pattern's `%2A` / `%24` (RFC 9309 §2.2.3); in a pattern `*` stays the
 * wildcard and `$` stays the end anchor only as the last character.
 */

/** Character classes of ASCII for the normaliser. */
const KEEP = 0; // unreserved or reserved: copied as is
const ENCODE = 1; // outside the URI character set: %XX
const PERCENT = 2;
const STAR = 3;
const DOLLAR = 4;

const HEX = '0123456789ABCDEF';

const UNRESERVED_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';

function buildClasses(): Uint8Array {
  const table = new Uint8Array(128).fill(ENCODE);
  const keep = UNRESERVED_CHARS + ":/?[]@!&'()+,;=";
  for (let i = 0; i < keep.length; i++) table[keep.charCodeAt(i)] = KEEP;
  table[37] = PERCENT; // %
  table[42] = STAR; // *
  table[36] = DOLLAR; // $
  // '#' stays ENCODE: it can only be data here (comments and fragments are gone).
  return table;
}

const CLASSES = buildClasses();

function buildUnreserved(): Uint8Array {
  const table = new Uint8Array(128);
  for (let i = 0; i < UNRESERVED_CHARS.length; i++) table[UNRESERVED_CHARS.charCodeAt(i)] = 1;
  // `'` is reserved in RFC 3986, but the WHATWG URL parser (fetch, browsers) escapes it in a
  // query: `/s?q='` is requested as `/s?q=%27`. Decoded here on both sides, so that a rule
  // written with `'` matches what is sent, and one written with `%27` still does.
  table[0x27] = 1;
  return table;
}

const UNRESERVED = buildUnreserved();

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

function pct(byte: number): string {
  return '%' + HEX[byte >> 4]! + HEX[byte & 15]!;
}

/**
 * Normalises `src[start, end)`; a slice that is normal already (nearly every real rule and
 * URL) is returned as it is, after one pass of table look-ups.
 * @param isUrl URL mode: `*` → `%2A`, `$` → `%24`. Pattern mode keeps `*`, and `$` when it
 *   is the last character.
 * @param latin1 The string holds raw bytes (a body that was not valid UTF-8): characters
 *   U+0080–U+00FF stand for one octet each instead of being UTF-8 encoded.
 */
export function normalizeRange(
  src: string,
  start: number,
  end: number,
  isUrl: boolean,
  latin1: boolean,
): string {
  let out = '';
  let copyFrom = start;
  for (let i = start; i < end; i++) {
    const c = src.charCodeAt(i);
    let replacement: string;
    let consumed = 1;
    if (c < 128) {
      const cls = CLASSES[c]!;
      if (cls === KEEP) continue;
      if (cls === STAR) {
        if (!isUrl) continue;
        replacement = '%2A';
      } else if (cls === DOLLAR) {
        if (!isUrl && i === end - 1) continue;
        replacement = '%24';
      } else if (cls === PERCENT) {
        const hi = i + 2 < end ? hexValue(src.charCodeAt(i + 1)) : -1;
        const lo = hi >= 0 ? hexValue(src.charCodeAt(i + 2)) : -1;
        if (lo < 0) {
          replacement = '%25';
        } else {
          const byte = (hi << 4) | lo;
          replacement =
            byte < 128 && UNRESERVED[byte] === 1 ? String.fromCharCode(byte) : pct(byte);
          consumed = 3;
          if (
            replacement.length === 3 &&
            src.charCodeAt(i + 1) === replacement.charCodeAt(1) &&
            src.charCodeAt(i + 2) === replacement.charCodeAt(2)
          ) {
            i += 2; // already an upper-case escape: keep copying
            continue;
          }
        }
      } else {
        replacement = pct(c);
      }
    } else if (latin1 && c <= 0xff) {
      replacement = pct(c);
    } else {
      // UTF-8 encode the code point; a lone surrogate becomes U+FFFD (as TextEncoder does).
      let cp = c;
      if (c >= 0xd800 && c <= 0xdbff) {
        const next = i + 1 < end ? src.charCodeAt(i + 1) : 0;
        if (next >= 0xdc00 && next <= 0xdfff) {
          cp = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          consumed = 2;
        } else {
          cp = 0xfffd;
        }
      } else if (c >= 0xdc00 && c <= 0xdfff) {
        cp = 0xfffd;
      }
      replacement = utf8Escapes(cp);
    }
    out += src.slice(copyFrom, i) + replacement;
    i += consumed - 1;
    copyFrom = i + 1;
  }
  return copyFrom === start ? src.slice(start, end) : out + src.slice(copyFrom, end);
}

function utf8Escapes(cp: number): string {
  if (cp < 0x800) return pct(0xc0 | (cp >> 6)) + pct(0x80 | (cp & 63));
  if (cp < 0x10000) {
    return pct(0xe0 | (cp >> 12)) + pct(0x80 | ((cp >> 6) & 63)) + pct(0x80 | (cp & 63));
  }
  return (
    pct(0xf0 | (cp >> 18)) +
    pct(0x80 | ((cp >> 12) & 63)) +
    pct(0x80 | ((cp >> 6) & 63)) +
    pct(0x80 | (cp & 63))
  );
}
