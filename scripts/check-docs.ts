// The docs check: what the READMEs say about the API, held to the code. Every list a README
// keeps of something the code enumerates (options, errors, diagnostics, channels, limits, exit
// codes, install lines) is compared both ways; every TypeScript block compiles against the
// packages' public types, and the fields the README tables name are compiled as property
// accesses on the types they describe. The fetch options table is generated
// (`pnpm run docs:options`, scripts/options-doc.ts); this only checks that it is current.
//
// `pnpm run docs:check` prints what disagrees and exits 1; test/docs/docs.test.ts runs each
// check as a test. Each check takes a `read` function, so that a test can hand it a README with
// a drift in it and see the check catch it.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as fetchApi from '../packages/fetch/src/index.js';
import {
  PAGE_OPTIONS,
  POLICY_OPTIONS,
  PREFETCH_CONCURRENCY,
} from '../packages/fetch/src/options/option-table.js';
import type { OptionSpec } from '../packages/fetch/src/options/option-spec.js';
import {
  DIAGNOSTIC_SEVERITY,
  PARSE_DEFAULTS,
  ROBOTS_TXT_USAGE_REASONS,
} from '../packages/robots-txt/src/index.js';
import {
  ROBOTS_TAG_DEFAULTS,
  ROBOTS_TAG_DIAGNOSTIC_CODES,
  ROBOTS_TAG_ERROR_CODES,
} from '../packages/robots-tag/src/index.js';
import { CLI_DEFAULTS, CLI_ERROR_CODES, ExitCode } from '../packages/cli/src/index.js';
import { ERROR_CODES as FLEET_ERROR_CODES } from '../packages/redis/src/index.js';
import { installCommands, installSection } from './readme-install.mjs';
import {
  tables,
  codeBlocks,
  codeSpans,
  lineOf,
  relativeLinks,
  section,
  tableRows,
  unquote,
} from './docs/markdown.js';
import { typecheck, type Snippet } from './docs/typecheck.js';
import { withTable } from './options-doc.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Reads a file of the repository by its path from the root. */
export type Read = (path: string) => string;
export const readRepo: Read = (path) => readFileSync(`${ROOT}${path}`, 'utf8');

