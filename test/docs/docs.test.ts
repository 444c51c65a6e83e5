/**
 * The docs check (scripts/check-docs.ts, also `pnpm run docs:check`): every README list of
 * something the code enumerates matches it both ways, and every TypeScript block compiles
 * against the public types. Each check runs on the repository as it is, and on a README with
 * one drift put in, which it must report.
 */
import { describe, expect, it } from 'vitest';
import { DOCS_CHECKS, readRepo } from '../../scripts/check-docs.js';
import type { Read } from '../../scripts/check-docs.js';
import { documentedOptions, renderOptionsTable } from '../../scripts/options-doc.js';

/** `readRepo`, with `from` replaced by `to` in `file` (which must contain it once). */
function drifted(file: string, from: string | RegExp, to: string): Read {
  const original = readRepo(file);
  const changed = original.replace(from, to);
  if (changed === original) throw new Error(`${file}: ${String(from)} not found`);
  return (path) => (path === file ? changed : readRepo(path));
}

const run = (name: string, read: Read = readRepo): string[] => DOCS_CHECKS[name]!(read);
const TYPES = 'TypeScript blocks and table facts compile';

describe('the READMEs agree with the code', () => {
  it.each(Object.keys(DOCS_CHECKS).filter((name) => name !== TYPES))('%s', (name) => {
    expect(run(name)).toEqual([]);
  });

  it(TYPES, { timeout: 240_000 }, () => {
    expect(run(TYPES)).toEqual([]);
  });
});

describe('each check reports a drift', () => {
  it.each([
    // An option's default edited in the generated table.
    [
      'fetch: options table',
      'packages/fetch/README.md',
      '| `minInterval` | integer, `0` to `3_600_000` | `1_000` |',
      '| `minInterval` | integer, `0` to `3_600_000` | `2_000` |',
      /minInterval/,
    ],
    [
      'fetch: errors table',
      'packages/fetch/README.md',
      /\| `ERR_ROBOTS_CLOSED` .*\n/,
      '',
      /ERR_ROBOTS_CLOSED is not documented/,
    ],
    [
      'fetch: events, channels, warning',
      'packages/fetch/README.md',
      '`POLITE_CRAWLER_UA_NO_URL`',
      '`UA`',
      /POLITE_CRAWLER_UA_NO_URL/,
    ],
    [
      'fetch: option TSDoc defaults',
      'packages/fetch/src/options/option-types.ts',
      '@default 1_000',
      '@default 1_500',
      /minInterval/,
    ],
    [
      'robots-txt: errors, diagnostics, defaults',
      'packages/robots-txt/README.md',
      /\n\| `[a-z-]+` \| warning \|[^\n]*/,
      '',
      /is not documented/,
    ],
    [
      'robots-tag: errors, diagnostics, options',
      'packages/robots-tag/README.md',
      "| `encoding` | `string` (a `TextDecoder` label) | `'utf-8'` |",
      "| `encoding` | `string` | `'utf8'` |",
      /encoding/,
    ],
    [
      'cli: limits, exit codes, errors',
      'packages/cli/README.md',
      /\n\| `ERR_[A-Z_]+` [^\n]*/,
      '',
      /is not documented/,
    ],
    [
      'redis: errors',
      'packages/redis/README.md',
      /\n\| `ERR_FLEET_[A-Z_]+` [^\n]*/,
      '',
      /is not documented/,
    ],
    [
      'install sections',
      'packages/playwright/README.md',
      /\$P\/polite-crawler-fetch-[\d.]+\.tgz/,
      '',
      /polite-crawler-fetch/,
    ],
    [
      'relative links',
      'packages/fetch/README.md',
      'test/bench/results/fetch-analysis.md)',
      'test/bench/results/gone.md)',
      /gone\.md does not exist/,
    ],
  ] as const)('%s', (name, file, from, to, reported) => {
    const problems = run(name, drifted(file, from, to));
    expect(problems.join('\n')).toMatch(reported);
  });

  it(
    'the type check: a misspelt option in a block, a field an errors row names that the class lacks, a wrong Decision member, an option row left out',
    { timeout: 240_000 },
    () => {
      const fetchReadme = 'packages/fetch/README.md';
      const original = readRepo(fetchReadme);
      const changed = original
        .replace('  minInterval: 1_000, // per origin;', '  minIntervall: 1_000, // per origin;')
        .replace(
          '| `url`, `origin`, `status`, `directives` |',
          '| `url`, `origin`, `status`, `directive` |',
        )
        .replace('robotsStatus, stale, usage? }', 'robotsStatus, stale, usage }');
      expect(
        changed.split('\n').filter((line, i) => line !== original.split('\n')[i]),
      ).toHaveLength(3);
      const tagReadme = 'packages/robots-tag/README.md';
      const withoutEncoding = readRepo(tagReadme).replace(/\n\| `encoding` \|[^\n]*/, '');
      const problems = run(TYPES, (path) =>
        path === fetchReadme ? changed : path === tagReadme ? withoutEncoding : readRepo(path),
      );
      expect(problems).toHaveLength(4);
      expect(problems.join('\n')).toMatch(
        /robots-tag\/README\.md:\d+: TS2741 Property 'encoding' is missing .*\n.*MetaScanOptions/,
      );
      expect(problems[0]).toMatch(/README\.md:\d+: TS2561 .*minIntervall/);
      expect(problems.join('\n')).toMatch(
        /README\.md:\d+: TS2551 Property 'directive' does not exist on type 'RobotsNoIndexError'/,
      );
      expect(problems.join('\n')).toMatch(
        /README\.md:\d+: TS2322 .*\n.*Kinds<Decision>.*usage: 'required'/,
      );
    },
  );
});

