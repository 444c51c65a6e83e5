/**
 * A count and its noun, singular for 1: `1 URL`, `2 URLs`, `0 errors`.
 *
 * @example
 * ```ts
 * plural(1, 'URL'); // '1 URL'
 * plural(3, 'byte'); // '3 bytes'
 * ```
 */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
