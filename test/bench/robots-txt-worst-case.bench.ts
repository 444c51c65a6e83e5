/**
 * The worst case of the robots.txt matcher: a 500 KiB file of wildcard rules written to be
 * slow, asked about 2 KiB and 8 KiB paths, as `Disallow` rules (isAllowed) and as
 * `Content-Usage` rules (contentUsage), against robots-parser in the same run.
 *
 * Every rule is `/*` and 16 pseudo-random a/b characters that do not occur in the path,
 * while all their bigrams do: no literal prefix narrows the rules down, and a rule tested
 * on its own scans the whole path. Fixed seed: every run builds the same file.
 *
 * Run with `pnpm bench worst-case` (it measures the built package). Set
 * ROBOTS_TXT_BASELINE to the `index.js` of another build to measure it in the same run.
 * Writes test/bench/results/robots-txt-worst-case.md.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parseRobotsTxt } from '../../packages/robots-txt/dist/index.js';
import { fmt, report } from './bench-report.js';

type Parse = typeof parseRobotsTxt;
type PeerRobots = { isAllowed(url: string, ua?: string): boolean | undefined };

const baselinePath = process.env['ROBOTS_TXT_BASELINE'];
const builds: { name: string; parse: Parse }[] = [{ name: 'this build', parse: parseRobotsTxt }];
if (baselinePath !== undefined) {
  const module = (await import(pathToFileURL(baselinePath).href)) as { parseRobotsTxt: Parse };
  builds.push({ name: 'baseline', parse: module.parseRobotsTxt });
}
const robotsParser = createRequire(import.meta.url)('robots-parser') as (
  url: string,
  contents: string,
) => PeerRobots;

const AGENT = 'ExampleBot';
const FILE_BYTES = 500 * 1024;
let sink = 0;

/** A 500 KiB file of `<key>: /*<16 a/b>` rules, none of them in `path`; and `path`. */
function hostile(pathLength: number, key: string): { body: string; path: string; rules: number } {
  let seed = 1;
  const letter = (): string => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) / 16777216 < 0.5 ? 'a' : 'b';
  };
  let path = '/';
  while (path.length < pathLength) path += letter();
  const suffix = key === 'Content-Usage' ? ' train-ai=n' : '';
  const lines = ['User-agent: *'];
  let bytes = lines[0]!.length + 1;
  const seen = new Set<string>();
  for (;;) {
    let piece = '';
    for (let i = 0; i < 16; i++) piece += letter();
    if (path.includes(piece) || seen.has(piece)) continue;
    const line = `${key}: /*${piece}${suffix}`;
    if (bytes + line.length + 1 > FILE_BYTES) break;
    seen.add(piece);
    lines.push(line);
    bytes += line.length + 1;
  }
  return { body: lines.join('\n') + '\n', path, rules: lines.length - 1 };
}

/** Milliseconds of one query on each of `runs` fresh objects: the first run and the best. */
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

/** Milliseconds per query once the object has answered a few: best of 3 batches. */
function laterQuery(robots: unknown, query: (robots: unknown) => void, batch: number): number {
  for (let i = 0; i < 3; i++) query(robots);
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) query(robots);
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6 / batch);
  }
  return best;
}

const rows: string[][] = [
  ['case', 'build', 'first query, ms (first / best of 5)', 'later queries, ms'],
];
const verdicts: string[] = [];
for (const key of ['Disallow', 'Content-Usage']) {
  for (const length of [2048, 8192]) {
    const { body, path, rules } = hostile(length, key);
    const label = `${rules.toLocaleString('en')} \`${key}: /*…\` rules (${fmt(body.length / 1024)} KiB), ${fmt(length / 1024)} KiB path`;
    for (const { name, parse } of builds) {
      const query =
        key === 'Disallow'
          ? (robots: unknown): void => {
              if ((robots as ReturnType<Parse>).isAllowed(path, AGENT)) sink++;
            }
          : (robots: unknown): void => {
              if ((robots as ReturnType<Parse>).contentUsage(path, AGENT)['train-ai'] === 'unknown')
                sink++;
            };
      const first = firstQuery(() => parse(body), query, 5);
      const later = laterQuery(parse(body), query, 10);
      rows.push([label, name, `${fmt(first.cold, 1)} / ${fmt(first.best, 1)}`, fmt(later, 2)]);
      const robots = parse(body);
      if (key === 'Disallow') {
        const v = robots.explain(path, AGENT);
        verdicts.push(`${label}, ${name}: ${v.allowed ? 'allowed' : 'disallowed'} (${v.reason})`);
      } else {
        const v = robots.explainContentUsage(path, AGENT);
        verdicts.push(
          `${label}, ${name}: train-ai ${v.preferences['train-ai']} (${v.reason}, ${v.rules.length} rules named)`,
        );
      }
    }
    if (key === 'Disallow') {
      // robots-parser takes about a second a query here: one object, two queries.
      const url = `https://e.com${path}`;
      const query = (robots: unknown): void => {
        if ((robots as PeerRobots).isAllowed(url, AGENT)) sink++;
      };
      const first = firstQuery(() => robotsParser('https://e.com/robots.txt', body), query, 1);
      const peer = robotsParser('https://e.com/robots.txt', body);
      const start = process.hrtime.bigint();
      query(peer);
      const later = Number(process.hrtime.bigint() - start) / 1e6;
      rows.push([label, 'robots-parser', fmt(first.cold, 1), fmt(later, 1)]);
      verdicts.push(
        `${label}, robots-parser: ${peer.isAllowed(url, AGENT) ? 'allowed' : 'disallowed'}`,
      );
    }
  }
}

report(
  'robots-txt-worst-case',
  'robots-txt worst case: 500 KiB of wildcard rules',
  rows,
  [
    `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}. Milliseconds (less is better). "First query": one query on each of 5 freshly parsed objects (the first run is also the first use of the code in the process). "Later queries": per query, best of 3 batches of 10 on one object. robots-parser: one object, one query each.`,
    baselinePath === undefined
      ? 'No baseline (set ROBOTS_TXT_BASELINE).'
      : `Baseline: ${baselinePath}.`,
    '',
    'Verdicts:',
    '',
    ...verdicts.map((v) => `- ${v}`),
  ].join('\n'),
);
if (sink === -1) console.log('unreachable');
