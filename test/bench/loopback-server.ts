/**
 * The loopback benchmarks' server (fetch.bench.ts, and fetch-builds.bench.ts with `--loopback`):
 * the benchmark bodies served by `node:http` in a child process, so that the client's CPU time
 * can be measured on its own, pinned to the other core where `taskset` and two cores are there.
 */
import { availableParallelism } from 'node:os';
import { execFileSync, spawn } from 'node:child_process';
import type { LookupFunction } from 'node:net';
import { BENCH_HTML, BENCH_PAGE, BENCH_ROBOTS } from './bench-bodies.js';

const SERVER_SOURCE = `
const { createServer } = require('node:http');
const robots = process.env.BENCH_ROBOTS;
const page = process.env.BENCH_PAGE;
const html = process.env.BENCH_HTML;
const robotsByHost = new Map();
let requests = 0;
const server = createServer((req, res) => {
  requests += 1;
  if (req.url === '/robots.txt') {
    robotsByHost.set(req.headers.host, (robotsByHost.get(req.headers.host) || 0) + 1);
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(robots);
  } else if (req.url.startsWith('/html')) {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(html);
  } else {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(page);
  }
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (message) => {
  if (message === 'stats') {
    let total = 0;
    for (const n of robotsByHost.values()) total += n;
    process.send({ robots: total, robotsHosts: robotsByHost.size, maxPerHost: Math.max(0, ...robotsByHost.values()), requests });
  } else if (message === 'reset') {
    robotsByHost.clear();
    requests = 0;
    process.send({ reset: true });
  } else if (message === 'close') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
`;

/** `*.localhost` is 127.0.0.1, answered here (no resolver involved). */
export const localLookup: LookupFunction = (hostname, options, callback) => {
  if (options.all === true) {
    (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
      { address: '127.0.0.1', family: 4 },
    ]);
  } else callback(null, '127.0.0.1', 4);
};

/** This machine's cores (the benchmarks' notes say how many shared the run). */
export const CORES = availableParallelism();

/** What the server counted since its start or its last reset. */
export interface ServerStats {
  robots: number;
  robotsHosts: number;
  maxPerHost: number;
  requests: number;
}

/**
 * Pins this process (all its threads, the GC's included) to core 0 and returns the command
 * that starts the server on core 1, when `taskset` is there and there are two cores: one core
 * each, instead of the scheduler moving both around, which is most of the noise between runs.
 * Unpinned elsewhere.
 */
function pinnedServerCommand(): { command: string; args: string[]; pinned: boolean } {
  const plain = { command: process.execPath, args: ['-e', SERVER_SOURCE], pinned: false };
  if (CORES < 2) return plain;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  } catch {
    return plain;
  }
  return {
    command: 'taskset',
    args: ['-c', '1', process.execPath, '-e', SERVER_SOURCE],
    pinned: true,
  };
}

/** A running loopback server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  readonly base: string;
  readonly port: number;
  /** Whether this process and the server run on a core each. */
  readonly pinned: boolean;
  stats(): Promise<ServerStats>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the server (and pins this process, see {@link pinnedServerCommand}). */
export async function startLoopbackServer(): Promise<LoopbackServer> {
  const command = pinnedServerCommand();
  const child = spawn(command.command, command.args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_ROBOTS, BENCH_PAGE, BENCH_HTML },
  });
  const ask = <T>(message: string): Promise<T> =>
    new Promise((resolve) => {
      child.once('message', (value) => resolve(value as T));
      child.send(message);
    });
  const { port } = await new Promise<{ port: number }>((resolve) =>
    child.once('message', (value) => resolve(value as { port: number })),
  );
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    pinned: command.pinned,
    stats: () => ask<ServerStats>('stats'),
    reset: async () => {
      await ask('reset');
    },
    close: async () => {
      child.send('close');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}
