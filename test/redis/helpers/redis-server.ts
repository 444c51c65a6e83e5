/**
 * A real redis-server for one test file: /usr/bin/redis-server (Debian's, installed by
 * scripts/ensure-system-deps.mjs) on a free loopback port, nothing persisted
 * (`--save "" --appendonly no`), never the system one. It can be killed, restarted empty on
 * the same port, paused (SIGSTOP) and resumed, to stand for the faults a fleet must survive.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createClient } from '@redis/client';

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

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
  #child: ChildProcess | undefined;

  private constructor(port: number) {
    this.port = port;
  }

  static async start(port?: number): Promise<TestRedis> {
    const redis = new TestRedis(port ?? (await freePort()));
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
