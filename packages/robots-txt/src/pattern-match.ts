/**
 * Matching a normalised pattern against a match path (RFC 9309 §2.2.2): `*` matches any
 * run of characters (including `/`), a final `$` anchors the end.
 */

/**
 * True when `path` starts with `prefix`, whose first `checked` characters are known to
 * match already. A character loop: the rules that get here usually differ from the path
 * within a few characters, and a call to `startsWith` costs more than those reads.
 */
export function hasPrefix(path: string, prefix: string, checked: number): boolean {
  const n = prefix.length;
  if (path.length < n) return false;
  for (let i = checked; i < n; i++) if (path.charCodeAt(i) !== prefix.charCodeAt(i)) return false;
  return true;
}

/** True when `path` ends with `suffix` (a character loop, as in {@link hasPrefix}). */
export function hasSuffix(path: string, suffix: string): boolean {
  const offset = path.length - suffix.length;
  if (offset < 0) return false;
  for (let i = suffix.length - 1; i >= 0; i--)
    if (path.charCodeAt(offset + i) !== suffix.charCodeAt(i)) return false;
  return true;
}

/**
 * True when `path` matches the pattern whose pieces between `*` are `segments` (first and
 * last always present, possibly empty; empty middle pieces removed), anchored at the end
 * when the pattern ended in `$`. `prefixChecked`: the caller knows the path starts with
 * the first piece. Each piece is found left to right at its leftmost place, which is exact
 * for `*`-only globs and never backtracks: at most O(pattern × path).
 */
export function wildcardMatch(
  segments: readonly string[],
  anchored: boolean,
  prefixChecked: boolean,
  path: string,
): boolean {
  const first = segments[0]!;
  if (!prefixChecked && !hasPrefix(path, first, 0)) return false;
  const last = segments.length - 1;
  const tail = segments[last]!;
  // The end is cheap to check first, and most anchored patterns fail there.
  if (anchored && !hasSuffix(path, tail)) return false;
  let pos = first.length;
  for (let k = 1; k < last; k++) {
    const piece = segments[k]!;
    const at = path.indexOf(piece, pos);
    if (at < 0) return false;
    pos = at + piece.length;
  }
  if (anchored) return path.length - tail.length >= pos;
  return tail.length === 0 || path.indexOf(tail, pos) >= 0;
}

/**
 * The pieces of a pattern body (final `$` removed) between its `*`s, as
 * {@link wildcardMatch} takes them.
 */
export function wildcardSegments(body: string): string[] {
  const pieces = body.split('*');
  const kept = [pieces[0]!];
  for (let p = 1; p < pieces.length - 1; p++) if (pieces[p] !== '') kept.push(pieces[p]!);
  kept.push(pieces[pieces.length - 1]!);
  return kept;
}
