/**
 * Whether `bytes` from `at` hold `lower` (lower-case ASCII) in any ASCII case, as header names
 * and media types are compared; `false` when `bytes` end first.
 * @example
 * holdsIgnoringAsciiCase(Buffer.from('Content-Type'), 0, 'content-type'); // true
 */
export function holdsIgnoringAsciiCase(bytes: Uint8Array, at: number, lower: string): boolean {
  if (at + lower.length > bytes.length) return false;
  for (let i = 0; i < lower.length; i++) {
    const byte = bytes[at + i]!;
    if ((byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte) !== lower.charCodeAt(i)) return false;
  }
  return true;
}
