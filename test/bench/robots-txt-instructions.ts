/**
 * The corpus parse and match of robots-txt.bench.ts, counted in instructions rather than timed,
 * so that two builds can be compared on a loaded machine. Not a vitest test: run it under
 * valgrind with V8's deterministic settings, once with 1 pass and once with more, and take the
 * difference over the extra passes (start-up, the corpus read and the warm-up pass cancel out):
 *
 *   valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
 *     node --predictable --hash-seed=1 --random-seed=1 --predictable-gc-schedule --expose-gc \
 *     test/bench/robots-txt-instructions.ts <build's index.js> parse|match <passes>
 *
 * (Node 24 runs the TypeScript directly; for match add --initial-old-space-size=3000
 * --min-semi-space-size=64 --max-semi-space-size=64, so that no major collection falls inside
 * the passes.) "I refs" of the run of N passes minus that of 1
 * pass, over N − 1, is the cost of one warm pass: every corpus file parsed from its string, or
 * every corpus URL asked with `isAllowed` against its own file's parsed rules.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { CORPUS_DIR, corpusQueries } from '../robots-txt/corpus-verdicts.js';

type Robots = { isAllowed(url: string, agent: string): boolean };
const [build, mode, passArg] = process.argv.slice(2);
if (build === undefined || (mode !== 'parse' && mode !== 'match'))
  throw new Error('usage: robots-txt-instructions.ts <index.js> parse|match <passes>');
const passes = Number(passArg ?? '1');
const { parseRobotsTxt } = (await import(pathToFileURL(build).href)) as {
  parseRobotsTxt: (text: string) => Robots;
};

const manifest = JSON.parse(readFileSync(new URL('manifest.json', CORPUS_DIR), 'utf8')) as {
  id: string;
}[];
const texts = new Map(
  manifest.map((m) => [m.id, readFileSync(new URL(`robots/${m.id}`, CORPUS_DIR), 'utf8')]),
);
const queries = corpusQueries();

let sink = 0;
if (mode === 'parse') {
  const all = [...texts.values()];
  // One warm-up pass, then the counted ones.
  for (let pass = 0; pass <= passes; pass++)
    for (const text of all) sink += parseRobotsTxt(text) ? 1 : 0;
} else {
  const parsed = new Map([...texts].map(([id, text]) => [id, parseRobotsTxt(text)]));
  const list = queries.map((q) => ({ robots: parsed.get(q.id)!, url: q.url }));
  // A full collection first (with --expose-gc), so that the passes start from the same heap
  // whichever build parsed it: a major collection falling inside one build's passes and not
  // the other's would be counted as matching.
  (globalThis as { gc?: () => void }).gc?.();
  for (let pass = 0; pass <= passes; pass++)
    for (const q of list) if (q.robots.isAllowed(q.url, 'ExampleBot')) sink++;
}
console.log(mode, passes, sink);
