import { CLI_DEFAULTS } from '@polite-crawler/cli';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/recording-server.js';
import type { RecordingServer } from '../helpers/recording-server.js';
import { callCli } from './helpers/run-cli.js';

const LIMIT = CLI_DEFAULTS.checkConcurrency;
/**
 * The check's robots.txt timeout here, ms: how long a held request keeps its slot. Long enough
 * for all the first requests to arrive on a loaded machine (a request that timed out before it
 * arrived would end the wave early); the limit case waits for it once.
 */
const TIMEOUT = 2_000;
let servers: RecordingServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/**
 * Runs `check --timeout 2000` over one URL on each of `count` origins whose robots.txt is held
 * unanswered until all `count` requests are in. A check that asks at most {@link LIMIT} origins
 * at once sends a request past the limit only once a held one has timed out and ended; one that
 * asks more sends it with the others. Resolves with the exit code and the robots.txt requests in
 * before any had ended.
 */
async function firstWave(count: number): Promise<{ code: number | null; firstWave: number }> {
  let arrivals = 0;
  let beforeAnyEnd = 0;
  let ended = false;
  const held: (() => void)[] = [];
  for (let index = 0; index < count; index++) {
    servers.push(
      await startServer((_req, res) => {
        arrivals++;
        if (!ended) beforeAnyEnd++;
        res.on('close', () => (ended = true));
        held.push(() => res.writeHead(200).end('User-agent: *\nAllow: /\n'));
        if (arrivals === count) for (const answer of held.splice(0)) answer();
      }),
    );
  }
  const urls = servers.map((server) => `${server.origin}/page`);
  const args = ['check', ...urls, '--agent', 'ExampleBot', '--timeout', String(TIMEOUT), '--json'];
  const { code } = await callCli(args);
  expect(arrivals).toBe(count);
  return { code, firstWave: beforeAnyEnd };
}

describe(`check looks up robots.txt for at most ${LIMIT} URLs at once`, () => {
  it(`asks ${LIMIT} origins at once when given exactly ${LIMIT}`, async () => {
    expect(await firstWave(LIMIT)).toEqual({ code: 0, firstWave: LIMIT });
  });

  it(`asks the ${LIMIT + 1}th origin only once one of the first ${LIMIT} is done`, async () => {
    // The first ones time out (robots.txt unreachable: exit code 4); the last is answered.
    expect(await firstWave(LIMIT + 1)).toEqual({ code: 4, firstWave: LIMIT });
  });
});
