// The consumer test: the packages as a user meets them. Builds and packs every package with
// `pnpm pack`, checks each tarball (no `workspace:` left, LICENSE, every exported file and every
// source map's sources shipped, one engines statement), then installs the tarballs with npm —
// from the npm registry only, like the READMEs' commands — into fresh projects in the system's
// temporary directory, outside this workspace:
//
//   esm-latest  ESM + TypeScript, crawlee / playwright-core at the versions this repository
//               develops against; strict `tsc` under node16, nodenext and bundler resolution
//               (and nodenext with TypeScript 7); a smoke program per package, run on each Node.
//   esm-oldest  the same with the lowest versions the peer ranges admit: the ranges must hold
//               (its smoke programs run on the current Node only).
//   cjs         a CommonJS project: require() of every package and exported subpath.
//   readme-*    one project per `npm install` line of each package README, installed exactly as
//               the line says (registry names at the developed versions): the smoke programs of
//               the packages it installs run there (a smoke named `crawlee-playwright` needs both).
//   global      `npm install --global` of the CLI tarballs; `polite lint` and `polite demo` run.
//
// In every project `npm ls` must be clean and each peer (and @polite-crawler package, undici,
// every @crawlee/* package) installed once: a second copy is what made handlers type as `never`.
//
//   node scripts/consumer-test.mjs [--node /path/to/node]... [--keep] [--skip-build]
//
// --node adds a Node binary the smoke programs also run on (the current one always runs them);
// --keep leaves the temporary projects for inspection. Exits 1 if any check fails.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { packPackages, repositoryRoot, workspacePackages } from './pack-packages.mjs';
import { installCommands } from './readme-install.mjs';

const { values: flags } = parseArgs({
  options: {
    node: { type: 'string', multiple: true, default: [] },
    keep: { type: 'boolean', default: false },
    'skip-build': { type: 'boolean', default: false },
  },
});

/** Step time limit: a hung install or a smoke program that never ends fails, never stalls CI. */
const STEP_TIMEOUT_MS = 10 * 60_000;
/** The TypeScript major beyond the repository's own that the latest project is checked with. */
const TYPESCRIPT_NATIVE = '7';
const FIXTURES = join(repositoryRoot, 'scripts', 'consumer');
/**
 * The user's own undici, of each major the fetch package drives (smoke-fetch-undici8.ts and
 * smoke-fetch-undici7.ts use them); undici 7 under an alias, as a project holding both would.
 */
const USERS_UNDICI = ['undici@^8.13.1', 'undici7@npm:undici@^7.30.2'];
const SMOKES = readdirSync(FIXTURES)
  .filter((file) => /^smoke-.+\.ts$/.test(file))
  .map((file) => file.replace(/^smoke-|\.ts$/g, ''));

// --- results ---------------------------------------------------------------------------------

/** @type {{ name: string, ok: boolean, ms: number, note: string }[]} */
const results = [];

/** Runs one check; a thrown error fails it, with the error's message (a command's output tail). */
async function check(name, fn) {
  const started = performance.now();
  process.stdout.write(`▶ ${name}\n`);
  try {
    const note = (await fn()) ?? '';
    const ms = performance.now() - started;
    results.push({ name, ok: true, ms, note });
    process.stdout.write(`  ✔ ${name} (${seconds(ms)})${note ? ` — ${note}` : ''}\n`);
    return true;
  } catch (error) {
    const ms = performance.now() - started;
    const message = error instanceof Error ? error.message : String(error);
    const lines = message.split('\n');
    const note = lines.find((line) => /error|Error|expected/.test(line) && line !== lines[0]);
    results.push({ name, ok: false, ms, note: (note ?? lines[0] ?? '').trim() });
    process.stdout.write(`  ✘ ${name} (${seconds(ms)})\n${indent(message)}\n`);
    return false;
  }
}

