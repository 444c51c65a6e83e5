/**
 * Memory of one origin's robots.txt entry in fleet mode, this build ("after") against a baseline
 * build ("before": a checkout with its packages built, given by FLEET_ENTRY_BASELINE, default
 * /tmp/fleet-entry-before when it exists), against a real redis-server started here. Run:
 *   node --import tsx test/bench/fleet-entry.bench.ts   (or `pnpm bench fleet-entry`)
 * It prints a markdown table and writes it to test/bench/results/fleet-entry.md.
 *
 * For each robots.txt (164 B; 500 KB of rules; 500 KB mostly comments), each build runs in
 * processes of its own (fleet-entry-worker.ts, --expose-gc):
 * - Redis: MEMORY USAGE (SAMPLES 0) of each origin's robots.txt key the fleet wrote, averaged;
 * - heap per origin of a worker whose policy uses the fleet's store, and of one without a store
 *   (the peer: what the parsed copy costs on its own), after a full GC;
 * - the parsed object alone (parseRobotsTxt, this build).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { promisify } from 'node:util';
import { createClient } from '@redis/client';
import { TestRedis } from '../redis/helpers/redis-server.js';
import { fmt } from './bench-report.js';

const WORKER = new URL('./fleet-entry-worker.ts', import.meta.url).pathname;
const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const baselineRoot =
  process.env['FLEET_ENTRY_BASELINE'] ??
  (existsSync('/tmp/fleet-entry-before/packages/redis/dist/index.js')
    ? '/tmp/fleet-entry-before'
    : undefined);

/** A robots.txt of exactly `bytes` bytes: `line` repeated (numbered), then padding comments. */
function robotsOf(bytes: number, rule: (i: number) => string): string {
  let text = 'User-agent: *\nDisallow: /private/\n';
  for (let i = 0; ; i += 1) {
    const line = `${rule(i)}\n`;
    if (text.length + line.length > bytes) break;
    text += line;
  }
  return (
    text + '#'.repeat(Math.max(0, bytes - text.length - 1)) + (text.length < bytes ? '\n' : '')
  );
}

const BODIES = {
  // A typical small file: one group, a few rules, a sitemap (164 bytes).
  small: robotsOf(164, (i) =>
    i === 0 ? 'Disallow: /search' : i === 1 ? 'Sitemap: https://example.com/sitemap.xml' : '#',
  ),
  // 500 KB of Disallow lines: the parse keeps most of it.
  rules: robotsOf(500_000, (i) => `Disallow: /catalog/item-${String(i).padStart(6, '0')}/`),
  // 500 KB of comments around a few rules: the parse keeps almost nothing.
  comments: robotsOf(500_000, (i) => `# ${'c'.repeat(70)} ${i}`),
} as const;
type BodyName = keyof typeof BODIES;
const ORIGINS: Record<BodyName, number> = { small: 400, rules: 16, comments: 16 };
for (const [name, body] of Object.entries(BODIES)) {
  if (!body.startsWith('User-agent: *\nDisallow: /private/\n'))
    throw new Error(`${name}: bad body`);
}

