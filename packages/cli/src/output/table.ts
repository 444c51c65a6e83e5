import { visibleLength } from './style.js';

/**
 * Lays rows out in left-aligned columns separated by two spaces; the last column is not
 * padded. Cells may contain colour escapes: widths count visible characters only.
 *
 * @example
 * ```ts
 * renderTable([['status', 'url'], ['200', 'http://127.0.0.1/']]);
 * // 'status  url\n200     http://127.0.0.1/'
 * ```
 */
export function renderTable(rows: readonly (readonly string[])[], indent = ''): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, visibleLength(cell));
    });
  }
  return rows
    .map(
      (row) =>
        indent +
        row
          .map((cell, index) =>
            index === row.length - 1
              ? cell
              : cell + ' '.repeat((widths[index] ?? 0) - visibleLength(cell)),
          )
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}
