import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server saw of one request. */
export interface Seen {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly host: string;
  readonly headers: IncomingMessage['headers'];
  /** Value of the test's clock at arrival (if one was given). */
  readonly at: number;
  /** Requests in progress when this one arrived, itself included. */
  readonly concurrent: number;
  readonly body: string;
}

export type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => unknown;

export interface TestServer {
  readonly origin: string;
  readonly port: number;
  readonly server: Server;
  readonly seen: Seen[];
  /** Requests for `path` (exact path + query). */
  hits(path: string): Seen[];
  /** Most requests in progress at once. */
  readonly maxConcurrent: number;
  /** Requests in progress now. */
  readonly active: number;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1, port 0, that records every request (arrival time on the
 * test's clock, concurrency, headers, body) and answers with `handler`.
 */
export async function startServer(
  handler: Handler,
  now: () => number = () => 0,
): Promise<TestServer> {
  const seen: Seen[] = [];
  let active = 0;
  let maxConcurrent = 0;
  const server = createServer((req, res) => {
    active += 1;
    maxConcurrent = Math.max(maxConcurrent, active);
    let done = false;
    const finish = (): void => {
      if (!done) {
        done = true;
        active -= 1;
      }
    };
    res.on('finish', finish);
    res.on('close', finish);
    const concurrent = active;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: Seen = {
        seq: seen.length + 1,
        method: req.method ?? '',
        path: req.url ?? '',
        host: req.headers.host ?? '',
        headers: req.headers,
        at: now(),
        concurrent,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      seen.push(entry);
      Promise.resolve(handler(req, res, entry)).catch((error: unknown) => {
        res.destroy(error as Error);
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    server,
    seen,
    hits: (path) => seen.filter((s) => s.path === path),
    get maxConcurrent() {
      return maxConcurrent;
    },
    get active() {
      return active;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A handler answering from a table of path → response; 404 otherwise. */
export function routes(
  table: Record<
    string,
    { status?: number; headers?: Record<string, string | string[]>; body?: string | Buffer }
  >,
): Handler {
  return (req, res) => {
    const route = table[req.url ?? ''];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(route.status ?? 200, route.headers ?? { 'content-type': 'text/plain' });
    res.end(route.body ?? '');
  };
}
