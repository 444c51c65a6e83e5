/**
 * The package README documents every error reason, every diagnostic code (with its
 * severity) and every default; checked both ways so neither side drifts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DIAGNOSTIC_SEVERITY,
  PARSE_DEFAULTS,
  ROBOTS_TXT_USAGE_REASONS,
} from '@polite-crawler/robots-txt';

const readme = readFileSync(
  new URL('../../packages/robots-txt/README.md', import.meta.url),
  'utf8',
);

/** Rows of the Markdown table under `## heading`, as arrays of cells. */
function tableRows(heading: string): string[][] {
  const section = readme.split(/^## /m).find((s) => s.startsWith(`${heading}\n`));
  if (section === undefined) throw new Error(`no section ${heading}`);
  return section
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('| ---'))
    .slice(1)
    .map((line) =>
      line
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((cell) => cell.trim()),
    );
}
const unquote = (cell: string): string => cell.replace(/^`|`$/g, '');

describe('README', () => {
  it('the errors table lists every usage reason, and only those', () => {
    const rows = tableRows('Errors');
    expect(rows[0]![0]).toBe('`ERR_ROBOTS_TXT_USAGE`');
    expect(rows.map((r) => unquote(r[2]!)).sort()).toEqual([...ROBOTS_TXT_USAGE_REASONS].sort());
  });

  it('the diagnostics table lists every code with its severity, and only those', () => {
    const rows = tableRows('Diagnostics');
    const documented = Object.fromEntries(rows.map((r) => [unquote(r[0]!), r[1]]));
    expect(documented).toEqual({ ...DIAGNOSTIC_SEVERITY });
  });

  it('states every default of PARSE_DEFAULTS', () => {
    for (const [name, value] of Object.entries(PARSE_DEFAULTS)) {
      expect(readme, name).toContain(`\`${name}\``);
      expect(readme, name).toContain(`\`${value}\``);
    }
  });

  it('keeps the benchmark section for the lead', () => {
    expect(readme).toContain('## Benchmark\n\nResults: see test/bench/results/robots-txt.md');
  });
});