const server = createServer((request, response) => {
  const name = /^o\d+-(\w+)\./.exec(request.headers.host ?? '')?.[1] as BodyName | undefined;
  response.shouldKeepAlive = false;
  if (request.url === '/robots.txt' && name !== undefined && name in BODIES) {
    response.end(BODIES[name]);
    return;
  }
  response.end('ok');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const redis = await TestRedis.start();
process.once('exit', () => void redis.stop());
const client = await createClient({ url: redis.url }).connect();

interface Heap {
  readonly heap: number;
  readonly external: number;
}

const run = promisify(execFile);
let prefixes = 0;
/** One worker process (asynchronous: this process serves its robots.txt meanwhile). */
async function runWorker(
  root: string,
  mode: 'fleet' | 'memory' | 'parse' | 'compile',
  size: BodyName,
  keyPrefix: string,
): Promise<Heap> {
  const { stdout: out } = await run(process.execPath, ['--expose-gc', '--import', 'tsx', WORKER], {
    cwd: ROOT,
    encoding: 'utf8',
    env: {
      ...process.env,
      BENCH_ENTRY: JSON.stringify({
        root,
        mode,
        redisUrl: redis.url,
        keyPrefix,
        port,
        origins: ORIGINS[size],
        size,
      }),
    },
  });
  const lines = out.trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!) as Heap;
}

/** Average MEMORY USAGE of the robots.txt keys under `prefix`, and how many there are. */
async function redisBytes(prefix: string): Promise<{ bytes: number; keys: number }> {
  const keys: string[] = [];
  for await (const batch of client.scanIterator({ MATCH: `${prefix}*:robots`, COUNT: 1000 })) {
    keys.push(...batch);
  }
  let total = 0;
  for (const key of keys) {
    total += Number(await client.sendCommand(['MEMORY', 'USAGE', key, 'SAMPLES', '0']));
  }
  return { bytes: keys.length === 0 ? NaN : total / keys.length, keys: keys.length };
}

interface Measured {
  redis: number;
  keys: number;
  fleet: Heap;
  memory: Heap;
}

const builds: { name: string; root: string }[] = [{ name: 'after', root: ROOT }];
if (baselineRoot !== undefined) builds.push({ name: 'before', root: baselineRoot });
const loadStart = loadavg()[0]!;
const results = new Map<string, Measured>();
const parsed = new Map<BodyName, Heap>();
const compiled = new Map<BodyName, Heap>();
for (const size of Object.keys(BODIES) as BodyName[]) {
  parsed.set(size, await runWorker(ROOT, 'parse', size, ''));
  compiled.set(size, await runWorker(ROOT, 'compile', size, ''));
  for (const build of builds) {
    const keyPrefix = `b${++prefixes}:`;
    const fleet = await runWorker(build.root, 'fleet', size, keyPrefix);
    const stored = await redisBytes(keyPrefix);
    const memory = await runWorker(build.root, 'memory', size, '');
    results.set(`${build.name}/${size}`, { redis: stored.bytes, keys: stored.keys, fleet, memory });
  }
}

const kib = (bytes: number): string => (Number.isNaN(bytes) ? '–' : fmt(bytes / 1024, 1));
const ratio = (after: number, before: number | undefined): string =>
  before === undefined || Number.isNaN(before) ? '–' : fmt(after / before, 2);
const total = (h: Heap): number => h.heap + h.external;
const LABEL: Record<BodyName, string> = {
  small: '164 B',
  rules: '500 KB of rules',
  comments: '500 KB, mostly comments',
};
const rows: string[] = [];
for (const size of Object.keys(BODIES) as BodyName[]) {
  const after = results.get(`after/${size}`)!;
  const before = results.get(`before/${size}`);
  rows.push(
    `| ${LABEL[size]} | ${fmt(ORIGINS[size])} | ${kib(after.redis)} | ${before === undefined ? '–' : kib(before.redis)} | ${ratio(after.redis, before?.redis)} | ${kib(total(after.fleet))} | ${before === undefined ? '–' : kib(total(before.fleet))} | ${ratio(total(after.fleet), before === undefined ? undefined : total(before.fleet))} | ${kib(total(after.memory))} | ${before === undefined ? '–' : kib(total(before.memory))} | ${kib(total(parsed.get(size)!))} | ${kib(total(compiled.get(size)!))} |`,
  );
}
const markdown = `# Fleet robots.txt entry: bytes per origin, in Redis and in a worker's heap

"after": this build; "before": ${baselineRoot === undefined ? 'no baseline given (set FLEET_ENTRY_BASELINE to a built checkout)' : 'the baseline build, measured in the same run'}. KiB per origin. Redis: \`MEMORY USAGE\` of each origin's robots.txt key (SAMPLES 0), averaged. Heap: V8 heap plus external memory (Buffers) a worker holds per origin after a full GC, its policy resolving robots.txt for that many origins (one process per build and kind, connections closed by the server after each response). Peer: the same worker with no store (the parsed copy only). Parsed: \`parseRobotsTxt\` of the body alone (this build), then with the rules for one agent compiled (as the policy does on first use).

| robots.txt | origins | Redis after | Redis before | after/before | heap, fleet store, after | before | after/before | heap, no store, after | before | parsed object | parsed + rules compiled for the agent |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join('\n')}

How to read it: in Redis an entry is its body's bytes plus its metadata and the hash's own
overhead (before: the body base64-encoded inside JSON, a third larger). In a worker, "heap,
fleet store" less "heap, no store" is what the fleet's store costs on top of the parsed copy
(before: the body again, as base64, in every cached entry). Both heap columns also hold what
any policy keeps per origin (pacing state, the HTTP client's per-origin objects), which is most
of the 164 B row; the parsed columns show what the parse and the compiled rules keep.

Node ${process.version}. Machine load (1-minute load average, 2 cores, shared): ${fmt(loadStart, 1)} at the start, ${fmt(loadavg()[0]!, 1)} at the end.
`;
mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
writeFileSync(new URL('./results/fleet-entry.md', import.meta.url), markdown);
console.log(markdown);
await client.close();
await redis.stop();
server.close();
