import { mkdirSync, writeFileSync } from 'node:fs';

/**
 * A number as the fetch benchmark tables show it: thousands separated, `digits` decimals.
 * @example
 * fmt(3552.4); // '3,552'
 */
export const fmt = (n: number, digits = 0): string =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * Prints a four-column measurement table under `title`, with `note` below it, and writes it to
 * test/bench/results/`name`.md.
 * @example
 * report('fetch', '@polite-crawler/fetch benchmark', rows, 'Node v20, …');
 */
export function report(name: string, title: string, rows: string[][], note: string): void {
  const table = [
    '| Measurement | | | |',
    '| --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
  const markdown = `# ${title}\n\n${table}\n\n${note}\n`;
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(new URL(`./results/${name}.md`, import.meta.url), markdown);
  console.log(markdown);
}
