// @polite-crawler/redis as a user installs it: a polite fetch in fleet mode against a
// redis-server of its own (Debian's, on a free port, nothing saved), robots.txt fetched once and
// stored in Redis, a disallowed page refused and never requested.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createPoliteFetch, isRobotsDeniedError } from '@polite-crawler/fetch';
import { createRedisFleet } from '@polite-crawler/redis';
import { startSite } from './site.mjs';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const port = await freePort();
const redis = spawn(
  '/usr/bin/redis-server',
  ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  { stdio: 'ignore' },
);
const site = await startSite();
const fleet = await createRedisFleet({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'smoke:' });
const politeFetch = createPoliteFetch({
  userAgent: 'ExampleBot/1.0',
  minInterval: 0,
  ...fleet.policyOptions,
});
try {
  const a = await politeFetch(`${site.origin}/a`);
  assert.equal(a.status, 200);
  await a.text();
  const denied: unknown = await politeFetch(`${site.origin}/private/x`).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(isRobotsDeniedError(denied), `expected a RobotsDeniedError, got ${String(denied)}`);
  assert.ok(!site.requested.includes('/private/x'), 'the refused URL was requested');
  assert.equal(site.requested.filter((path) => path === '/robots.txt').length, 1);
  console.log('ok redis: fleet-paced fetch, robots.txt once, /private/x refused and never sent');
} finally {
  await politeFetch.close();
  await fleet.close();
  await site.close();
  redis.kill('SIGKILL');
}
