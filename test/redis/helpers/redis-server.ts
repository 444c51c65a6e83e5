/**
 * A real redis-server for one test file: /usr/bin/redis-server (Debian's, installed by
 * scripts/ensure-system-deps.mjs) on a free loopback port, nothing persisted
 * (`--save "" --appendonly no`), never the system one. It can be killed, restarted empty on
 * the same port, paused (SIGSTOP) and resumed, to stand for the faults a fleet must survive.
 * {@link TestCluster}: three of them as a Redis Cluster (three masters, no replicas).
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient, createCluster } from '@redis/client';

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
export const REDIS_CLI = process.env.REDIS_CLI ?? '/usr/bin/redis-cli';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export class TestRedis {
  readonly port: number;
  /** Arguments added to every start (a cluster node's settings). */
  readonly #extraArgs: readonly string[];
  #child: ChildProcess | undefined;

  private constructor(port: number, extraArgs: readonly string[]) {
    this.port = port;
    this.#extraArgs = extraArgs;
  }

  static async start(port?: number, extraArgs: readonly string[] = []): Promise<TestRedis> {
    const redis = new TestRedis(port ?? (await freePort()), extraArgs);
    await redis.restart();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Sends one command on a connection of its own (to inspect keys the fleet wrote). */
  async command<T>(args: string[]): Promise<T> {
    const client = await createClient({ url: this.url }).connect();
    try {
      return await client.sendCommand<T>(args);
    } finally {
      client.destroy();
    }
  }

  get running(): boolean {
    return this.#child !== undefined;
  }

  /** Starts the server (empty) on its port; resolves once it accepts connections. */
  restart(): Promise<void> {
    if (this.#child !== undefined) return Promise.resolve();
    const child = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--protected-mode',
        'no',
        ...this.#extraArgs,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.#child = child;
    return new Promise((resolve, reject) => {
      let output = '';
      const onData = (chunk: Buffer): void => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          child.stdout?.off('data', onData);
          child.stdout?.resume();
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.resume();
      child.once('exit', (code) => {
        if (this.#child === child) this.#child = undefined;
        reject(new Error(`redis-server exited (${code}): ${output.slice(-500)}`));
      });
      child.once('error', reject);
    });
  }

  /** Kills the server (SIGKILL): every key is lost. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (child === undefined) return;
    this.#child = undefined;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  }

  /** SIGSTOP: the server keeps its connections but answers nothing (a partition, a stall). */
  pause(): void {
    this.#child?.kill('SIGSTOP');
  }

  resume(): void {
    this.#child?.kill('SIGCONT');
  }

  stop(): Promise<void> {
    return this.kill();
  }
}

/** Slot ranges (inclusive) a master serves, from its own line of `CLUSTER NODES`. */
function ownSlots(nodes: string): [number, number][] {
  const mine = nodes.split('\n').find((line) => line.includes('myself'));
  if (mine === undefined) return [];
  return mine
    .split(' ')
    .slice(8)
    .filter((field) => /^\d+(-\d+)?$/.test(field))
    .map((field) => {
      const [from, to] = field.split('-').map(Number);
      return [from!, to ?? from!];
    });
}

/**
 * A real three-master Redis Cluster on 127.0.0.1: three {@link TestRedis} nodes with
 * `--cluster-enabled yes` (their node files in a temporary directory, bus ports chosen free),
 * joined by `redis-cli --cluster create … --cluster-replicas 0` (Debian's redis-tools), started
 * once `cluster_state:ok`. A node can be flushed, or killed and restarted empty (it keeps its
 * node file, so it rejoins with its slots and no keys).
 */
export class TestCluster {
  readonly nodes: readonly TestRedis[];
  readonly #dir: string;

  private constructor(nodes: readonly TestRedis[], dir: string) {
    this.nodes = nodes;
    this.#dir = dir;
  }

  static async start(count = 3): Promise<TestCluster> {
    const dir = await mkdtemp(join(tmpdir(), 'polite-cluster-'));
    const nodes: TestRedis[] = [];
    try {
      const ports: number[] = [];
      // A node's port and its cluster bus port, all different.
      while (ports.length < 2 * count) {
        const port = await freePort();
        if (!ports.includes(port)) ports.push(port);
      }
      const starting = Array.from({ length: count }, async (_, i) => {
        const port = ports[2 * i]!;
        nodes.push(
          await TestRedis.start(port, [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            join(dir, `nodes-${port}.conf`),
            // Port + 10,000 may be taken or out of range for a free port: one of its own.
            '--cluster-port',
            String(ports[2 * i + 1]),
            // A master that stopped answering is marked failed after 2 s (the fault tests).
            '--cluster-node-timeout',
            '2000',
            '--dir',
            dir,
          ]),
        );
      });
      await Promise.all(starting);
      await promisify(execFile)(REDIS_CLI, [
        '--cluster',
        'create',
        ...nodes.map((node) => `127.0.0.1:${node.port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ]);
      const cluster = new TestCluster(nodes, dir);
      await cluster.waitOk();
      return cluster;
    } catch (error) {
      await Promise.all(nodes.map((node) => node.stop()));
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  get urls(): string[] {
    return this.nodes.map((node) => node.url);
  }

  /** A node-redis cluster client, connected (the caller closes it). */
  client() {
    return createCluster({ rootNodes: this.urls.map((url) => ({ url })) }).connect();
  }

  /** Resolves once every running node reports `cluster_state:ok` (at most `ms`). */
  async waitOk(ms = 20_000): Promise<void> {
    const until = performance.now() + ms;
    for (;;) {
      const states = await Promise.all(
        this.nodes
          .filter((node) => node.running)
          .map((node) => node.command<string>(['CLUSTER', 'INFO']).catch(() => '')),
      );
      if (states.every((info) => info.includes('cluster_state:ok'))) return;
      if (performance.now() > until) throw new Error(`cluster not ok: ${states.join(' | ')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** The node serving `slot` (asked of each node: its own slots). */
  async nodeOf(slot: number): Promise<TestRedis> {
    for (const node of this.nodes) {
      const ranges = ownSlots(await node.command<string>(['CLUSTER', 'NODES']));
      if (ranges.some(([from, to]) => slot >= from && slot <= to)) return node;
    }
    throw new Error(`no node serves slot ${slot}`);
  }

  /** Redis's own slot for `key` (`CLUSTER KEYSLOT`). */
  keySlot(key: string): Promise<number> {
    return this.nodes[0]!.command<number>(['CLUSTER', 'KEYSLOT', key]);
  }

  async stop(): Promise<void> {
    await Promise.all(this.nodes.map((node) => node.stop()));
    await rm(this.#dir, { recursive: true, force: true });
  }
}
