import { normalizeRange } from './percent-encoding.js';

/**
 * Normalises a rule's path pattern the way the matcher sees it (RFC 9309 §2.2.2):
 * non-ASCII characters (UTF-8) and octets outside the URI character set are
 * percent-encoded with upper-case hex, existing escapes get upper-case hex, and escapes
 * of unreserved ASCII (`A-Z a-z 0-9 - . _ ~`) are decoded. `*` stays a wildcard and a
 * final `$` stays the end anchor; a `$` anywhere else is a literal and becomes `%24`.
 * `%2A` and `%24` stay escaped, so they match a literal `*` / `$` in a URL (§2.2.3).
 * The result is the pattern's specificity: its length in octets.
 * @example
 * normalizePattern('/foo/bar/ツ'); // '/foo/bar/%E3%83%84'
 * normalizePattern('/%62%61%7a'); // '/baz'
 * normalizePattern('/a%2a*$'); // '/a%2A*$'
 */
export function normalizePattern(pattern: string): string {
  return normalizeRange(pattern, 0, pattern.length, false, false);
}
