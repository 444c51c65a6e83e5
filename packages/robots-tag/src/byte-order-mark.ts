/**
 * The encoding a byte-order mark at the start of `bytes` names, as the WHATWG Encoding
 * standard's "decode" sniffs it (a mark wins over any declared encoding, as in browsers);
 * `undefined` when there is none, `'too-short'` when the bytes so far could still start one.
 * @example
 * byteOrderMarkEncoding(Uint8Array.of(0xff, 0xfe, 0x3c, 0x00)); // 'utf-16le'
 * byteOrderMarkEncoding(Uint8Array.of(0xef)); // 'too-short'
 */
export function byteOrderMarkEncoding(
  bytes: Uint8Array,
): 'utf-8' | 'utf-16le' | 'utf-16be' | 'too-short' | undefined {
  const [first, second, third] = bytes;
  if (first === 0xef) {
    if (second === undefined) return 'too-short';
    if (second !== 0xbb) return undefined;
    if (third === undefined) return 'too-short';
    return third === 0xbf ? 'utf-8' : undefined;
  }
  if (first === 0xfe || first === 0xff) {
    if (second === undefined) return 'too-short';
    if (first === 0xfe && second === 0xff) return 'utf-16be';
    if (first === 0xff && second === 0xfe) return 'utf-16le';
  }
  return undefined;
}
