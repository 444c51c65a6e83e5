/**
 * A TCP fault proxy on 127.0.0.1 between the fleet and a real redis-server: it passes bytes
 * through unchanged, or delays each chunk (a slow but healthy Redis, far away), or goes silent
 * (drops every byte both ways and never closes or resets a socket: a dead peer behind a NAT).
 */
import { connect, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';

export type ProxyMode =
  | { readonly kind: 'pass' }
  | { readonly kind: 'delay'; readonly ms: number }
  | { readonly kind: 'silent' };

export class FaultProxy {
  readonly port: number;
  mode: ProxyMode = { kind: 'pass' };
  /** Client connections accepted so far (a reconnect is a new one). */
  accepted = 0;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();

  private constructor(server: Server, port: number) {
    this.#server = server;
    this.port = port;
  }

  static start(upstreamPort: number): Promise<FaultProxy> {
    return new Promise((resolve, reject) => {
      const accepted: ((client: Socket) => void)[] = [];
      const server = createServer((client) => accepted[0]?.(client));
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const address = server.address();
        if (typeof address !== 'object' || address === null) return reject(new Error('no port'));
        const proxy = new FaultProxy(server, address.port);
        accepted.push((client) => proxy.#accept(client, upstreamPort));
        resolve(proxy);
      });
    });
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise((resolve) => this.#server.close(resolve));
  }

  #accept(client: Socket, upstreamPort: number): void {
    this.accepted += 1;
    const upstream = connect(upstreamPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      this.#sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.#sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    this.#pipe(client, upstream);
    this.#pipe(upstream, client);
  }

  /** Forwards `from` to `to` under the mode at the time each chunk arrives, in order. */
  #pipe(from: Socket, to: Socket): void {
    let last = Promise.resolve();
    from.on('data', (chunk: Buffer) => {
      const mode = this.mode;
      if (mode.kind === 'silent') return;
      if (mode.kind === 'pass') {
        last = last.then(() => {
          if (!to.destroyed) to.write(chunk);
        });
        return;
      }
      const due = performance.now() + mode.ms;
      last = last.then(
        () =>
          new Promise<void>((resolve) => {
            setTimeout(
              () => {
                if (!to.destroyed && this.mode.kind !== 'silent') to.write(chunk);
                resolve();
              },
              Math.max(0, due - performance.now()),
            );
          }),
      );
    });
  }
}
