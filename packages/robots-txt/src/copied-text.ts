/**
 * Strings a parsed file keeps are copies of the body's characters, never slices of it: a
 * slice (or a concatenation of slices) may share the body's memory and keep all of it
 * alive, depending on how the engine represents strings (V8 changed that between Node 20
 * and 24). A string decoded from bytes cannot share memory with another string, whatever
 * the engine does. The corpus benchmark's retained-heap row measures it.
 *
 * The scanner therefore gathers what it keeps with `+=` (cheap, whatever the engine makes
 * of it) and copies each gathered string once, here, when the parse ends: native UTF-8
 * encoding into a scratch buffer and decoding back, several times faster than a loop over
 * character codes.
 */

const encoder = new TextEncoder();
// ignoreBOM: a leading U+FEFF is text to keep, not a mark to drop.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
/** Reused for strings up to its size; larger ones get a buffer of their own. */
const SCRATCH_BYTES = 1 << 16;
const scratch = new Uint8Array(SCRATCH_BYTES);

/**
 * A copy of `s[from, to)` that shares no memory with `s`.
 * @example
 * copyText('Disallow: /private', 10); // '/private', sharing nothing with the line
 */
export function copyText(s: string, from = 0, to = s.length): string {
  if (to <= from) return '';
  const part = from === 0 && to === s.length ? s : s.slice(from, to);
  // ASCII needs one octet a character; anything else up to three (the second try).
  let bytes = part.length <= SCRATCH_BYTES ? scratch : new Uint8Array(part.length);
  let done = encoder.encodeInto(part, bytes);
  if (done.read < part.length) {
    bytes = part.length * 3 <= SCRATCH_BYTES ? scratch : new Uint8Array(part.length * 3);
    done = encoder.encodeInto(part, bytes);
  }
  const copy = decoder.decode(bytes.subarray(0, done.written));
  // One octet a character: ASCII, copied exactly. Otherwise the text may hold a lone
  // surrogate, which UTF-8 cannot carry (it comes back as U+FFFD): then unit by unit.
  return done.written === part.length || copy === part ? copy : copyUnits(part);
}

/** A copy made from the UTF-16 code units of `s`, lone surrogates included. */
function copyUnits(s: string): string {
  const units = new Uint16Array(s.length);
  for (let i = 0; i < s.length; i++) units[i] = s.charCodeAt(i);
  return fromCharCodes(units);
}

/** The string whose character codes are `codes` (octets or UTF-16 units), made in chunks. */
export function fromCharCodes(codes: Uint8Array | Uint16Array): string {
  const CHUNK = 8192; // an argument list has a size limit
  let out = '';
  for (let i = 0; i < codes.length; i += CHUNK)
    out += String.fromCharCode.apply(null, codes.subarray(i, i + CHUNK) as unknown as number[]);
  return out;
}
