/** The character codes the HTML tokenizers here compare against, and their two classes. */

export const TAB = 0x09;
export const LF = 0x0a;
export const FF = 0x0c;
export const CR = 0x0d;
export const SPACE = 0x20;
export const BANG = 0x21;
export const DOUBLE_QUOTE = 0x22;
export const AMPERSAND = 0x26;
export const SINGLE_QUOTE = 0x27;
export const DASH = 0x2d;
export const SLASH = 0x2f;
export const LT = 0x3c;
export const EQUALS = 0x3d;
export const GT = 0x3e;
export const QUESTION = 0x3f;
export const LEFT_BRACKET = 0x5b;

/**
 * The tokenizer's whitespace: tab, LF, FF, CR, space.
 * @example
 * isSpace(0x0c); // true
 */
export function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === TAB || c === FF || c === CR;
}

/**
 * @example
 * isAsciiAlpha('Q'.charCodeAt(0)); // true
 */
export function isAsciiAlpha(c: number): boolean {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a;
}
