import { wildcardMatch, wildcardSegments } from './pattern-match.js';

/** A normalised pattern split once for {@link matchesCompiled}. */
export interface CompiledPattern {
  /** The pattern without a final `$`. */
  readonly body: string;
  readonly anchored: boolean;
  /** The pieces between `*` (see `wildcardSegments`); `undefined` without a `*`. */
  readonly segments: readonly string[] | undefined;
}

/** Splits a normalised pattern for repeated matching. */
export function compilePattern(pattern: string): CompiledPattern {
  const anchored = pattern.length > 0 && pattern.charCodeAt(pattern.length - 1) === 36; // '$'
  const body = anchored ? pattern.slice(0, -1) : pattern;
  return { body, anchored, segments: body.includes('*') ? wildcardSegments(body) : undefined };
}

/** True when the compiled pattern matches the normalised match `path` (see {@link matchesPattern}). */
export function matchesCompiled(pattern: CompiledPattern, path: string): boolean {
  const { body, anchored, segments } = pattern;
  if (segments === undefined) return anchored ? path === body : path.startsWith(body);
  return wildcardMatch(segments, anchored, false, path);
}

/**
 * True when the normalised `pattern` matches the normalised match `path` (RFC 9309 §2.2.2):
 * a prefix match, `*` matching any run, a final `$` anchoring the end; the empty pattern
 * matches every path. One pattern against one path, for the rules that are not compiled
 * into `CompiledRules` (the usage rules); never backtracks (see `wildcardMatch`).
 * @example
 * matchesPattern('/a*.pdf$', '/a/b.pdf'); // true
 */
export function matchesPattern(pattern: string, path: string): boolean {
  return matchesCompiled(compilePattern(pattern), path);
}
