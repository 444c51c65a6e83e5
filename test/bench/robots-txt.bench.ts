/**
 * robots.txt parse and match throughput, and retained heap, on the real-world corpus in
 * ../shared/corpus (13,436 files, 68,550 URLs), against `robots-parser` in the same run.
 * The cost of a query against a file written to be slow is robots-txt-worst-case.bench.ts.
 *
 * Run with `pnpm bench robots-txt` (node --expose-gc). Writes test/bench/results/robots-txt.md.
 * Measures the built package (what users get), not the sources.
 *
 * Before/after: set ROBOTS_TXT_BASELINE to the `index.js` of another build of the package
 * (for example a copy of packages/robots-txt/dist made before a change; default
 * /tmp/robots-txt-before/index.js when it exists). It is then measured in the same run, in
 * a column of its own, and every corpus verdict (and deciding line) of the two builds is
 * compared: any difference is listed and makes the run fail.
 */
import { existsSync, readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseRobotsTxt } from '../../packages/robots-txt/dist/index.js';
import {
  corpusQueries,
  corpusVerdicts,
  summarize,
  type ExplainingRobots,
} from '../robots-txt/corpus-verdicts.js';

type PeerRobots = { isAllowed(url: string, ua?: string): boolean | undefined };
type Parse = typeof parseRobotsTxt;

const baselinePath =
  process.env['ROBOTS_TXT_BASELINE'] ??
  (existsSync('/tmp/robots-txt-before/index.js') ? '/tmp/robots-txt-before/index.js' : undefined);
const baseline: Parse | undefined =
  baselinePath === undefined
    ? undefined
    : ((await import(pathToFileURL(baselinePath).href)) as { parseRobotsTxt: Parse })
        .parseRobotsTxt;
/** The builds measured: this one, then the baseline when there is one. */
const builds: { name: string; parse: Parse }[] = [{ name: 'after', parse: parseRobotsTxt }];
if (baseline !== undefined) builds.push({ name: 'before', parse: baseline });
const require = createRequire(import.meta.url);
const robotsParser = require('robots-parser') as (url: string, contents: string) => PeerRobots;

const corpusDir = new URL('../../../shared/corpus/', import.meta.url);
const resultsFile = new URL('./results/robots-txt.md', import.meta.url);
const AGENT = 'ExampleBot';
const BIGGEST = 'wc_www.xuexi.cn';

interface ManifestEntry {
  id: string;
  host: string;
  bytes: number;
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc (pnpm bench does)');
const collect = (): void => {
  for (let i = 0; i < 4; i++) gc();
};

const manifest = JSON.parse(
  readFileSync(new URL('manifest.json', corpusDir), 'utf8'),
) as ManifestEntry[];
const readBytes = (id: string): Uint8Array => readFileSync(new URL(`robots/${id}`, corpusDir));
const decoder = new TextDecoder();
const files = manifest.map((m) => {
  const bytes = readBytes(m.id);
  return { ...m, bytes, text: decoder.decode(bytes), robotsUrl: `https://${m.host}/robots.txt` };
});
const totalBytes = files.reduce((n, f) => n + f.bytes.length, 0);
const withoutBiggest = files.filter((f) => f.id !== BIGGEST);
const bytesWithoutBiggest = withoutBiggest.reduce((n, f) => n + f.bytes.length, 0);

const queries = corpusQueries();

let sink = 0;
const parseWith = (parse: Parse, list: typeof files, input: 'text' | 'bytes') => () => {
  for (const f of list) sink += parse(f[input]).sitemaps.length;
};
const parsePeer = (list: typeof files) => () => {
  for (const f of list) sink += robotsParser(f.robotsUrl, f.text).isAllowed(f.robotsUrl) ? 1 : 0;
};

const RUNS = 7;
const mbps = (bytes: number, seconds: number): number => bytes / 1e6 / seconds;
const qps = (seconds: number): number => queries.length / seconds;

interface Measured {
  parse: number;
  parseBytes: number;
  parseSmall: number;
  match: number;
  matchCold: number;
  disallowed: number;
  heap: number;
}
const fileById = new Map(files.map((f) => [f.id, f]));

/**
 * Best of `runs` timings of each body, in seconds, the bodies taking turns (after one
 * warm-up round): on a shared machine every build then sees the same load.
 */
function bestOfEach(runs: number, bodies: readonly (() => void)[]): number[] {
  for (const body of bodies) body();
  const best = bodies.map(() => Infinity);
  for (let i = 0; i < runs; i++) {
    const round: number[] = [];
    bodies.forEach((body, k) => {
      const start = process.hrtime.bigint();
      body();
      round.push(Number(process.hrtime.bigint() - start) / 1e9);
      best[k] = Math.min(best[k]!, round[k]!);
    });
    if (bodies.length > 1) rounds.push(round);
  }
  return best;
}
/** Every round of every bestOfEach, for the after/before ratios (first body against second). */
let rounds: number[][] = [];
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
};
/** Median over rounds of before's time / after's time: > 1 when this build is faster. */
const medianSpeedup = (): number => median(rounds.map((r) => r[1]! / r[0]!));

