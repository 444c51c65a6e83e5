/**
 * robots.txt parse and match throughput, and retained heap, on the real-world corpus in
 * ../shared/corpus (13,436 files, 68,550 URLs), against `robots-parser` in the same run;
 * then the cost of a query against a file written to be slow (17,000 `/*…` rules).
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
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseRobotsTxt } from '../../packages/robots-txt/dist/index.js';
import { corpusVerdicts, summarize, type ExplainingRobots } from '../robots-txt/corpus-verdicts.js';

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

const queries = readFileSync(new URL('urls.txt', corpusDir), 'utf8')
  .split('\n')
  .filter((line) => line.length > 0)
  .map((line) => {
    const tab = line.indexOf('\t');
    return { id: line.slice(0, tab), url: line.slice(tab + 1) };
  });

/** Best of `runs` timings, in seconds, after one warm-up run. */
function bestOf(runs: number, body: () => void): number {
  body();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    body();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return best;
}

let sink = 0;
const parseWith = (parse: Parse, list: typeof files, input: 'text' | 'bytes') => () => {
  for (const f of list) sink += parse(f[input]).sitemaps.length;
};
const parsePeer = (list: typeof files) => () => {
  for (const f of list) sink += robotsParser(f.robotsUrl, f.text).isAllowed(f.robotsUrl) ? 1 : 0;
};

const RUNS = 5;
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
    bodies.forEach((body, k) => {
      const start = process.hrtime.bigint();
      body();
      best[k] = Math.min(best[k]!, Number(process.hrtime.bigint() - start) / 1e9);
    });
  }
  return best;
}

const parseTimes = (list: typeof files, input: 'text' | 'bytes', withPeer: boolean) =>
  bestOfEach(RUNS, [
    ...builds.map(({ parse }) => parseWith(parse, list, input)),
    ...(withPeer ? [parsePeer(list)] : []),
  ]);
const parseText = parseTimes(files, 'text', true);
const parseSmall = parseTimes(withoutBiggest, 'text', true);
const parseBytes = parseTimes(files, 'bytes', false);
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

/**
 * A file written to be slow: 17,000 rules like `Disallow: /*abbabaabbbabaaab` (493 KB).
 * Every rule starts with `/*`, so no prefix can be indexed, and each piece's bigrams are in
 * the path while the piece is not: matched rule by rule, every rule scans the whole path.
 * Pseudo-random a/b text from a fixed seed, so every run builds the same file.
 */
function hostile(pathLength: number): { body: string; path: string } {
  let seed = 1;
  const letter = (): string => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) / 16777216 < 0.5 ? 'a' : 'b';
  };
  let path = '';
  for (let i = 0; i < pathLength; i++) path += letter();
  const pieces = new Set<string>();
  while (pieces.size < 17_000) {
    let piece = '';
    for (let i = 0; i < 16; i++) piece += letter();
    if (!path.includes(piece)) pieces.add(piece);
  }
  const rules = [...pieces].map((piece) => `Disallow: /*${piece}`);
  return { body: `User-agent: *\n${rules.join('\n')}\n`, path };
}

/** Milliseconds of `query` on fresh parsed objects: the first run, and the best of `runs`. */
function firstQuery(parse: () => unknown, query: (robots: unknown) => void, runs: number) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const robots = parse();
    const start = process.hrtime.bigint();
    query(robots);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { cold: times[0]!, best: Math.min(...times) };
}

/** Milliseconds per query once a parsed object has answered a few: best of `runs` batches. */
function laterQuery(robots: unknown, query: (robots: unknown, i: number) => void, batch: number) {
  for (let i = 0; i < 5; i++) query(robots, i);
  return (
    (bestOf(3, () => {
      for (let i = 0; i < batch; i++) query(robots, i);
    }) *
      1e3) /
    batch
  );
}

const FIRST_RUNS = 6;
const attack = [2_000, 8_000].map((length) => {
  const { body, path } = hostile(length);
  const ours = (robots: unknown, i = 0): void => {
    if ((robots as ReturnType<Parse>).isAllowed(`/${path}${i % 10}`, AGENT)) sink++;
  };
  const peer = (robots: unknown, i = 0): void => {
    const url = `https://e.com/${path}${i % 10}`;
    if ((robots as PeerRobots).isAllowed(url, AGENT)) sink++;
  };
  // robots-parser takes about half a second a query here: fewer runs, and only the short path.
  const withPeer = length === 2_000;
  return {
    length,
    bytes: body.length,
    builds: builds.map(({ name, parse }) => ({
      name,
      first: firstQuery(() => parse(body), ours, FIRST_RUNS),
      later: laterQuery(parse(body), ours, 20),
    })),
    peer: withPeer
      ? {
          first: firstQuery(() => robotsParser('https://e.com/robots.txt', body), peer, 2),
          later: laterQuery(robotsParser('https://e.com/robots.txt', body), peer, 1),
        }
      : undefined,
  };
});

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
Every verdict and deciding line, digest (test/robots-txt/corpus.test.ts checks it): after \`${afterSummary.sha256.slice(0, 16)}\`${baselineSummary === undefined ? '' : `, before \`${baselineSummary.sha256.slice(0, 16)}\``}. ${baseline === undefined ? '' : changed.length === 0 ? `No query of the ${queries.length.toLocaleString('en')} changed its verdict or deciding line.` : `${changed.length} queries changed:\n\n${changed.map((c) => `- ${c}`).join('\n')}`}

A file written to be slow: 17,000 rules like \`Disallow: /*abbabaabbbabaaab\` (${(attack[0]!.bytes / 1e3).toFixed(0)} KB), none of them in the path, all of their bigrams in it; a path of a/b characters. Milliseconds per query (less is better). First query: the first of ${FIRST_RUNS} freshly parsed objects (on the 2,000-character row, the first use of that code in the process, not yet optimised by V8) / the best of them (of 2 for robots-parser). Later queries: best of 3 batches, after 5 warm-up queries.

| path | build | first query, ms | later queries, ms | robots-parser first, ms | robots-parser later, ms |
| --- | --- | ---: | ---: | ---: | ---: |
${attack
  .flatMap((a) =>
    a.builds.map(
      (b, i) =>
        `| ${a.length.toLocaleString('en')} characters | ${b.name} | ${f1(b.first.cold)} / ${f1(b.first.best)} | ${f2(b.later)} | ${i > 0 || a.peer === undefined ? '–' : `${f1(a.peer.first.cold)} / ${f1(a.peer.first.best)}`} | ${i > 0 || a.peer === undefined ? '–' : f1(a.peer.later)} |`,
    ),
  )
  .join('\n')}
`;

mkdirSync(fileURLToPath(new URL('.', resultsFile)), { recursive: true });
writeFileSync(resultsFile, table);
console.log(table);
if (sink === -1) console.log('unreachable');
if (changed.length > 0) {
  console.error(`${changed.length} corpus verdicts changed against the baseline`);
  process.exitCode = 1;
}