describe('the options table generator (scripts/options-doc.ts)', () => {
  const rowOf = (table: string, name: string): string | undefined =>
    table.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));

  it('takes an option’s prose, @default and @example from its TSDoc, its range from the option table', () => {
    const source = `
export interface RobotsPolicyOptions {
  /**
   * Waits between starts,
   * see {@link Clock}; a | b.
   * @default 1_000 (one second)
   * @example 250
   */
  readonly minInterval?: number;
}
export type SharedPolicyOptions = {
  /**
   * Shared.
   * @default undefined
   * @example createRobotsPolicy({})
   */
  readonly policy?: RobotsPolicy;
};
export type PageOptions = {
  /**
   * Only here.
   * @default 'annotate'
   * @example 'reject'
   */
  readonly noindex?: 'annotate' | 'reject';
};
`;
    const table = renderOptionsTable(documentedOptions(source));
    expect(rowOf(table, 'minInterval')).toBe(
      '| `minInterval` | integer, `0` to `3_600_000` | `1_000` (one second) | `250` | Waits between starts, see `Clock`; a \\| b. |',
    );
    expect(rowOf(table, 'policy')).toBe(
      '| `policy` | `RobotsPolicy` | `undefined` | `createRobotsPolicy({})` | Shared. |',
    );
    expect(rowOf(table, 'noindex')).toBe(
      "| `noindex` | `'annotate' \\| 'reject'` | `'annotate'` | `'reject'` | `createPoliteFetch` only. Only here. |",
    );
  });

  it('refuses an option without @default or a one-line @example', () => {
    const without = (tag: string): string => `
export interface RobotsPolicyOptions {
  /**
   * Waits.
   ${tag}
   */
  readonly minInterval?: number;
}
export type SharedPolicyOptions = {};
export interface PageOptions {}
`;
    expect(() => renderOptionsTable(documentedOptions(without('@example 250')))).toThrow(
      'option minInterval has no @default',
    );
    expect(() => renderOptionsTable(documentedOptions(without('@default 1_000')))).toThrow(
      'option minInterval needs a one-line @example',
    );
  });

  it('on the real option types: links as code, lines joined, `|` escaped, required and derived defaults', () => {
    const [policy] = documentedOptions().filter(({ name }) => name === 'policy');
    expect(policy?.doc).toContain('{@link RobotsInvalidOptionError}');
    expect(policy?.doc).toContain('as the\npolicy has its own');
    const table = renderOptionsTable();
    expect(rowOf(table, 'policy')).toContain('`RobotsInvalidOptionError`');
    expect(rowOf(table, 'policy')).toContain('as the policy has its own.');
    expect(rowOf(table, 'crawlDelay')).toContain("| `'honor' \\| 'ignore'` |");
    expect(rowOf(table, 'productToken')).toContain('| derived from `userAgent` |');
    expect(rowOf(table, 'userAgent')).toContain('| required |');
  });
});
