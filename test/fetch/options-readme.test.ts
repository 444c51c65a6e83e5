import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, OPTION_BOUNDS } from '@polite-crawler/fetch';
import type { OptionSpec } from '../../packages/fetch/src/options/option-spec.js';
import {
  PAGE_OPTIONS,
  POLICY_OPTIONS,
  PREFETCH_CONCURRENCY,
} from '../../packages/fetch/src/options/option-table.js';
import { documentedOptions, renderOptionsTable, withTable } from '../../scripts/options-doc.js';

// An option's default and limits are written once, in the option table; its prose, `@default`
// and `@example` once, in the TSDoc of the option types. The README's options table is generated
// from both (`pnpm run docs:options`) and held to them here, and each TSDoc `@default` to the table.
const read = (path: string): string =>
  readFileSync(new URL(`../../packages/fetch/${path}`, import.meta.url), 'utf8');
const README = read('README.md');
const OPTION_TYPES = read('src/options/option-types.ts');

const TABLE: Readonly<Record<string, OptionSpec>> = { ...POLICY_OPTIONS, ...PAGE_OPTIONS };
const LITERAL = ['number', 'string', 'boolean'];

interface Row {
  readonly type: string;
  readonly default: string;
  readonly meaning: string;
}

/** The rows of the README's options table, in order: option → its cells. */
function readmeRows(): Map<string, Row> {
  const section = README.slice(README.indexOf('\n## Options\n'), README.indexOf('\n## Errors\n'));
  const rows = new Map<string, Row>();
  for (const line of section.split('\n')) {
    if (!line.startsWith('| `')) continue;
    // Cells are separated by ` | `; an escaped `\|` inside a cell is part of it.
    const [name, type, fallback, , meaning] = line.slice(2, -2).split(/ (?<!\\)\| /);
    expect(meaning, line).toBeDefined();
    rows.set(name!.replaceAll('`', ''), { type: type!, default: fallback!, meaning: meaning! });
  }
  return rows;
}

/** How a default or a bound is written: in backticks, `_` grouping digits left out. */
const shown = (value: unknown): string =>
  typeof value === 'string' ? `\`'${value}'\`` : `\`${String(value)}\``;
const plain = (cell: string): string => cell.replaceAll('_', '');

describe('README options table, generated from the TSDoc and the option table', () => {
  const rows = readmeRows();

  it('is what `pnpm run docs:options` generates (run it after editing an option’s TSDoc)', () => {
    expect(withTable(README)).toBe(README);
  });

  it.each(documentedOptions().map(({ name }) => name))(
    '%s: its TSDoc prose, @default and @example reach its row',
    (name) => {
      const field = OPTION_TYPES.search(new RegExp(`readonly ${name}\\??: (?!never)`));
      const doc = OPTION_TYPES.lastIndexOf('/**', field);
      const edited = (from: string, to: string): string | undefined => {
        const at = OPTION_TYPES.indexOf(from, doc);
        if (at < 0 || at > field) return undefined;
        const text = OPTION_TYPES.slice(0, at) + to + OPTION_TYPES.slice(at + from.length);
        const table = renderOptionsTable(documentedOptions(text));
        return table.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      };
      expect(edited('/**\n   * ', '/**\n   * Edited. ')).toContain(' Edited. ');
      expect(edited('@example ', '@example edited + ')).toContain('`edited + ');
      if (name !== 'userAgent') expect(edited('@default ', '@default edited ')).toContain('edited');
    },
  );

  it('renders links as code, joins lines and escapes `|`', () => {
    const [policy] = documentedOptions().filter(({ name }) => name === 'policy');
    expect(policy?.doc).toContain('{@link RobotsInvalidOptionError}');
    expect(policy?.doc).toContain('as the\npolicy has its own');
    expect(rows.get('policy')?.meaning).toContain('`RobotsInvalidOptionError`');
    expect(rows.get('policy')?.meaning).toContain('as the policy has its own.');
    expect(rows.get('crawlDelay')?.type).toBe("`'honor' \\| 'ignore'`");
    expect(rows.get('productToken')?.default).toBe('derived from `userAgent`');
    expect(rows.get('userAgent')?.default).toBe('required');
  });

  it('lists every option, in table order, and no other (plus the shared policy)', () => {
    expect([...rows.keys()]).toEqual([
      ...Object.keys(POLICY_OPTIONS),
      'policy',
      ...Object.keys(PAGE_OPTIONS),
    ]);
  });

  it.each(Object.entries(TABLE))('%s: default, range or values, and pair', (name, spec) => {
    const row = rows.get(name)!;
    if (LITERAL.includes(typeof spec.default)) {
      expect(plain(row.default).split(' ')[0]).toBe(shown(spec.default));
      expect((DEFAULTS as Record<string, unknown>)[name]).toBe(spec.default);
    } else {
      expect(name in DEFAULTS).toBe(false);
    }
    if ('bounds' in spec) {
      const [min, max] = spec.bounds;
      expect(plain(row.type)).toBe(`integer, ${shown(min)} to ${shown(max)}`);
      expect((OPTION_BOUNDS as Record<string, unknown>)[name]).toEqual(spec.bounds);
    } else {
      expect(row.type.startsWith('integer'), row.type).toBe(false);
      expect(name in OPTION_BOUNDS).toBe(false);
    }
    if ('allowed' in spec) {
      expect(row.type).toBe(`\`${spec.allowed.map((value) => `'${value}'`).join(' \\| ')}\``);
    }
    if (typeof spec.default === 'boolean') expect(row.type).toBe('`boolean`');
    if ('atMost' in spec && spec.atMost !== undefined) {
      expect(row.meaning).toContain(`at most \`${spec.atMost}\``);
    }
  });

  it("states prefetch's concurrency range and default", () => {
    const [min, max] = PREFETCH_CONCURRENCY.bounds;
    expect(plain(README)).toContain(
      `\`prefetch\`'s \`concurrency\` is an integer, ${shown(min)} to ${shown(max)}, ${shown(PREFETCH_CONCURRENCY.default)} by default (\`DEFAULTS.prefetchConcurrency\`).`,
    );
    expect(DEFAULTS.prefetchConcurrency).toBe(PREFETCH_CONCURRENCY.default);
  });
});

describe('TSDoc of the option types, against the option table', () => {
  it.each(Object.entries(TABLE).filter(([, spec]) => LITERAL.includes(typeof spec.default)))(
    '%s: its @default is the table’s',
    (name, spec) => {
      const field = OPTION_TYPES.indexOf(`readonly ${name}?:`);
      expect(field, name).toBeGreaterThan(0);
      const doc = OPTION_TYPES.slice(OPTION_TYPES.lastIndexOf('/**', field), field);
      const stated = /@default (\S+)/.exec(doc)?.[1];
      expect(plain(`\`${stated}\``)).toBe(shown(spec.default));
    },
  );
});