const parseTimes = (list: typeof files, input: 'text' | 'bytes', withPeer: boolean) =>
  bestOfEach(RUNS, [
    ...builds.map(({ parse }) => parseWith(parse, list, input)),
    ...(withPeer ? [parsePeer(list)] : []),
  ]);
const loadBefore = loadavg()[0]!;
const speedups: Record<string, number> = {};
rounds = [];
const parseText = parseTimes(files, 'text', true);
speedups['text'] = medianSpeedup();
rounds = [];
const parseSmall = parseTimes(withoutBiggest, 'text', true);
speedups['small'] = medianSpeedup();
rounds = [];
const parseBytes = parseTimes(files, 'bytes', false);
speedups['bytes'] = medianSpeedup();
rounds = [];
const peerParse = {
  all: mbps(totalBytes, parseText[builds.length]!),
  small: mbps(bytesWithoutBiggest, parseSmall[builds.length]!),
};

// Matching: every URL against its own file's parsed rules, through isAllowed with a string URL.
const matchLists = builds.map(({ parse }) => {
  const byId = new Map(files.map((f) => [f.id, parse(f.text)]));
  return queries.map((q) => ({ robots: byId.get(q.id)!, url: q.url }));
});
const peerById = new Map(files.map((f) => [f.id, robotsParser(f.robotsUrl, f.text)]));
const peerList = queries.map((q) => ({ robots: peerById.get(q.id)!, url: q.url }));
const matchTimes = bestOfEach(RUNS, [
  ...matchLists.map((list) => () => {
    for (const q of list) if (q.robots.isAllowed(q.url, AGENT)) sink++;
  }),
  () => {
    for (const q of peerList) if (q.robots.isAllowed(q.url, AGENT)) sink++;
  },
]);
speedups['match'] = medianSpeedup();
const peerMatch = qps(matchTimes[builds.length]!);
let peerDisallowed = 0;
for (const q of peerList) if (q.robots.isAllowed(q.url, AGENT) === false) peerDisallowed++;
peerById.clear();
peerList.length = 0;

// A cold pass: freshly parsed objects, so per-agent group selection (and whatever the first
// query costs before rules are compiled) is inside the timing. Best of 3, builds taking turns.
const coldBest = builds.map(() => Infinity);
for (let round = 0; round < 3; round++) {
  builds.forEach(({ parse }, k) => {
    const coldList = queries.map((q) => ({ robots: parse(fileById.get(q.id)!.text), url: q.url }));
    const start = process.hrtime.bigint();
    for (const q of coldList) if (q.robots.isAllowed(q.url, AGENT)) sink++;
    coldBest[k] = Math.min(coldBest[k]!, Number(process.hrtime.bigint() - start) / 1e9);
  });
}

const measured = new Map<string, Measured>();
builds.forEach(({ name }, k) => {
  let disallowed = 0;
  for (const q of matchLists[k]!) if (!q.robots.isAllowed(q.url, AGENT)) disallowed++;
  measured.set(name, {
    parse: mbps(totalBytes, parseText[k]!),
    parseBytes: mbps(totalBytes, parseBytes[k]!),
    parseSmall: mbps(bytesWithoutBiggest, parseSmall[k]!),
    match: qps(matchTimes[k]!),
    matchCold: qps(coldBest[k]!),
    disallowed,
    heap: 0,
  });
});
matchLists.length = 0;

// Verdicts: ours against robots-parser, and every verdict and deciding line of this build
// against the baseline's.
const oursById = new Map(files.map((f) => [f.id, parseRobotsTxt(f.text)]));
const peerAgain = new Map(files.map((f) => [f.id, robotsParser(f.robotsUrl, f.text)]));
let disagreements = 0;
for (const q of queries) {
  const ours = oursById.get(q.id)!.isAllowed(q.url, AGENT);
  if (ours !== (peerAgain.get(q.id)!.isAllowed(q.url, AGENT) !== false)) disagreements++;
}
oursById.clear();
peerAgain.clear();
const explaining = (parse: Parse) => (body: Uint8Array) => parse(body) as ExplainingRobots;
const after = corpusVerdicts(explaining(parseRobotsTxt));
const changed: string[] = [];
let baselineSummary: ReturnType<typeof summarize> | undefined;
if (baseline !== undefined) {
  const before = corpusVerdicts(explaining(baseline));
  baselineSummary = summarize(before);
  for (let i = 0; i < queries.length; i++) {
    if (after[i] !== before[i])
      changed.push(
        `${queries[i]!.id} ${queries[i]!.url}: before ${before[i]!}, after ${after[i]!}`,
      );
  }
}
const afterSummary = summarize(after);

/**
 * Heap retained by the parsed objects of the whole corpus, per corpus byte. Each file is
 * read and decoded inside the loop and dropped, so any source text a parsed object keeps
 * alive is counted against it.
 */