const FETCH = 'packages/fetch/README.md';
const FOLDERS = readdirSync(`${ROOT}packages`, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
/** Every README the check reads: the root one, each package's and each example's. */
export const READMES = [
  'README.md',
  ...FOLDERS.map((folder) => `packages/${folder}/README.md`),
  ...readdirSync(`${ROOT}examples`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => `examples/${entry.name}/README.md`)
    .sort(),
];

/** "the set `documented` is the set `actual`", as messages naming what is missing or extra. */
function sameSet(
  where: string,
  what: string,
  documented: Iterable<string>,
  actual: Iterable<string>,
): string[] {
  const doc = new Set(documented);
  const real = new Set(actual);
  return [
    ...[...real].filter((x) => !doc.has(x)).map((x) => `${where}: ${what} ${x} is not documented`),
    ...[...doc]
      .filter((x) => !real.has(x))
      .map((x) => `${where}: ${what} ${x} is documented but does not exist`),
  ];
}

function needSection(read: Read, file: string, heading: string): string {
  const text = section(read(file), heading);
  if (text === undefined) throw new Error(`${file}: no "${heading}" section`);
  return text;
}

// ---------------------------------------------------------------------------------------------
// @polite-crawler/fetch

const OPTION_TABLE: Readonly<Record<string, OptionSpec>> = { ...POLICY_OPTIONS, ...PAGE_OPTIONS };
/** How a default or a bound is written: in backticks, `_` grouping digits left out. */
const shown = (value: unknown): string =>
  typeof value === 'string' ? `\`'${value}'\`` : `\`${String(value)}\``;
const plain = (cell: string): string => cell.replaceAll('_', '');
const LITERAL = ['number', 'string', 'boolean'];

function fetchOptions(read: Read): string[] {
  const readme = read(FETCH);
  const problems: string[] = [];
  if (withTable(readme) !== readme) {
    problems.push(
      `${FETCH}: the options table is not what \`pnpm run docs:options\` generates; run it`,
    );
  }
  const rows = new Map(
    tableRows(needSection(read, FETCH, '## Options')).map(
      (row) => [unquote(row[0]!), row] as const,
    ),
  );
  const order = [...Object.keys(POLICY_OPTIONS), 'policy', ...Object.keys(PAGE_OPTIONS)];
  if ([...rows.keys()].join() !== order.join()) {
    problems.push(
      `${FETCH}: options table rows are [${[...rows.keys()]}], the option table has [${order}]`,
    );
  }
  const defaults = fetchApi.DEFAULTS as Readonly<Record<string, unknown>>;
  const bounds = fetchApi.OPTION_BOUNDS as Readonly<Record<string, unknown>>;
  for (const [name, spec] of Object.entries(OPTION_TABLE)) {
    const row = rows.get(name);
    if (row === undefined) continue;
    const [, type = '', fallback = '', , meaning = ''] = row;
    const where = `${FETCH}:${lineOf(readme, `| \`${name}\` |`)}`;
    if (LITERAL.includes(typeof spec.default)) {
      if (plain(fallback).split(' ')[0] !== shown(spec.default)) {
        problems.push(
          `${where}: ${name}'s default is ${shown(spec.default)}, the row says ${fallback}`,
        );
      }
      if (defaults[name] !== spec.default)
        problems.push(`${where}: DEFAULTS.${name} is not the table's`);
    } else if (name in defaults) {
      problems.push(`${where}: DEFAULTS has ${name}, whose default is not a plain value`);
    }
    if ('bounds' in spec) {
      const [min, max] = spec.bounds;
      if (plain(type) !== `integer, ${shown(min)} to ${shown(max)}`) {
        problems.push(
          `${where}: ${name} is an integer from ${min} to ${max}, the row says ${type}`,
        );
      }
      if (JSON.stringify(bounds[name]) !== JSON.stringify(spec.bounds)) {
        problems.push(`${where}: OPTION_BOUNDS.${name} is not the table's`);
      }
    } else if (type.startsWith('integer') || name in bounds) {
      problems.push(`${where}: ${name} has no bounds, the row or OPTION_BOUNDS says it has`);
    }
    if ('allowed' in spec) {
      const values = `\`${spec.allowed.map((value) => `'${value}'`).join(' \\| ')}\``;
      if (type !== values) problems.push(`${where}: ${name} takes ${values}, the row says ${type}`);
    }
    if (typeof spec.default === 'boolean' && type !== '`boolean`') {
      problems.push(`${where}: ${name} is a boolean, the row says ${type}`);
    }
    if (
      'atMost' in spec &&
      spec.atMost !== undefined &&
      !meaning.includes(`at most \`${spec.atMost}\``)
    ) {
      problems.push(`${where}: ${name}'s row does not say "at most \`${spec.atMost}\`"`);
    }
  }
  const [min, max] = PREFETCH_CONCURRENCY.bounds;
  const prefetch = `\`prefetch\`'s \`concurrency\` is an integer, ${shown(min)} to ${shown(max)}, ${shown(PREFETCH_CONCURRENCY.default)} by default (\`DEFAULTS.prefetchConcurrency\`).`;
  if (!plain(readme).includes(prefetch)) problems.push(`${FETCH}: missing "${prefetch}"`);
  if (fetchApi.DEFAULTS.prefetchConcurrency !== PREFETCH_CONCURRENCY.default) {
    problems.push(`DEFAULTS.prefetchConcurrency is not PREFETCH_CONCURRENCY.default`);
  }
  return problems;
}

/** Each TSDoc `@default` of a plain-valued option is the option table's default. */
function fetchOptionDefaults(read: Read): string[] {
  const file = 'packages/fetch/src/options/option-types.ts';
  const types = read(file);
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(OPTION_TABLE)) {
    if (!LITERAL.includes(typeof spec.default)) continue;
    const field = types.indexOf(`readonly ${name}?:`);
    if (field < 0) {
      problems.push(`${file}: no optional field ${name}`);
      continue;
    }
    const doc = types.slice(types.lastIndexOf('/**', field), field);
    const stated = /@default (\S+)/.exec(doc)?.[1];
    if (plain(`\`${stated}\``) !== shown(spec.default)) {
      problems.push(
        `${file}: ${name}'s @default is ${stated}, the option table's ${shown(spec.default)}`,
      );
    }
  }
  return problems;
}

