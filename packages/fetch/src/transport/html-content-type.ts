/**
 * The media type before any parameter, spaces around it allowed, case-insensitive (ASCII
 * letters only: without the `u` flag no other character folds to one).
 */
const HTML_ESSENCE = /^\s*(?:text\/html|application\/xhtml\+xml)\s*(?:;|$)/i;

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