/** Records checks that could not run because an earlier one failed: never a silent pass. */
function notRun(names, because) {
  for (const name of names) {
    results.push({ name, ok: false, ms: 0, note: `not run: ${because}` });
    process.stdout.write(`  ✘ ${name} — not run: ${because}\n`);
  }
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
const indent = (text) =>
  text
    .trimEnd()
    .split('\n')
    .slice(-60)
    .map((line) => `    ${line}`)
    .join('\n');

// --- processes -------------------------------------------------------------------------------

/**
 * The environment for npm and the programs: no npm_* / pnpm variables inherited from a
 * `pnpm run` parent (they would configure the user's npm with this workspace's settings).
 */
function cleanEnv(extra = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_|PNPM_|NODE_OPTIONS$|INIT_CWD$)/i.test(key)) env[key] = value;
  }
  return { ...env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', ...extra };
}

/** Runs a command; resolves with its output, rejects with the output when it fails. */
function run(command, args, { cwd, env = cleanEnv(), expectCode = 0 } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === expectCode) resolvePromise(output);
      else {
        const why = signal ? `killed by ${signal}` : `exit code ${code}, expected ${expectCode}`;
        reject(new Error(`${basename(command)} ${args.join(' ')} (${why}):\n${output}`));
      }
    });
  });
}

// --- the tarballs ----------------------------------------------------------------------------

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Every file under `dir`, as paths relative to it with `/` separators. */
function listFiles(dir, base = dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory()
      ? listFiles(path, base)
      : [relative(base, path).split(sep).join('/')];
  });
}

/** The file targets of an `exports` value (strings, condition objects, arrays). */
function exportTargets(value) {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(exportTargets);
  if (value !== null && typeof value === 'object')
    return Object.values(value).flatMap(exportTargets);
  return [];
}

