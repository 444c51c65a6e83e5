import { wildcardMatch, wildcardSegments } from './pattern-match.js';

/**
 * True when the normalised `pattern` matches the normalised match `path` (RFC 9309 §2.2.2):
 * a prefix match, `*` matching any run, a final `$` anchoring the end; the empty pattern
 * matches every path. One pattern against one path, for the rules that are not compiled
 * (the usage rules); never backtracks (see `wildcardMatch`).
 * @example
 * matchesPattern('/a*.pdf$', '/a/b.pdf'); // true
 */
export function matchesPattern(pattern: string, path: string): boolean {
  const anchored = pattern.length > 0 && pattern.charCodeAt(pattern.length - 1) === 36; // '$'
  const body = anchored ? pattern.slice(0, -1) : pattern;
  if (!body.includes('*')) return anchored ? path === body : path.startsWith(body);
  return wildcardMatch(wildcardSegments(body), anchored, false, path);
}
