/**
 * What a polite fetch adds to plain undici fetch, counted rather than timed. Not a vitest test:
 * run it with
 *   node --import tsx test/bench/fetch-instructions.bench.ts
 * (it needs valgrind; the packages must be built). It prints a markdown table and writes it to
 * test/bench/results/fetch-instructions.md.
 *
 * The loopback benchmark (fetch.bench.ts) is the one the throughput target is judged by, but on
 * a shared machine its rounds spread by ±10 % and whole runs by ±3 %, too much to see a change
 * of one or two percent. Here the client (fetch-instructions-client.ts, against a dispatcher
 * that answers in-process) runs under valgrind's cachegrind with its cache model and V8's
 * `--predictable` (no helper threads), fixed hash and random seeds, V8's predictable GC schedule
 * (heap growth and the memory reducer no longer depend on the wall clock, which under valgrind
 * runs some fifty times slower), and address-space layout randomisation off where `setarch` can
 * turn it off, so that the same work gives nearly the same counts: instructions executed and
 * level-1 cache misses per request, as the difference between a run of {@link FEW} and one of
 * {@link MANY} requests, so that start-up and warm-up cancel out. Repeated runs of one side
 * agreed within about 1 % (instructions and instruction-cache misses alike); without the GC
 * schedule, instruction counts moved by up to 7 % and instruction-cache misses by up to 2.5 %.
 */
import { execFile, execFileSync } from 'node:child_process';
import { machine } from 'node:os';
import { promisify } from 'node:util';
import { fmt, report } from './bench-report.js';

const run = promisify(execFile);

const FEW = 2_000;
const MANY = 6_000;
const CLIENT = 'test/bench/fetch-instructions-client.ts';

/** Counts valgrind prints for a whole run. */
interface Counts {
  instructions: number;
  instructionMisses: number;
  dataMisses: number;
}

function installed(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** valgrind, run by `setarch -R` (no address-space randomisation) when that works here. */
const VALGRIND: readonly string[] = installed('setarch', [machine(), '-R', 'true'])
  ? ['setarch', machine(), '-R', 'valgrind']
  : ['valgrind'];

/** The number on valgrind's summary line that starts with `label` (e.g. "I   refs:"). */
function summaryNumber(output: string, label: string): number {
  const line = output.split('\n').find((text) => text.replace(/^==\d+== /, '').startsWith(label));
  const value = line
    ?.slice(line.indexOf(label) + label.length)
    .trim()
    .split(/\s/)[0];
  const parsed = Number(value?.replaceAll(',', ''));
  if (!Number.isFinite(parsed)) throw new Error(`no "${label}" in valgrind's output`);
  return parsed;
}

async function countRun(mode: string, path: string, requests: number): Promise<Counts> {
  const [command, ...wrapper] = VALGRIND;
  const { stderr } = await run(
    command!,
    [
      ...wrapper,
      '--tool=cachegrind',
      '--cache-sim=yes',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      '--predictable',
      '--hash-seed=1',
      '--random-seed=1',
      '--predictable-gc-schedule',
      '--import',
      'tsx',
      CLIENT,
      mode,
      path,
      String(requests),
    ],
    {
      maxBuffer: 16 * 1024 * 1024,
      // The built packages load their built dependencies (see scripts/bench.mjs).
      env: { ...process.env, TSX_TSCONFIG_PATH: 'test/bench/tsconfig.dist.json' },
    },
  );
  return {
    instructions: summaryNumber(stderr, 'I   refs:'),
    instructionMisses: summaryNumber(stderr, 'I1  misses:'),
    dataMisses: summaryNumber(stderr, 'D1  misses:'),
  };
}

/** Per-request counts: the run of MANY minus the run of FEW, over the requests between them. */
async function perRequest(mode: string, path: string): Promise<Counts> {
  const [few, many] = await Promise.all([countRun(mode, path, FEW), countRun(mode, path, MANY)]);
  const per = (key: keyof Counts): number => (many[key] - few[key]) / (MANY - FEW);
  return {
    instructions: per('instructions'),
    instructionMisses: per('instructionMisses'),
    dataMisses: per('dataMisses'),
  };
}

/** `polite` against `plain`: the difference, and as a percentage of plain. */
function added(polite: number, plain: number): string {
  return `+${fmt(polite - plain)} (+${fmt(((polite - plain) / plain) * 100, 1)} %)`;
}

async function main(): Promise<void> {
  if (!installed('valgrind', ['--version'])) {
    console.log('valgrind is not installed (Debian: apt-get install valgrind): nothing counted.');
    return;
  }
  const rows: string[][] = [];
  for (const [path, what] of [
    ['/page', 'text/plain 1 KiB'],
    ['/html', 'text/html 4 KiB (robots metas read from the head)'],
  ] as const) {
    // One side at a time, each side's two runs side by side (one per core).
    const plain = await perRequest('plain', path);
    const polite = await perRequest('polite', path);
    rows.push([
      `Per request, warm cache, ${what}`,
      `undici fetch ${fmt(plain.instructions)} instructions, ${fmt(plain.instructionMisses)} I1 misses, ${fmt(plain.dataMisses)} D1 misses`,
      `polite fetch ${fmt(polite.instructions)} instructions, ${fmt(polite.instructionMisses)} I1 misses, ${fmt(polite.dataMisses)} D1 misses`,
      `added: instructions ${added(polite.instructions, plain.instructions)}, I1 misses ${added(polite.instructionMisses, plain.instructionMisses)}, D1 misses ${added(polite.dataMisses, plain.dataMisses)}`,
    ]);
  }
  const note = [
    `Node ${process.version}, ${process.platform}/${process.arch}; valgrind cachegrind (its cache model sized from this CPU) with V8 --predictable, its predictable GC schedule and fixed seeds${VALGRIND[0] === 'setarch' ? ', address randomisation off' : ''};`,
    `64 requests in flight to a dispatcher that answers in the same process (no sockets);`,
    `per request = (run of ${fmt(MANY)} − run of ${fmt(FEW)}) / ${fmt(MANY - FEW)}, garbage collection included.`,
  ].join(' ');
  report('fetch-instructions', '@polite-crawler/fetch: instructions per request', rows, note);
}

await main();
