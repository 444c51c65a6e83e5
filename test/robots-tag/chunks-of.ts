/** Split points (taken modulo the length, deduplicated) → the chunks of `whole`, in order. */
export function chunksOf<T extends string | Uint8Array>(whole: T, cuts: readonly number[]): T[] {
  const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
  const out: T[] = [];
  let start = 0;
  for (const p of [...points, whole.length]) {
    out.push(whole.slice(start, p) as T);
    start = p;
  }
  return out;
}
