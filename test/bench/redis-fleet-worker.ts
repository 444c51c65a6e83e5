/**
 * One process of the fleet benchmark: crawls every URL it is given at once through a polite
 * fetch, over the fleet (Redis) or the in-memory pacer and store, and prints
 * `{ requests, ms }` (time from the first request to the last response).
 * Config: the BENCH_FLEET environment variable (JSON).
 */
import { Agent } from 'undici';
import type { LookupFunction } from 'node:net';
import { createPoliteFetch } from '@polite-crawler/fetch';
import { createRedisFleet } from '@polite-crawler/redis';

interface Config {
  readonly mode: 'fleet' | 'memory';
  readonly redisUrl: string;
  readonly keyPrefix: string;
  readonly urls: readonly string[];
  readonly rounds: number;
  readonly concurrency: number;
}

const config = JSON.parse(process.env.BENCH_FLEET ?? '{}') as Config;
// Every *.localhost name is the loopback server.
const lookup: LookupFunction = (_host, options, callback) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
};
const dispatcher = new Agent({ connect: { lookup }, connections: 4096 });
const fleet =
  config.mode === 'fleet'
    ? await createRedisFleet({ url: config.redisUrl, keyPrefix: config.keyPrefix })
    : undefined;
const politeFetch = createPoliteFetch({
  userAgent: 'BenchBot/1.0 (+https://example.com/bot)',
  dispatcher,
  concurrency: config.concurrency,
  minInterval: 0,
  maxOrigins: 100_000,
  // A slow shared store is waited for (as README recommends in fleet mode).
  storeTimeout: 30_000,
  ...(fleet === undefined ? {} : fleet.policyOptions),
});
const timings: number[] = [];
for (let round = 0; round < config.rounds; round += 1) {
  const started = performance.now();
  await Promise.all(
    config.urls.map(async (url) => {
      const response = await politeFetch(url);
      await response.arrayBuffer();
    }),
  );
  timings.push(performance.now() - started);
}
await politeFetch.close();
await fleet?.close();
await dispatcher.close();
process.stdout.write(`${JSON.stringify({ requests: config.urls.length, timings })}\n`);
