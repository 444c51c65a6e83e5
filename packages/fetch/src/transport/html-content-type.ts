import { holdsIgnoringAsciiCase } from './ascii-bytes.js';

/**
 * The media type before any parameter, spaces around it allowed, case-insensitive (ASCII
 * letters only: without the `u` flag no other character folds to one).
 */
const HTML_ESSENCE = /^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i;

const HTML_TYPES = ['text/html', 'application/xhtml+xml'] as const;

/**
 * Whether a `Content-Type` names HTML (`text/html`, `application/xhtml+xml`), whose `<head>`
 * may hold robots metas.
 * @example
 * isHtml('text/html; charset=utf-8'); // true
 */
export function isHtml(contentType: string | undefined | null): boolean {
  if (contentType === undefined || contentType === null) return false;
  return HTML_ESSENCE.test(contentType);
}

/** The bytes that decode (latin1) to a character `\s` matches. */
function isSpaceByte(byte: number): boolean {
  return (byte >= 0x09 && byte <= 0x0d) || byte === 0x20 || byte === 0xa0;
}

/**
 * {@link isHtml} of a raw header value (its bytes read as latin1, as undici does), without
 * making a string of it: every response's `Content-Type` is checked, few are HTML.
 * @example
 * isHtmlBytes(Buffer.from('text/html; charset=utf-8')); // true
 */
export function isHtmlBytes(value: Uint8Array): boolean {
  const { length } = value;
  let at = 0;
  while (at < length && isSpaceByte(value[at]!)) at++;
  for (const type of HTML_TYPES) {
    if (!holdsIgnoringAsciiCase(value, at, type)) continue;
    let end = at + type.length;
    while (end < length && isSpaceByte(value[end]!)) end++;
    return end === length || value[end] === 0x3b; // `;`
  }
  return false;
}
