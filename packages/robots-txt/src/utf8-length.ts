const encoder = new TextEncoder();
/** Scratch for counting; strings up to a third of its size are counted in one call. */
const scratch = new Uint8Array(1 << 16);
const CHUNK = Math.floor(scratch.length / 3);

/**
 * UTF-8 length of `s[start, end)`, exactly as TextEncoder counts it (a lone surrogate is
 * three octets). Uses the native encoder, which is several times faster than a loop.
 */
export function utf8Length(s: string, start = 0, end = s.length): number {
  let total = 0;
  let i = start;
  while (i < end) {
    let stop = Math.min(end, i + CHUNK);
    // Never split a surrogate pair between two chunks.
    if (stop < end) {
      const last = s.charCodeAt(stop - 1);
      if (last >= 0xd800 && last <= 0xdbff) stop--;
    }
    total += encoder.encodeInto(
      i === 0 && stop === s.length ? s : s.slice(i, stop),
      scratch,
    ).written;
    i = stop;
  }
  return total;
}

/** Number of leading UTF-16 units of `s` whose UTF-8 form fits in `limit` octets. */
export function utf8FitIndex(s: string, limit: number): number {
  // A unit is at least one octet: the first `limit` units are all that can fit. encodeInto
  // never writes part of a character, and `read` says how far it got.
  return encoder.encodeInto(s.slice(0, limit), new Uint8Array(limit)).read;
}