function retainedPerByte(parseOne: (text: string, robotsUrl: string) => unknown): number {
  const keep: unknown[] = [];
  collect();
  const before = process.memoryUsage().heapUsed;
  for (const m of manifest) {
    keep.push(parseOne(decoder.decode(readBytes(m.id)), `https://${m.host}/robots.txt`));
  }
  collect();
  const after = process.memoryUsage().heapUsed;
  sink += keep.length;
  return (after - before) / totalBytes;
}
files.length = 0;
withoutBiggest.length = 0;
fileById.clear();
// One throwaway measurement first: the first one in a process read low by up to 0.2 bytes
// per byte (garbage of the timing runs still being released during it). Then each build
// once, then robots-parser.
retainedPerByte((t) => parseRobotsTxt(t));
for (const { name, parse } of builds) measured.get(name)!.heap = retainedPerByte((t) => parse(t));
const peerHeap = retainedPerByte((text, url) => robotsParser(url, text));

const f1 = (n: number): string => n.toFixed(1);
const f2 = (n: number): string => n.toFixed(2);
const int = (n: number): string => Math.round(n).toLocaleString('en');
const ratio = (a: number, b: number): string => `${f1(a / b)}×`;
const pct = (a: number, b: number): string =>
  `${a >= b ? '+' : '−'}${Math.abs((a / b - 1) * 100).toFixed(0)}%`;
const now = measured.get('after')!;
const was = measured.get('before');

/** One row: this build, the baseline (and the change), robots-parser, ratio, target. */
function row(
  label: string,
  pick: (m: Measured) => number,
  show: (n: number) => string,
  peerValue: number | undefined,
  target: string,
  lowerIsBetter = false,
): string {
  const a = pick(now);
  const b = was === undefined ? undefined : pick(was);
  const cells = [
    label,
    show(a),
    b === undefined ? '–' : `${show(b)} (${pct(a, b)})`,
    peerValue === undefined ? '–' : show(peerValue),
    peerValue === undefined
      ? ''
      : lowerIsBetter
        ? `${f1(peerValue / a)}× less`
        : ratio(a, peerValue),
    target,
  ];
  return `| ${cells.join(' | ')} |`;
}

const table = `# robots-txt benchmark

Corpus: ${manifest.length.toLocaleString('en')} real robots.txt files, ${(totalBytes / 1e6).toFixed(1)} MB; ${queries.length.toLocaleString('en')} URLs (../shared/corpus).
Peer: robots-parser (npm) in the same process. Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Best of ${RUNS} runs after a warm-up.
"after": this build. "before": ${baselinePath === undefined ? 'no baseline given (set ROBOTS_TXT_BASELINE)' : `the baseline build at ${baselinePath}, measured in the same run`}; the change after/before in brackets. Ratio: after against robots-parser.

| measure | after | before | robots-parser | ratio | target |
| --- | ---: | ---: | ---: | ---: | ---: |
${row('parse, MB/s (strings)', (m) => m.parse, f1, peerParse.all, '≥ 6.5×')}
${row(`parse, MB/s (without ${BIGGEST})`, (m) => m.parseSmall, f1, peerParse.small, '')}
${row('parse, MB/s (raw bytes in)', (m) => m.parseBytes, f1, undefined, '')}
${row('match, queries/s (isAllowed, string URL, warm)', (m) => m.match, int, peerMatch, '≥ 10×')}
${row("match, queries/s (cold: first query of a fresh object selects the agent's groups)", (m) => m.matchCold, int, peerMatch, '')}
${row('retained heap, bytes per corpus byte', (m) => m.heap, f2, peerHeap, '≤ 0.85', true)}

Verdicts with agent \`${AGENT}\`: we disallow ${now.disallowed.toLocaleString('en')} URLs${was === undefined ? '' : ` (before: ${was.disallowed.toLocaleString('en')})`}, robots-parser ${peerDisallowed.toLocaleString('en')}, Google's reference library 30,258 (corpus README); we and robots-parser differ on ${disagreements.toLocaleString('en')}.
${was === undefined ? '' : `Per round, the builds taking turns, median of before's time / after's time (above 1: this build is faster): parse (strings) ${f2(speedups['text'])}, parse (without ${BIGGEST}) ${f2(speedups['small'])}, parse (raw bytes) ${f2(speedups['bytes'])}, match (warm) ${f2(speedups['match'])}.\n`}Machine load (1-minute load average, 2 cores, shared): ${f1(loadBefore)} when the timings started, ${f1(loadavg()[0]!)} at the end.
Every verdict and deciding line, digest (test/robots-txt/corpus.test.ts checks it): after \`${afterSummary.sha256.slice(0, 16)}\`${baselineSummary === undefined ? '' : `, before \`${baselineSummary.sha256.slice(0, 16)}\``}. ${baseline === undefined ? '' : changed.length === 0 ? `No query of the ${queries.length.toLocaleString('en')} changed its verdict or deciding line.` : `${changed.length} queries changed:\n\n${changed.map((c) => `- ${c}`).join('\n')}`}

`;

mkdirSync(fileURLToPath(new URL('.', resultsFile)), { recursive: true });
writeFileSync(resultsFile, table);
console.log(table);
if (sink === -1) console.log('unreachable');
if (changed.length > 0) {
  console.error(`${changed.length} corpus verdicts changed against the baseline`);
  process.exitCode = 1;
}
