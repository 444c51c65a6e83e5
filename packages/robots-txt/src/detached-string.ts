/**
 * Returns `s` as one flat string. A string built with `+=` is a tree of its pieces; when
 * the pieces are slices of a robots.txt body, the tree keeps the whole body alive. Reading
 * a character of such a tree makes V8 copy it into one flat string, in place (`s` then
 * points at the copy and the pieces are released). The corpus benchmark's retained-heap
 * figure would show at once if this stopped being true.
 */
export function flatten(s: string): string {
  s.charCodeAt(0);
  return s;
}

/**
 * A copy of `s` that does not keep a larger parent alive. V8 represents `slice()` results
 * of 13 characters or more as views into the parent string.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : flatten(' ' + s).slice(1);
}
