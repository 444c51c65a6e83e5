/**
 * True when `token` is a product token a crawler may identify itself with: one or more
 * of `A-Z a-z _ -` (RFC 9309 §2.2.1). No trimming, no version suffix, no `*`.
 * @example
 * isValidProductToken('ExampleBot'); // true
 * isValidProductToken('ExampleBot/1.0'); // false
 */
export function isValidProductToken(token: string): boolean {
  return isTokenOf(token, PRODUCT_CHARS);
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
  return isTokenOf(token, PURPOSE_CHARS);
}

/** A non-empty string of the characters `chars` marks. */
function isTokenOf(token: unknown, chars: Uint8Array): boolean {
  if (typeof token !== 'string' || token.length === 0) return false;
  for (let i = 0; i < token.length; i++) if (chars[token.charCodeAt(i)] !== 1) return false;
  return true;
}

/** 1 for the characters of a product token, `A-Z a-z _ -`, by ASCII code. */
export const PRODUCT_CHARS = charTable(/[A-Za-z_-]/);
/** 1 for the characters of a purpose token, `A-Z a-z 0-9 _ -`, by ASCII code. */
export const PURPOSE_CHARS = charTable(/[A-Za-z0-9_-]/);

/** 1 for each ASCII character that `chars` matches, by code (read it with codes below 128 only). */
export function charTable(chars: RegExp): Uint8Array {
  return Uint8Array.from({ length: 128 }, (_, c) => (chars.test(String.fromCharCode(c)) ? 1 : 0));
}
