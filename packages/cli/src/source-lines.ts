const BOM = '\uFEFF';

/**
 * The lines of a robots.txt body, split the way the parser counts them: `\r`, `\n` and
 * `\r\n` each end one line, and a leading byte-order mark is dropped. `line(n)` is 1-based.
 *
 * @example
 * ```ts
 * const lines = sourceLines('User-agent: *\r\nDisallow: /x');
 * lines.line(2); // 'Disallow: /x'
 * ```
 */
export function sourceLines(body: string | Uint8Array): { line(n: number): string | undefined } {
  let text =
    typeof body === 'string'
      ? body
      : new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(body);
  if (text.startsWith(BOM)) text = text.slice(1);
  const lines = text.split(/\r\n|\r|\n/);
  return { line: (n) => (Number.isInteger(n) && n >= 1 ? lines[n - 1] : undefined) };
}