/** Unpacks a tarball and returns what is wrong with it as a published package. */
async function inspectTarball(pkg, into) {
  mkdirSync(into, { recursive: true });
  await run('tar', ['-xzf', pkg.tarball, '-C', into]);
  const dir = join(into, 'package');
  const files = new Set(listFiles(dir));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const problems = [];

  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [dep, range] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|link|file):/.test(range)) problems.push(`${field}.${dep} is "${range}"`);
    }
  }
  if (!files.has('LICENSE')) problems.push('no LICENSE');
  else if (sha256(join(dir, 'LICENSE')) !== sha256(join(repositoryRoot, 'LICENSE'))) {
    problems.push('LICENSE differs from the repository LICENSE');
  }
  for (const field of ['repository', 'homepage', 'keywords', 'engines', 'license']) {
    if (manifest[field] === undefined) problems.push(`no "${field}"`);
  }
  if (manifest.repository?.directory !== `packages/${pkg.folder}`) {
    problems.push(`repository.directory is not packages/${pkg.folder}`);
  }
  for (const target of exportTargets(manifest.exports)) {
    if (!target.includes('*') && !files.has(target.replace(/^\.\//, ''))) {
      problems.push(`exports target ${target} is not in the tarball`);
    }
  }
  for (const [, target] of Object.entries(manifest.bin ?? {})) {
    if (!files.has(target.replace(/^\.\//, '')))
      problems.push(`bin ${target} is not in the tarball`);
  }
  if ([...files].some((file) => file.endsWith('.tsbuildinfo'))) problems.push('ships .tsbuildinfo');
  let maps = 0;
  for (const file of files) {
    if (!file.endsWith('.map')) continue;
    maps += 1;
    const map = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const source of map.sources ?? []) {
      const path = relative(dir, resolve(dir, dirname(file), map.sourceRoot ?? '', source));
      if (!files.has(path.split(sep).join('/')))
        problems.push(`${file}: source ${source} not shipped`);
    }
  }
  return { manifest, problems, files: files.size, maps };
}

// --- the consumer projects -------------------------------------------------------------------

/** The lowest version a peer range admits (`^3.15.0` → `3.15.0`); throws on other forms. */
function lowestOf(range, name) {
  const match = /^\s*(?:\^|~|>=)?\s*(\d+\.\d+\.\d+)\s*$/.exec(range.split('||')[0] ?? '');
  if (!match) throw new Error(`peer range "${range}" of ${name}: cannot tell its lowest version`);
  return match[1];
}

/**
 * The version the repository develops against: the root's devDependency, else a workspace
 * package's (a peer is pinned as a devDependency where it is developed).
 */
function developedWith(name) {
  const manifests = [
    join(repositoryRoot, 'package.json'),
    ...workspacePackages().map((p) => join(repositoryRoot, 'packages', p.folder, 'package.json')),
  ];
  for (const file of manifests) {
    const range = JSON.parse(readFileSync(file, 'utf8')).devDependencies?.[name];
    if (range !== undefined) return range;
  }
  throw new Error(`no devDependency ${name} in the root or a workspace package.json`);
}

function installedVersion(name) {
  const manifest = join(repositoryRoot, 'node_modules', name, 'package.json');
  return JSON.parse(readFileSync(manifest, 'utf8')).version;
}

/**
 * What a project installs besides the tarballs: crawlee, its @crawlee/* peers named explicitly
 * at the same version (as the Crawlee README says: one copy of each), playwright and
 * playwright-core.
 */
function hostPackages(peers, pick, { crawlee = true } = {}) {
  const specs = [];
  for (const [name, range] of Object.entries(peers)) specs.push(`${name}@${pick(name, range)}`);
  const core = peers['@crawlee/core'];
  if (crawlee && core !== undefined) {
    specs.push(`crawlee@${pick('@crawlee/core', core)}`);
    // Crawlee's PlaywrightCrawler launches with `playwright` (the README's install line says so),
    // at the version of playwright-core (it depends on that exact one: one copy).
    const playwrightCore = peers['playwright-core'];
    specs.push(
      `playwright@${playwrightCore === undefined ? developedWith('playwright') : pick('playwright-core', playwrightCore)}`,
    );
  }
  return specs;
}

const TSCONFIGS = {
  node16: { module: 'node16', moduleResolution: 'node16', noEmit: true },
  nodenext: { module: 'nodenext', moduleResolution: 'nodenext', noEmit: false },
  bundler: { module: 'esnext', moduleResolution: 'bundler', noEmit: true },
};

function writeEsmProject(dir, name) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
  );
  for (const file of ['site.mjs', 'site.d.mts', ...SMOKES.map((s) => `smoke-${s}.ts`)]) {
    copyFileSync(join(FIXTURES, file), join(dir, file));
  }
  for (const [mode, options] of Object.entries(TSCONFIGS)) {
    const compilerOptions = {
      target: 'es2022',
      lib: ['es2023'],
      types: ['node'],
      strict: true,
      // nodenext also checks every .d.ts (ours must resolve each type they import: with
      // skipLibCheck a missing one turns into `any` silently); the others check the user's code.
      skipLibCheck: mode !== 'nodenext',
      ...options,
    };
    writeFileSync(
      join(dir, `tsconfig.${mode}.json`),
      `${JSON.stringify({ compilerOptions, include: ['*.ts', '*.d.mts'] }, null, 2)}\n`,
    );
  }
}

function writeCjsProject(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'consumer-cjs', version: '1.0.0', private: true, type: 'commonjs' }, null, 2)}\n`,
  );
  for (const file of ['site.mjs', 'require-all.cjs']) {
    copyFileSync(join(FIXTURES, file), join(dir, file));
  }
}

/**
 * `npm ls` is clean, and each name that must be a singleton is installed once. The names: our
 * packages, their peers, undici, and every @crawlee/* package present.
 */
async function singleCopies(dir, singletons) {
  await run('npm', ['ls', '--all'], { cwd: dir });
  const output = await run('npm', ['ls', '--all', '--parseable'], { cwd: dir });
  const paths = new Set(
    output.split('\n').filter((line) => line.includes(`${sep}node_modules${sep}`)),
  );
  const copies = new Map();
  for (const path of paths) {
    const name = path.slice(path.lastIndexOf(`node_modules${sep}`) + 'node_modules/'.length);
    if (singletons.has(name) || name.startsWith('@crawlee/')) {
      copies.set(name, [...(copies.get(name) ?? []), relative(dir, path)]);
    }
  }
  const missing = [...singletons].filter((name) => !copies.has(name));
  const duplicated = [...copies].filter(([, where]) => where.length > 1);
  if (missing.length > 0 || duplicated.length > 0) {
    throw new Error(
      [
        ...missing.map((name) => `${name}: not installed`),
        ...duplicated.map(
          ([name, where]) => `${name}: ${where.length} copies: ${where.join(', ')}`,
        ),
      ].join('\n'),
    );
  }
  return `${copies.size} packages once each (${[...singletons].filter((n) => !n.startsWith('@polite-crawler/')).join(', ')}, …)`;
}

/** The Node binaries the programs run on: this one, then each --node. */
async function nodeBinaries() {
  const nodes = [process.execPath, ...flags.node];
  const labelled = [];
  for (const node of nodes) {
    const version = (await run(node, ['--version'])).trim();
    labelled.push({ node, version });
  }
  return labelled;
}

// --- main ------------------------------------------------------------------------------------

const started = performance.now();
const work = mkdtempSync(join(tmpdir(), 'polite-consumer-'));
if (!relative(repositoryRoot, work).startsWith('..')) {
  throw new Error(`the temporary directory ${work} is inside the workspace`);
}
for (let dir = dirname(work); ; dir = dirname(dir)) {
  // A node_modules above the projects would let Node resolve what npm did not install.
  if (existsSync(join(dir, 'node_modules'))) {
    throw new Error(`${join(dir, 'node_modules')} exists above ${work}: set TMPDIR elsewhere`);
  }
  if (dirname(dir) === dir) break;
}
console.log(`consumer test in ${work}`);

const nodes = await nodeBinaries();
console.log(
  `node: ${nodes.map((n) => n.version).join(', ')}; npm ${(await run('npm', ['--version'])).trim()}`,
);

let packages = [];
const packed = await check('build and pnpm pack every package', async () => {
  if (!flags['skip-build']) {
    await run('npx', ['-y', 'pnpm@10', 'run', 'build'], { cwd: repositoryRoot, env: process.env });
  }
  packages = packPackages(join(work, 'tarballs'));
  return packages
    .map((p) => `${basename(p.tarball)} ${(statSync(p.tarball).size / 1024).toFixed(0)} KiB`)
    .join(', ');
});
if (!packed) {
  notRun(['everything else'], 'packing failed');
} else {
  try {
    await main();
  } catch (error) {
    // A bug in this script is a failure too, never a pass.
    results.push({
      name: 'consumer test script',
      ok: false,
      ms: 0,
      note: String(error?.stack ?? error),
    });
  }
}
summarize();

async function main() {
  // Each tarball as a published package.
  const manifests = new Map();
  for (const pkg of packages) {
    await check(`tarball ${pkg.name}`, async () => {
      const { manifest, problems, files, maps } = await inspectTarball(
        pkg,
        join(work, 'inspect', pkg.folder),
      );
      manifests.set(pkg.name, manifest);
      if (problems.length > 0) throw new Error(problems.join('\n'));
      return `${files} files, ${maps} source maps resolve`;
    });
  }
  await check('one Node statement: engines agree across packages', () => {
    const engines = new Set([...manifests.values()].map((m) => m.engines?.node));
    if (engines.size !== 1) throw new Error(`engines.node differ: ${[...engines].join(' | ')}`);
    return [...engines][0];
  });
  await check('a smoke program for every package', () => {
    const folders = packages.map((p) => p.folder);
    const missing = folders.filter((folder) => !SMOKES.includes(folder));
    if (missing.length > 0) {
      throw new Error(`no scripts/consumer/smoke-<package>.ts for: ${missing.join(', ')}`);
    }
    return SMOKES.join(', ');
  });

  const tarballs = packages.map((p) => p.tarball);
  const peers = Object.assign({}, ...[...manifests.values()].map((m) => m.peerDependencies ?? {}));
  const singletons = new Set([...packages.map((p) => p.name), ...Object.keys(peers), 'undici']);
  const typescript = installedVersion('typescript');
  const typesNode = developedWith('@types/node');

  const projects = [
    {
      name: 'esm-latest',
      write: (dir) => writeEsmProject(dir, 'consumer-esm-latest'),
      specs: [
        ...tarballs,
        ...hostPackages(peers, (name) => developedWith(name)),
        `typescript@${typescript}`,
        `typescript-${TYPESCRIPT_NATIVE}@npm:typescript@^${TYPESCRIPT_NATIVE}`,
        `@types/node@${typesNode}`,
        ...USERS_UNDICI,
      ],
      typescripts: [
        {
          label: `TypeScript ${typescript}`,
          bin: 'node_modules/typescript/bin/tsc',
          modes: Object.keys(TSCONFIGS),
        },
        // skipLibCheck: TypeScript 7 rejects @types/jsdom (a crawlee dependency), not our types.
        {
          label: `TypeScript ${TYPESCRIPT_NATIVE}`,
          bin: `node_modules/typescript-${TYPESCRIPT_NATIVE}/bin/tsc`,
          modes: ['nodenext'],
          noEmit: true,
          args: ['--skipLibCheck'],
        },
      ],
    },
    {
      name: 'esm-oldest',
      write: (dir) => writeEsmProject(dir, 'consumer-esm-oldest'),
      specs: [
        ...tarballs,
        ...hostPackages(peers, (name, range) => lowestOf(range, name)),
        `typescript@${typescript}`,
        `@types/node@${typesNode}`,
        ...USERS_UNDICI,
      ],
      typescripts: [
        {
          label: `TypeScript ${typescript}`,
          bin: 'node_modules/typescript/bin/tsc',
          modes: Object.keys(TSCONFIGS),
        },
      ],
    },
    {
      name: 'cjs',
      write: writeCjsProject,
      specs: [
        ...tarballs,
        ...hostPackages(peers, (name) => developedWith(name), { crawlee: false }),
      ],
      typescripts: [],
    },
  ];

  // Installs in parallel (network-bound).
  const installed = await Promise.all(
    projects.map((project) => {
      const dir = join(work, project.name);
      project.write(dir);
      return check(
        `${project.name}: npm install ${project.specs.map((s) => (s.endsWith('.tgz') ? basename(s) : s)).join(' ')}`,
        async () => {
          await run('npm', ['install', '--no-audit', '--no-fund', ...project.specs], { cwd: dir });
          return `${readdirSync(join(dir, 'node_modules')).length} top-level entries`;
        },
      );
    }),
  );
  // The README projects install while the projects above are checked: npm waits on the network
  // and writes files, while the checks are one tsc or one smoke program at a time, so the two
  // overlap on a second core. After the first installs, npm's cache holds most of their packages.
  const readme = installReadmeProjects();

  // The checks run in two lanes, each one check at a time: esm-latest's (four tsc runs, the smoke
  // programs on every Node: about half of the time) in one, everything else in the other. Each
  // lane is mostly one single-threaded tsc or Node process, so a two-core machine runs both at
  // once (one lane alone left a core idle for ~3 minutes). A lane never runs two programs in one
  // project folder at once, and every smoke program serves its own site on port 0.
  const latest = projects.findIndex((project) => project.name === 'esm-latest');
  let latestTypechecked = () => {};
  const latestEmitted = new Promise((resolve) => (latestTypechecked = resolve));
  const latestDone = checkProject(projects[latest], installed[latest], latestTypechecked);
  // Also when the lane stops early (a bug in this script: Promise.all below reports it).
  void latestDone.then(latestTypechecked, latestTypechecked);
  const others = (async () => {
    for (const [index, project] of projects.entries()) {
      if (index !== latest) await checkProject(project, installed[index]);
    }
    await checkGlobalCli(manifests);
    // The README projects run the programs esm-latest emits: they wait for its typechecks only.
    await latestEmitted;
    await smokeReadmeProjects(await readme, join(work, 'esm-latest'));
  })();
  await Promise.all([latestDone, others]);

  /**
   * npm ls, the typechecks and the smoke programs of one installed project; `typechecked` is
   * called once its typechecks are done (its smoke programs emitted, or not).
   */
  async function checkProject(project, wasInstalled, typechecked = () => {}) {
    const dir = join(work, project.name);
    if (!wasInstalled) {
      notRun([`${project.name}: npm ls, typecheck, smoke programs`], 'install failed');
      typechecked();
      return;
    }
    await check(`${project.name}: npm ls, each peer once`, () => singleCopies(dir, singletons));
    let emitted = false;
    for (const ts of project.typescripts) {
      for (const mode of ts.modes) {
        const emit = TSCONFIGS[mode].noEmit === false && ts.noEmit !== true;
        const ok = await check(
          `${project.name}: ${ts.label} strict, ${mode}${emit ? ' (emits the smoke programs)' : ''}`,
          async () => {
            const args = [
              ts.bin,
              '-p',
              `tsconfig.${mode}.json`,
              ...(emit ? [] : ['--noEmit']),
              ...(ts.args ?? []),
            ];
            await run(process.execPath, args, { cwd: dir });
          },
        );
        if (emit && ok) emitted = true;
      }
    }
    typechecked();
    // The oldest peers are a check of the ranges, not of Node: this Node is enough there.
    for (const { node, version } of project.name === 'esm-oldest' ? nodes.slice(0, 1) : nodes) {
      if (project.name === 'cjs') {
        await check(`${project.name}: require() every package on Node ${version}`, async () =>
          (await run(node, ['require-all.cjs'], { cwd: dir })).trim(),
        );
        continue;
      }
      if (!emitted) {
        notRun([`${project.name}: smoke programs on Node ${version}`], 'the nodenext build failed');
        continue;
      }
      for (const smoke of SMOKES) {
        await check(`${project.name}: smoke ${smoke} on Node ${version}`, async () =>
          (await run(node, [`smoke-${smoke}.js`], { cwd: dir })).trim().split('\n').at(-1),
        );
      }
    }
  }
}

/** The CLI as the README installs it: globally, from its tarball and its siblings'. */
async function checkGlobalCli(manifests) {
  const cli = packages.find((p) => p.folder === 'cli');
  if (cli === undefined) return;
  const prefix = join(work, 'global');
  const needed = packages.filter(
    (p) => cli.name === p.name || p.name in (manifests.get(cli.name)?.dependencies ?? {}),
  );
  const ok = await check(
    `global: npm install --global ${needed.map((p) => basename(p.tarball)).join(' ')}`,
    () =>
      run(
        'npm',
        [
          'install',
          '--global',
          '--prefix',
          prefix,
          '--no-audit',
          '--no-fund',
          ...needed.map((p) => p.tarball),
        ],
        { cwd: work },
      ),
  );
  const polite = join(prefix, 'bin', 'polite');
  if (!ok) notRun(['global: polite lint, polite demo'], 'install failed');
  else {
    writeFileSync(join(work, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n');
    await check('global: polite lint robots.txt', async () =>
      (await run(polite, ['lint', join(work, 'robots.txt')], { cwd: work }))
        .trim()
        .split('\n')
        .at(-1),
    );
    await check('global: polite demo (a polite crawl of its local site)', async () => {
      const out = await run(polite, ['demo'], { cwd: work });
      const summary = out.split('\n').find((line) => line.startsWith('Summary:'));
      if (summary === undefined) throw new Error(`no Summary line:\n${out}`);
      return summary;
    });
  }
}

/**
 * The package folders a smoke program needs, read from its name: `crawlee-playwright` →
 * crawlee, playwright. `undefined` when the name is not made of package folders only.
 */
function foldersOf(smoke, folders) {
  if (smoke === '') return [];
  for (const folder of folders) {
    if (smoke === folder) return [folder];
    if (!smoke.startsWith(`${folder}-`)) continue;
    const rest = foldersOf(smoke.slice(folder.length + 1), folders);
    if (rest !== undefined) return [folder, ...rest];
  }
  return undefined;
}

/**
 * Each `npm install` line of each package README, installed exactly as written (the `$P/` tarballs,
 * the registry names at the versions developed against) into a fresh project of its own (all at
 * once: network-bound); {@link smokeReadmeProjects} then runs the smoke programs there. A README
 * that forgets a package a user needs fails there. The CLI's global line is the global check.
 * Resolves with the projects and, for each, whether it installed.
 */
async function installReadmeProjects() {
  const folders = packages.map((p) => p.folder);
  const projects = [];
  for (const pkg of packages) {
    const readme = readFileSync(join(repositoryRoot, 'packages', pkg.folder, 'README.md'), 'utf8');
    for (const [index, command] of installCommands(readme).entries()) {
      if (command.global) continue;
      const installed = packages.filter((p) => command.tarballs.includes(basename(p.tarball)));
      const unknown = command.tarballs.filter(
        (file) => !installed.some((p) => basename(p.tarball) === file),
      );
      const name = `readme-${pkg.folder}-${index + 1}`;
      if (unknown.length > 0) {
        notRun([`${name}: ${command.line}`], `no packed tarball ${unknown.join(', ')}`);
        continue;
      }
      const specs = [
        ...installed.map((p) => p.tarball),
        // `crawlee` at the version of its @crawlee/* packages, as the README asks.
        ...command.registry.map(
          (spec) => `${spec}@${developedWith(spec === 'crawlee' ? '@crawlee/core' : spec)}`,
        ),
      ];
      const have = new Set(installed.map((p) => p.folder));
      const smokes = SMOKES.filter((smoke) => {
        const needs = foldersOf(smoke, folders);
        return needs !== undefined && needs.every((folder) => have.has(folder));
      });
      projects.push({ name, command, specs, smokes, dir: join(work, name) });
    }
  }
  const installed = await Promise.all(
    projects.map(({ name, command, specs, dir }) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'package.json'),
        `${JSON.stringify({ name, version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`,
      );
      return check(`${name}: ${command.line.replace(/\$P\//g, '')}`, async () => {
        await run('npm', ['install', '--no-audit', '--no-fund', ...specs], { cwd: dir });
        await run('npm', ['ls', '--all'], { cwd: dir });
        return specs.map((spec) => (spec.endsWith('.tgz') ? basename(spec) : spec)).join(' ');
      });
    }),
  );
  return { projects, installed };
}

