/**
 * RFC 9309 §2.2.2 read literally, for tests: does `pattern` (no final `$`; `*` matches any
 * run of characters) match `text`, all of it when `anchored`. Memoised recursion: slow, and
 * obviously right, which is what a reference for the fast matchers should be.
 */
export function referenceGlob(pattern: string, text: string, anchored: boolean): boolean {
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * (text.length + 1) + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (i === pattern.length) result = !anchored || j === text.length;
    else if (pattern[i] === '*') result = go(i + 1, j) || (j < text.length && go(i, j + 1));
    else result = j < text.length && pattern[i] === text[j] && go(i + 1, j + 1);
    memo.set(key, result);
    return result;
  };
  return go(0, 0);
}