function fetchErrors(read: Read): string[] {
  const readme = read(FETCH);
  const rows = tableRows(needSection(read, FETCH, '## Errors'));
  const api = fetchApi as unknown as Record<string, unknown>;
  const problems = sameSet(
    `${FETCH} errors table`,
    'code',
    rows.map((row) => unquote(row[0]!)),
    fetchApi.ERROR_CODES,
  );
  const classes = Object.keys(api).filter(
    (name) => /^[A-Z]\w*Error$/.test(name) && name !== 'PoliteError',
  );
  problems.push(
    ...sameSet(
      `${FETCH} errors table`,
      'error class',
      rows.map((row) => codeSpans(row[1]!)[0]!),
      classes,
    ),
  );
  for (const row of rows) {
    const [name, guard] = codeSpans(row[1]!);
    const where = `${FETCH}:${lineOf(readme, row[0]!)}`;
    if (guard !== `is${name}` || typeof api[guard] !== 'function') {
      problems.push(`${where}: ${name}'s guard is is${name}, exported as a function`);
    }
  }
  return problems;
}

function fetchChannels(read: Read): string[] {
  const readme = read(FETCH);
  const rows = tableRows(needSection(read, FETCH, '## Events and diagnostics channels'));
  const problems = sameSet(
    `${FETCH} events table`,
    'channel',
    rows.map((row) => unquote(row[0]!)),
    Object.values(fetchApi.CHANNELS),
  );
  for (const row of rows) {
    if (unquote(row[0]!) !== `polite-crawler:${unquote(row[1]!)}`) {
      problems.push(
        `${FETCH}:${lineOf(readme, row[0]!)}: channel ${row[0]} carries type ${row[1]}`,
      );
    }
  }
  if (!readme.includes(`\`${fetchApi.UA_NO_URL_WARNING}\``)) {
    problems.push(`${FETCH}: the warning code ${fetchApi.UA_NO_URL_WARNING} is not documented`);
  }
  return problems;
}

/**
 * The members README tables and lists name, as TypeScript that reads them from the types they
 * describe: a field the README names and the type lacks is a type error at that row.
 */
function fetchTypeFacts(read: Read): Snippet[] {
  const readme = read(FETCH);
  const at = (text: string): number => lineOf(readme, text) ?? 1;
  const facts: Snippet[] = [];
  const fact = (line: number, imports: string, body: string): void => {
    facts.push({
      file: FETCH,
      line,
      code: `import type { ${imports} } from '@polite-crawler/fetch';\n${body}`,
    });
  };
  // Errors: each row's code is its class's `code`, and each field is a member.
  for (const row of tableRows(needSection(read, FETCH, '## Errors'))) {
    const [name] = codeSpans(row[1]!);
    const fields = codeSpans(row[3]!);
    fact(
      at(row[0]!),
      name!,
      `declare const error: ${name};\nconst code: ${JSON.stringify(unquote(row[0]!)).replace(/"/g, "'")} = error.code;\n` +
        fields.map((field) => `error.${field};`).join('\n'),
    );
  }
  // Events: each row's type and fields are those of the PoliteEvent of that type.
  for (const row of tableRows(needSection(read, FETCH, '## Events and diagnostics channels'))) {
    const type = unquote(row[1]!);
    const fields = codeSpans(row[2]!.split(' — ')[0]!).filter((span) => /^[a-zA-Z]+$/.test(span));
    const named = fields.filter(
      (field, index) =>
        index === 0 || !/^(hit|miss|revalidated|stale|timeout|connection)$/.test(field),
    );
    fact(
      at(row[0]!),
      'PoliteEvent',
      `declare const event: Extract<PoliteEvent, { type: '${type}' }>;\nconst never: [typeof event] extends [never] ? 'no event of this type' : true = true;\n` +
        named.map((field) => `event.${field};`).join('\n'),
    );
  }
  // "A `Decision` is `{ … }`" and the members of an Explanation's `robotsTxt`.
  const decision = /A `Decision` is `\{ ([^}]+) \}`/.exec(readme);
  if (decision === null) throw new Error(`${FETCH}: no "A \`Decision\` is \`{ … }\`"`);
  fact(at(decision[0]), 'Decision', exactKeys('Decision', decision[1]!.split(', ')));
  return facts;
}