/**
 * Runs, in each README project of {@link installReadmeProjects}, the smoke programs (as emitted in
 * `emittedIn`) of the packages its line installs, on this Node.
 */
async function smokeReadmeProjects({ projects, installed }, emittedIn) {
  for (const [index, { name, smokes, dir }] of projects.entries()) {
    const programs = smokes.map((smoke) => join(emittedIn, `smoke-${smoke}.js`));
    if (!installed[index]) {
      notRun([`${name}: smoke ${smokes.join(', ')}`], 'install failed');
      continue;
    }
    if (!programs.every((program) => existsSync(program))) {
      notRun([`${name}: smoke ${smokes.join(', ')}`], 'the nodenext build failed');
      continue;
    }
    copyFileSync(join(FIXTURES, 'site.mjs'), join(dir, 'site.mjs'));
    for (const [at, smoke] of smokes.entries()) {
      copyFileSync(programs[at], join(dir, `smoke-${smoke}.js`));
      await check(`${name}: smoke ${smoke} on Node ${process.versions.node}`, async () =>
        (await run(process.execPath, [`smoke-${smoke}.js`], { cwd: dir }))
          .trim()
          .split('\n')
          .at(-1),
      );
    }
  }
}

function summarize() {
  const failed = results.filter((r) => !r.ok);
  console.log('\n== consumer test summary');
  for (const r of results)
    console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${seconds(r.ms).padStart(7)}  ${r.name}`);
  console.log(
    `\n${failed.length === 0 ? 'CONSUMER TEST PASSED' : 'CONSUMER TEST FAILED'}: ${results.length - failed.length} passed, ${failed.length} failed, ${seconds(performance.now() - started)} in all`,
  );
  for (const r of failed) console.log(`  failed: ${r.name}: ${r.note}`);
  if (flags.keep) console.log(`projects kept in ${work}`);
  else rmSync(work, { recursive: true, force: true });
  process.exitCode = failed.length === 0 ? 0 : 1;
}
