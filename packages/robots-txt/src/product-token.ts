/**
 * True when `token` is a product token a crawler may identify itself with: one or more
 * of `A-Z a-z _ -` (RFC 9309 §2.2.1). No trimming, no version suffix, no `*`.
 * @example
 * isValidProductToken('ExampleBot'); // true
 * isValidProductToken('ExampleBot/1.0'); // false
 */
export function isValidProductToken(token: string): boolean {
  return isTokenOf(token, isProductTokenChar);
}

/**
 * True when `token` is a usable purpose token for the `user-agent-purpose` extension
 * (draft-illyes-rep-purpose-00): one or more of `A-Z a-z 0-9 _ -`, as in the draft's
 * `EXAMPLE-PURPOSE-1`.
 * @example
 * isValidPurposeToken('EXAMPLE-PURPOSE-1'); // true
 * isValidPurposeToken('search engine'); // false
 */
export function isValidPurposeToken(token: string): boolean {
  return isTokenOf(token, isPurposeTokenChar);
}

/** A non-empty string of characters `isChar` accepts. */
function isTokenOf(token: unknown, isChar: (c: number) => boolean): boolean {
  if (typeof token !== 'string' || token.length === 0) return false;
  for (let i = 0; i < token.length; i++) if (!isChar(token.charCodeAt(i))) return false;
  return true;
}

/** `A-Z a-z _ -` */
export function isProductTokenChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 45 || c === 95;
}

/** `A-Z a-z 0-9 _ -` */
export function isPurposeTokenChar(c: number): boolean {
  return isProductTokenChar(c) || (c >= 48 && c <= 57);
}
