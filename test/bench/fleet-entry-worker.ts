/**
 * One process of the fleet-entry memory benchmark (fleet-entry.bench.ts): loads the packages
 * of one build (`root`: a checkout whose packages/\*\/dist are built), resolves robots.txt for
 * `origins` distinct origins through a robots policy — over the fleet's Redis store, or with no
 * store (`memory`), or only parses the body (`parse`; `compile`: and compiles the rules for
 * the agent) — and prints the heap those origins hold,
 * per origin: `{ heap, external }` in bytes (after a full GC, connections closed).
 * Config: the BENCH_ENTRY environment variable (JSON). Run with --expose-gc.
 */
import type { LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';

interface Config {
  readonly root: string;
  readonly mode: 'fleet' | 'memory' | 'parse' | 'compile';
  readonly redisUrl: string;
  readonly keyPrefix: string;
  readonly port: number;
  readonly origins: number;
  /** Bytes of robots.txt (the server serves the body of that size). */
  readonly size: string;
}

interface FetchModule {
  createRobotsPolicy(options: Record<string, unknown>): {
    check(url: string): Promise<{ allowed: boolean }>;
    close(): Promise<void>;
  };
}
interface RedisModule {
  createRedisFleet(options: Record<string, unknown>): Promise<{
    policyOptions: Record<string, unknown>;
    close(): Promise<void>;
  }>;
}
interface RobotsTxtModule {
  parseRobotsTxt(body: Uint8Array): {
    forAgent(agent: string): { isAllowed(url: string): boolean };
  };
}

const config = JSON.parse(process.env['BENCH_ENTRY'] ?? '{}') as Config;
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

function settle(): { heap: number; external: number } {
  for (let i = 0; i < 4; i += 1) gc!();
  const { heapUsed, external } = process.memoryUsage();
  return { heap: heapUsed, external };
}

const url = (i: number, path: string): string =>
  `http://o${i}-${config.size}.localhost:${config.port}${path}`;

/** An Agent for which every *.localhost name is the loopback server. */
function loopback(): Agent {
  const lookup: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  };
  return new Agent({ connect: { lookup } });
}

let kept: unknown[] = [];
let result: { heap: number; external: number };
if (config.mode === 'parse' || config.mode === 'compile') {
  const robots = (await import(
    `${config.root}/packages/robots-txt/dist/index.js`
  )) as RobotsTxtModule;
  const body = new Uint8Array(
    await (await undiciFetch(url(0, '/robots.txt'), { dispatcher: loopback() })).arrayBuffer(),
  );
  const before = settle();
  for (let i = 0; i < config.origins; i += 1) {
    const parsed = robots.parseRobotsTxt(body);
    // `compile`: the rules for an agent too, compiled on first use as the policy does.
    if (config.mode === 'compile') parsed.forAgent('BenchBot').isAllowed('http://a.localhost/x');
    kept.push(parsed);
  }
  const after = settle();
  result = { heap: after.heap - before.heap, external: after.external - before.external };
} else {
  const { createRobotsPolicy } = (await import(
    `${config.root}/packages/fetch/dist/index.js`
  )) as FetchModule;
  const { createRedisFleet } = (await import(
    `${config.root}/packages/redis/dist/index.js`
  )) as RedisModule;
  // The server closes every connection: no idle sockets per origin are counted.
  const dispatcher = loopback();
  const fleet =
    config.mode === 'fleet'
      ? await createRedisFleet({ url: config.redisUrl, keyPrefix: config.keyPrefix })
      : undefined;
  const policy = createRobotsPolicy({
    userAgent: 'BenchBot/1.0 (+https://example.com/bot)',
    dispatcher,
    maxOrigins: 100_000,
    ...(fleet === undefined ? {} : fleet.policyOptions),
  });
  // One origin first: what the policy and the fleet allocate once is not counted per origin.
  await policy.check(url(config.origins, '/x'));
  const before = settle();
  for (let i = 0; i < config.origins; i += 1) {
    const { allowed } = await policy.check(url(i, '/private/x'));
    if (allowed) throw new Error('the benchmark robots.txt disallows /private/');
  }
  const after = settle();
  result = { heap: after.heap - before.heap, external: after.external - before.external };
  kept = [policy];
  await policy.close();
  await fleet?.close();
  await dispatcher.close();
}
console.log(
  JSON.stringify({
    heap: result.heap / config.origins,
    external: result.external / config.origins,
    kept: kept.length,
  }),
);
