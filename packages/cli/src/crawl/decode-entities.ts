const NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/**
 * Decodes the character references that occur in URLs inside HTML attributes: numeric
 * (`&#38;`, `&#x26;`) and the few named ones (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`,
 * `&nbsp;`). Anything else is left as written. Invalid code points become U+FFFD.
 *
 * @example
 * ```ts
 * decodeEntities('/search?a=1&amp;b=2'); // '/search?a=1&b=2'
 * ```
 */
export function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(
    /&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,6});?/g,
    (whole, ref: string) => {
      if (ref.startsWith('#')) {
        const hex = ref[1] === 'x' || ref[1] === 'X';
        const code = Number.parseInt(ref.slice(hex ? 2 : 1), hex ? 16 : 10);
        const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
        return valid ? String.fromCodePoint(code) : '\ufffd';
      }
      return NAMED[ref.toLowerCase()] ?? whole;
    },
  );
}
