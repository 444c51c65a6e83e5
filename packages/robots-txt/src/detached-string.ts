/** Matches at once; running it makes V8 flatten the subject string. */
const FLATTEN = /^/;

/**
 * Returns `s` as one flat string. A string built with `+=` is a tree of its pieces; when
 * the pieces are slices of a robots.txt body, the tree keeps the whole body alive. A RegExp
 * needs a flat subject, so V8 copies the tree into one string (in place: `s` itself then
 * points at the copy).
 */
export function flatten(s: string): string {
  FLATTEN.test(s);
  return s;
}

/**
 * A copy of `s` that does not keep a larger parent alive. V8 represents `slice()` results
 * of 13 characters or more as views into the parent string.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : flatten(' ' + s).slice(1);
}