/**
 * TypeScript that compiles only if `type` has exactly `keys` (`name?` for an optional one): a
 * record over the type's keys must be written out with each of them, and no other.
 */
function exactKeys(type: string, keys: readonly string[]): string {
  const entries = keys.map(
    (key) => `${key.replace(/\?$/, '')}: ${key.endsWith('?') ? "'optional'" : "'required'"}`,
  );
  return [
    `type Kinds<T> = { readonly [K in keyof T]-?: {} extends Pick<T, K> ? 'optional' : 'required' };`,
    `const keys: Kinds<${type}> = { ${entries.join(', ')} };`,
    'keys;',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// @polite-crawler/robots-txt

function robotsTxt(read: Read): string[] {
  const file = 'packages/robots-txt/README.md';
  const readme = read(file);
  const errors = tableRows(needSection(read, file, '## Errors'));
  const problems: string[] = [];
  if (errors[0]?.[0] !== '`ERR_ROBOTS_TXT_USAGE`')
    problems.push(`${file}: the errors table starts with \`ERR_ROBOTS_TXT_USAGE\``);
  problems.push(
    ...sameSet(
      `${file} errors table`,
      'reason',
      errors.map((row) => unquote(row[2]!)),
      ROBOTS_TXT_USAGE_REASONS,
    ),
  );
  const diagnostics = tableRows(needSection(read, file, '## Diagnostics'));
  problems.push(
    ...sameSet(
      `${file} diagnostics table`,
      'code',
      diagnostics.map((row) => unquote(row[0]!)),
      Object.keys(DIAGNOSTIC_SEVERITY),
    ),
  );
  for (const row of diagnostics) {
    const code = unquote(row[0]!) as keyof typeof DIAGNOSTIC_SEVERITY;
    if (code in DIAGNOSTIC_SEVERITY && row[1] !== DIAGNOSTIC_SEVERITY[code]) {
      problems.push(
        `${file}:${lineOf(readme, row[0]!)}: ${code} is a ${DIAGNOSTIC_SEVERITY[code]}, the table says ${row[1]}`,
      );
    }
  }
  for (const [name, value] of Object.entries(PARSE_DEFAULTS)) {
    if (!readme.includes(`\`${name}\``) || !readme.includes(`\`${value}\``)) {
      problems.push(`${file}: PARSE_DEFAULTS.${name} (${value}) is not stated`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// @polite-crawler/robots-tag

function robotsTag(read: Read): string[] {
  const file = 'packages/robots-tag/README.md';
  const readme = read(file);
  const text = needSection(read, file, '## Errors and diagnostics');
  const first = (after: string, pattern: RegExp): string[] =>
    tableRows(text.slice(text.indexOf(after))).flatMap((row) => {
      const match = pattern.exec(`| ${row[0]} |`);
      return match === null ? [] : [match[1]!];
    });
  const problems = [
    ...sameSet(
      `${file} errors table`,
      'code',
      first('| code | thrown when |', /^\| `(ERR_[A-Z_]+)` \|/),
      ROBOTS_TAG_ERROR_CODES,
    ),
    ...sameSet(
      `${file} diagnostics table`,
      'code',
      first('| diagnostic | meaning | effect |', /^\| `([a-z-]+)` \|/),
      ROBOTS_TAG_DIAGNOSTIC_CODES,
    ),
  ];
  for (const [option, value] of [
    ['maxFieldBytes', `\`${ROBOTS_TAG_DEFAULTS.maxFieldBytes}\``],
    ['maxHeadBytes', `\`${ROBOTS_TAG_DEFAULTS.maxHeadBytes}\``],
    ['productTokens', '`undefined`'],
    ['encoding', "`'utf-8'`"],
  ] as const) {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${option}\` |`));
    if (row === undefined || !row.includes(`| ${value} |`)) {
      problems.push(`${file}: option ${option} has no row stating its default ${value}`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// @polite-crawler/cli

function cli(read: Read): string[] {
  const file = 'packages/cli/README.md';
  const readme = read(file);
  const firstColumn = (heading: string): string[] =>
    tableRows(needSection(read, file, heading)).map((row) => unquote(row[0]!));
  const problems = [
    ...sameSet(
      `${file} limits table`,
      'limit',
      firstColumn('## Limits'),
      Object.keys(CLI_DEFAULTS).filter(
        (key) => !key.endsWith('Limit') && key !== 'requestTimeoutLimitMs',
      ),
    ),
    ...sameSet(
      `${file} exit codes table`,
      'exit code',
      firstColumn('## Exit codes'),
      Object.values(ExitCode).map(String),
    ),
    ...sameSet(`${file} errors table`, 'code', firstColumn('## Errors'), CLI_ERROR_CODES),
  ];
  for (const key of ['maxPagesLimit', 'concurrencyLimit', 'requestTimeoutLimitMs'] as const) {
    if (!readme.includes(`\`${key}\`, ${CLI_DEFAULTS[key]}`)) {
      problems.push(`${file}: the bound ${key} (${CLI_DEFAULTS[key]}) is not named in its row`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// @polite-crawler/redis

function redis(read: Read): string[] {
  const file = 'packages/redis/README.md';
  return sameSet(
    `${file} errors table`,
    'code',
    tableRows(needSection(read, file, '## Errors'))
      .map((row) => unquote(row[0]!))
      .filter((code) => code.startsWith('ERR_')),
    FLEET_ERROR_CODES,
  );
}

// ---------------------------------------------------------------------------------------------
// Install sections: what a user installs, against the manifests

interface Manifest {
  name: string;
  version: string;
  engines?: { node?: string };
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** `^22.19.0 || ^24.0.0 || ^26.0.0` → `Node 22.19+, 24 or 26`. */
export function nodeStatement(engines: string): string {
  const lines = engines.split('||').map((range) => {
    const match = /^\s*\^(\d+)\.(\d+)\.0\s*$/.exec(range);
    if (match === null) throw new Error(`engines range "${range}" is not ^major.minor.0`);
    return match[2] === '0' ? match[1]! : `${match[1]}.${match[2]}+`;
  });
  return `Node ${lines.slice(0, -1).join(', ')} or ${lines.at(-1)}`;
}

const tarball = ({ name, version }: Manifest): string =>
  `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

function installSections(read: Read): string[] {
  const root = JSON.parse(read('package.json')) as Manifest;
  const manifests = new Map(
    FOLDERS.map((folder) => [
      folder,
      JSON.parse(read(`packages/${folder}/package.json`)) as Manifest,
    ]),
  );
  const byName = new Map([...manifests].map(([folder, manifest]) => [manifest.name, folder]));
  const closure = (folder: string, seen = new Set<string>()): Set<string> => {
    seen.add(folder);
    for (const dep of Object.keys(manifests.get(folder)?.dependencies ?? {})) {
      const next = byName.get(dep);
      if (next !== undefined && !seen.has(next)) closure(next, seen);
    }
    return seen;
  };
  const developedWith = (name: string): boolean =>
    [root, ...manifests.values()].some(
      (manifest) => manifest.devDependencies?.[name] !== undefined,
    );
  const statement = nodeStatement(root.engines?.node ?? '');
  const known = new Set([...manifests.values()].map(tarball));
  const problems: string[] = [];
  if (!read('README.md').includes(statement))
    problems.push(`README.md: does not say "${statement}"`);
  for (const folder of FOLDERS) {
    const file = `packages/${folder}/README.md`;
    const readme = read(file);
    const text = installSection(readme);
    for (const needed of closure(folder)) {
      if (!text.includes(tarball(manifests.get(needed)!)))
        problems.push(`${file}: Install does not name ${tarball(manifests.get(needed)!)}`);
    }
    for (const peer of Object.keys(manifests.get(folder)?.peerDependencies ?? {})) {
      if (!new RegExp(`npm install [^\\n]*${peer}`).test(text))
        problems.push(`${file}: Install does not install the peer ${peer}`);
    }
    if (text.includes('/packages/'))
      problems.push(`${file}: Install links a folder of the repository`);
    if (!text.replace(/\s+/g, ' ').includes(statement))
      problems.push(`${file}: Install does not say "${statement}"`);
    const commands = installCommands(readme);
    if (commands.length === 0) problems.push(`${file}: Install has no npm install line`);
    for (const command of commands) {
      for (const name of command.tarballs)
        if (!known.has(name))
          problems.push(`${file}: ${command.line}: no package packs to ${name}`);
      // scripts/consumer-test.mjs pins each name to the version developed against (crawlee:
      // that of @crawlee/core).
      for (const name of command.registry) {
        if (!developedWith(name === 'crawlee' ? '@crawlee/core' : name))
          problems.push(`${file}: ${command.line}: ${name} is not a devDependency`);
      }
    }
  }
  // Crawlee's default PlaywrightCrawler launcher requires playwright; both adapters need fetch.
  const playwrightLines = installCommands(read('packages/crawlee/README.md')).filter((command) =>
    command.tarballs.some((name) => name.startsWith('polite-crawler-playwright-')),
  );
  if (
    playwrightLines.length !== 1 ||
    !['crawlee', 'playwright', 'playwright-core'].every((name) =>
      playwrightLines[0]!.registry.includes(name),
    )
  ) {
    problems.push(
      'packages/crawlee/README.md: one install line for PlaywrightCrawler, with crawlee, playwright and playwright-core',
    );
  }
  for (const folder of ['crawlee', 'playwright']) {
    for (const line of installSection(read(`packages/${folder}/README.md`))
      .split('\n')
      .filter((l) => l.startsWith('npm install'))) {
      if (!line.includes('polite-crawler-fetch-'))
        problems.push(`packages/${folder}/README.md: ${line}: without @polite-crawler/fetch`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Every README

/** Relative links point at files that exist (a moved results file, a renamed folder). */
function links(read: Read): string[] {
  const problems: string[] = [];
  for (const file of READMES) {
    const folder = file.slice(0, file.lastIndexOf('/') + 1);
    for (const { target, line } of relativeLinks(read(file))) {
      const path = new URL(target, `file://${ROOT}${folder}`).pathname;
      try {
        readdirSync(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT')
          problems.push(`${file}:${line}: ${target} does not exist`);
      }
    }
  }
  return problems;
}

/** Every `ts` block of every README, with its hidden context. */
export function readmeSnippets(read: Read, files: readonly string[] = READMES): Snippet[] {
  return files.flatMap((file) =>
    codeBlocks(read(file))
      .filter((block) => block.lang === 'ts' || block.lang === 'typescript')
      .map((block) => {
        const context = block.context === '' ? '' : `${block.context.trimEnd()}\n`;
        return {
          file,
          line: block.line + 1,
          offset: context.split('\n').length - 1,
          code: `${context}${block.code}`,
        };
      }),
  );
}

/**
 * README tables that list the members of one type (its options, fields or methods): each row's
 * name is compiled as a member of the type, and with `exact` the rows must name every member.
 */
const MEMBER_TABLES: readonly {
  readonly file: string;
  readonly heading: string;
  /** Which table of the section (0: the first). */
  readonly table: number;
  readonly type: string;
  readonly from: string;
  readonly exact: boolean;
}[] = [
  {
    file: FETCH,
    heading: '### `createRobotsPolicy(options): RobotsPolicy`',
    table: 0,
    type: 'RobotsPolicy',
    from: '@polite-crawler/fetch',
    exact: false,
  },
  {
    file: 'packages/robots-txt/README.md',
    heading: '### `parseRobotsTxt(body, options?) → RobotsTxt`',
    table: 0,
    type: 'ParseOptions',
    from: '@polite-crawler/robots-txt',
    exact: true,
  },
  {
    file: 'packages/robots-txt/README.md',
    heading: '### `RobotsTxt`',
    table: 0,
    type: 'RobotsTxt',
    from: '@polite-crawler/robots-txt',
    exact: false,
  },
  {
    file: 'packages/robots-txt/README.md',
    heading: '### `parseContentUsage(fieldLines, options?) → UsagePreferences`',
    table: 0,
    type: 'ContentUsageOptions',
    from: '@polite-crawler/robots-txt',
    exact: true,
  },
  {
    file: 'packages/robots-tag/README.md',
    heading: '### `parseRobotsTagHeaders(fieldLines, options?) → RobotsTagRules`',
    table: 1,
    type: 'HeaderParseOptions',
    from: '@polite-crawler/robots-tag',
    exact: true,
  },
  {
    file: 'packages/robots-tag/README.md',
    heading: '### `createMetaScanner(options?) → MetaScanner`',
    table: 0,
    type: 'MetaScanner',
    from: '@polite-crawler/robots-tag',
    exact: true,
  },
  {
    file: 'packages/robots-tag/README.md',
    heading: '### `createMetaScanner(options?) → MetaScanner`',
    table: 1,
    type: 'MetaScanOptions',
    from: '@polite-crawler/robots-tag',
    exact: true,
  },
  {
    file: 'packages/robots-tag/README.md',
    heading: '### `directivesFor(rules, productToken, options?) → RobotsDirectives`',
    table: 0,
    type: 'DirectivesOptions',
    from: '@polite-crawler/robots-tag',
    exact: true,
  },
  {
    file: 'packages/robots-tag/README.md',
    heading: '### `directivesFor(rules, productToken, options?) → RobotsDirectives`',
    table: 1,
    type: 'RobotsDirectives',
    from: '@polite-crawler/robots-tag',
    exact: true,
  },
  {
    file: 'packages/robots-tag/README.md',
    heading: '### `rulesFreshness(headers, now) → RobotsTagFreshness`',
    table: 0,
    type: 'RobotsTagFreshness',
    from: '@polite-crawler/robots-tag',
    exact: true,
  },
  {
    file: 'packages/redis/README.md',
    heading: '## Options',
    table: 0,
    type: 'RedisFleetOptions',
    from: '@polite-crawler/redis',
    exact: true,
  },
  {
    file: 'packages/crawlee/README.md',
    heading: '### Options',
    table: 0,
    type: 'PoliteCrawleeOptions',
    from: '@polite-crawler/crawlee',
    exact: true,
  },
  {
    file: 'packages/playwright/README.md',
    heading: '### `createPlaywrightGate(options) → PlaywrightGate`',
    table: 0,
    type: 'PlaywrightGateOptions',
    from: '@polite-crawler/playwright',
    exact: true,
  },
];

function memberTableFacts(read: Read): Snippet[] {
  return MEMBER_TABLES.map(({ file, heading, table, type, from, exact }) => {
    const text = needSection(read, file, heading);
    const found = tables(text)[table];
    if (found === undefined) throw new Error(`${file}: "${heading}" has no table ${table + 1}`);
    const members = found.rows.flatMap((row) =>
      codeSpans(row[0]!).flatMap((span) => /^[A-Za-z_$][\w$]*/.exec(span) ?? []),
    );
    const line = read(file).split('\n').indexOf(heading) + 2 + found.line;
    const code = [
      `import type { ${type} } from '${from}';`,
      `declare const value: ${type};`,
      ...members.map((member) => `value.${member};`),
      ...(exact
        ? [
            `const every: { readonly [K in keyof ${type}]-?: true } = { ${members.map((m) => `${m}: true`).join(', ')} };`,
            'every;',
          ]
        : []),
    ].join('\n');
    return { file, line, code };
  });
}

/** The README code blocks and the fetch README's table facts, compiled. */
function types(read: Read): string[] {
  return typecheck([...readmeSnippets(read), ...fetchTypeFacts(read), ...memberTableFacts(read)]);
}

export const DOCS_CHECKS: Readonly<Record<string, (read: Read) => string[]>> = {
  'fetch: options table': fetchOptions,
  'fetch: option TSDoc defaults': fetchOptionDefaults,
  'fetch: errors table': fetchErrors,
  'fetch: events, channels, warning': fetchChannels,
  'robots-txt: errors, diagnostics, defaults': robotsTxt,
  'robots-tag: errors, diagnostics, options': robotsTag,
  'cli: limits, exit codes, errors': cli,
  'redis: errors': redis,
  'install sections': installSections,
  'relative links': links,
  'TypeScript blocks and table facts compile': types,
};

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  let failed = 0;
  for (const [name, check] of Object.entries(DOCS_CHECKS)) {
    let problems: string[];
    try {
      problems = check(readRepo);
    } catch (error) {
      problems = [String(error)];
    }
    console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${name}`);
    for (const problem of problems) console.log(`  ${problem}`);
    if (problems.length > 0) failed++;
  }
  process.exitCode = failed === 0 ? 0 : 1;
}
