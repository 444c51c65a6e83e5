/**
 * The cost of `contentUsage` next to `isAllowed` on the same parsed object, in the same run:
 * an ordinary file (the attach draft's example plus Cloudflare's Content-Signal line), and a
 * file written to be slow (17,000 `Content-Usage: /*…` rules, none in the path), against the
 * same rules written as `Disallow`: both kinds go through the one rule matcher
 * (packages/robots-txt/src/rule-matcher.ts), with its per-query budget.
 *
 * Run with `pnpm bench content-usage`. Writes test/bench/results/content-usage.md. Measures
 * the built package.
 */
import { parseRobotsTxt } from '../../packages/robots-txt/dist/index.js';
import { fmt, report } from './bench-report.js';

let sink = 0;

/** Best of `runs` timings of `body`, in milliseconds, after one warm-up run. */
function bestOf(runs: number, body: () => void): number {
  body();
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    body();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
  }
  return best;
}

const ORDINARY = [
  'User-Agent: *',
  'Content-Signal: search=yes, ai-train=no, ai-input=yes',
  'Allow: /',
  'Disallow: /never/',
  'Disallow: /*.php$',
  'Content-Usage: train-ai=n',
  'Content-Usage: /ai-ok/ train-ai=y',
  'Content-Usage: /blog/*/drafts search=n',
  '',
  'User-Agent: ExampleBot',
  'Allow: /',
  'Content-Usage: train-ai=y',
  '',
].join('\n');
const PATHS = Array.from(
  { length: 1000 },
  (_, i) => ['/ai-ok/', '/blog/2024/drafts/', '/never/', '/'][i % 4]! + `page-${i}?q=${i}`,
);

const rows: string[][] = [['', 'contentUsage', 'isAllowed', 'ratio']];
{
  const robots = parseRobotsTxt(ORDINARY);
  const usage = bestOf(5, () => {
    for (const p of PATHS) if (robots.contentUsage(p, 'OtherBot')['train-ai'] === 'allowed') sink++;
  });
  const allowed = bestOf(5, () => {
    for (const p of PATHS) if (robots.isAllowed(p, 'OtherBot')) sink++;
  });
  rows.push([
    'ordinary file, µs per query',
    fmt((usage * 1e3) / PATHS.length, 2),
    fmt((allowed * 1e3) / PATHS.length, 2),
    `${fmt(usage / allowed, 1)}×`,
  ]);
}

/** 17,000 rules like `<key>: /*abbabaabbbabaaab`, none in the a/b path (fixed seed). */
function hostile(pathLength: number, key: string): { body: string; path: string } {
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
  const suffix = key === 'Content-Usage' ? ' train-ai=n' : '';
  const rules = [...pieces].map((piece) => `${key}: /*${piece}${suffix}`);
  return { body: `User-agent: *\n${rules.join('\n')}\n`, path };
}

for (const length of [200, 2_000]) {
  const usageFile = hostile(length, 'Content-Usage');
  const disallowFile = hostile(length, 'Disallow');
  const usageRobots = parseRobotsTxt(usageFile.body);
  const disallowRobots = parseRobotsTxt(disallowFile.body);
  const batch = 10;
  const usage = bestOf(3, () => {
    for (let i = 0; i < batch; i++)
      if (usageRobots.contentUsage(`/${usageFile.path}${i}`, 'Bot')['train-ai'] === 'unknown')
        sink++;
  });
  const allowed = bestOf(3, () => {
    for (let i = 0; i < batch; i++)
      if (disallowRobots.isAllowed(`/${disallowFile.path}${i}`, 'Bot')) sink++;
  });
  rows.push([
    `17,000 \`/*…\` rules, ${fmt(length)}-char path, ms per query`,
    fmt(usage / batch, 2),
    fmt(allowed / batch, 2),
    `${fmt(usage / allowed, 1)}×`,
  ]);
}

report(
  'content-usage',
  '`contentUsage` next to `isAllowed`',
  rows,
  `Node ${process.version}, ${new Date().toISOString().slice(0, 10)}, on a shared machine: compare rows of one run. ` +
    'Ordinary file: 1,000 paths, best of 5. Hostile rows: the same 17,000 rules as `Content-Usage` (contentUsage) and as `Disallow` (isAllowed), best of 3 batches of 10. ' +
    'Both kinds of rule go through the one rule matcher: tested one by one in rank order until a query has spent its wildcard budget; a rule past the budget counts as matching (fail closed). ' +
    `Load average during the run: ${(await import('node:os')).loadavg()[0]!.toFixed(1)} (the machine is shared). ` +
    `(sink ${sink % 2})`,
);
