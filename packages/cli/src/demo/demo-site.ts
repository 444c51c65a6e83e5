import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DemoResponse } from './demo-pages.js';
import { demoPages } from './demo-pages.js';

/** A request one of the demo servers answered. */
export interface DemoRequest {
  /** `A` (the demo site) or `B` (the partner origin). */
  readonly site: 'A' | 'B';
  readonly method: string;
  /** Path and query, as requested. */
  readonly path: string;
  readonly userAgent: string;
  readonly status: number;
}

/** The running demo site: two origins on 127.0.0.1 and the log of what they served. */
export interface DemoSite {
  /** `http://127.0.0.1:<port>` of the demo site. */
  readonly originA: string;
  /** `http://127.0.0.1:<port>` of the partner origin whose robots.txt answers 503. */
  readonly originB: string;
  /** Every request served, in order. */
  readonly requests: readonly DemoRequest[];
  close(): Promise<void>;
}

/**
 * Starts the demo site: two `node:http` servers on 127.0.0.1, each on a free port. Nothing
 * leaves the machine.
 *
 * @example
 * ```ts
 * const site = await startDemoSite();
 * try { console.log(site.originA); } finally { await site.close(); }
 * ```
 */
export async function startDemoSite(): Promise<DemoSite> {
  const requests: DemoRequest[] = [];
  let originB = '';
  const serve = (site: 'A' | 'B', pages: (path: string) => DemoResponse | undefined): Server =>
    createServer((request, response) => {
      const path = request.url ?? '/';
      const found = request.method === 'GET' || request.method === 'HEAD' ? pages(path) : undefined;
      const answer: DemoResponse = found ?? {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: 'Not found\n',
      };
      requests.push({
        site,
        method: request.method ?? 'GET',
        path,
        userAgent: request.headers['user-agent'] ?? '',
        status: answer.status,
      });
      response.writeHead(answer.status, {
        ...answer.headers,
        'content-length': Buffer.byteLength(answer.body),
      });
      response.end(request.method === 'HEAD' ? undefined : answer.body);
    });
  const pages = demoPages(() => originB);
  const serverA = serve('A', pages.A);
  const serverB = serve('B', pages.B);
  const listen = (server: Server): Promise<string> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as AddressInfo;
        resolve(`http://127.0.0.1:${port}`);
      });
    });
  const originA = await listen(serverA);
  try {
    originB = await listen(serverB);
  } catch (error) {
    serverA.close();
    throw error;
  }
  const close = (server: Server): Promise<void> =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    originA,
    originB,
    requests,
    close: async () => {
      await Promise.all([close(serverA), close(serverB)]);
    },
  };
}
