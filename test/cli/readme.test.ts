import { readFileSync } from 'node:fs';
import { CLI_DEFAULTS, CLI_ERROR_CODES, ExitCode } from '@polite-crawler/cli';
import { describe, expect, it } from 'vitest';

const readme = readFileSync(new URL('../../packages/cli/README.md', import.meta.url), 'utf8');

/** The first cells of the rows of the table that follows `heading`. */
function firstColumn(heading: string): string[] {
  const start = readme.indexOf(`\n${heading}\n`);
  if (start === -1) throw new Error(`README has no "${heading}" section`);
  const rest = readme.slice(start + heading.length + 2);
  const nextHeading = rest.search(/\n#{1,3} /);
  const section = nextHeading === -1 ? rest : rest.slice(0, nextHeading);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !/^\| -/.test(line))
    .slice(1)
    .map((line) => (line.split('|')[1] ?? '').trim().replace(/`/g, ''));
}

describe('README', () => {
  it('documents every limit in CLI_DEFAULTS, and no other', () => {
    expect(firstColumn('## Limits').sort()).toEqual(
      Object.keys(CLI_DEFAULTS)
        .filter((key) => !key.endsWith('Limit') && key !== 'requestTimeoutLimitMs')
        .sort(),
    );
  });

  it('names the upper bounds of the options in the rows they bound', () => {
    for (const key of ['maxPagesLimit', 'concurrencyLimit', 'requestTimeoutLimitMs'] as const) {
      expect(readme).toContain(`\`${key}\`, ${CLI_DEFAULTS[key]}`);
    }
  });

  it('documents every exit code, and no other', () => {
    expect(
      firstColumn('## Exit codes')
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...new Set(Object.values(ExitCode))].sort((a, b) => a - b));
  });

  it('documents every error code, and no other', () => {
    expect(firstColumn('## Errors').sort()).toEqual([...CLI_ERROR_CODES].sort());
  });
});
