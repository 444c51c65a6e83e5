/**
 * Loopback origins that record what they see: every request's origin, path, arrival time (this
 * process's monotonic clock, ms) and the number of requests of that origin in flight when it
 * arrived. Tests assert on this record, the site owner's view of the crawl.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export interface SeenRequest {
  readonly origin: string;
  readonly path: string;
  readonly at: number;
  readonly inFlight: number;
  readonly userAgent: string | undefined;
}

export interface Reply {
  readonly status?: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
  /** Hold the response this long (ms); `Infinity` never answers (until the site closes). */
  readonly holdMs?: number;
}

export type Route = (path: string, seenBefore: number) => Reply;

export class Site {
  readonly seen: SeenRequest[] = [];
  readonly #servers: Server[] = [];
  readonly #inFlight = new Map<string, number>();
  readonly #open = new Set<ServerResponse>();
  origins: string[] = [];

  static async start(count: number, route: Route): Promise<Site> {
    const site = new Site();
    for (let i = 0; i < count; i += 1) site.origins.push(await site.#listen(route));
    return site;
  }

  /** The requests `origin` saw for `path` (all paths when omitted). */
  of(origin: string, path?: string): SeenRequest[] {
    return this.seen.filter((r) => r.origin === origin && (path === undefined || r.path === path));
  }

  pages(origin: string): SeenRequest[] {
    return this.of(origin).filter((r) => r.path !== '/robots.txt');
  }

  async close(): Promise<void> {
    for (const response of this.#open) response.destroy();
    await Promise.all(
      this.#servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => resolve());
          }),
      ),
    );
  }

  #listen(route: Route): Promise<string> {
    const server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const path = request.url ?? '/';
      const inFlight = (this.#inFlight.get(origin) ?? 0) + 1;
      this.#inFlight.set(origin, inFlight);
      const seenBefore = this.of(origin, path).length;
      this.seen.push({
        origin,
        path,
        at: performance.now(),
        inFlight,
        userAgent: request.headers['user-agent'],
      });
      const reply = route(path, seenBefore);
      const finish = (): void => {
        this.#open.delete(response);
        this.#inFlight.set(origin, (this.#inFlight.get(origin) ?? 1) - 1);
        if (response.destroyed) return;
        response.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
        response.end(reply.body ?? 'ok');
      };
      this.#open.add(response);
      response.once('close', () => {
        if (this.#open.delete(response)) {
          this.#inFlight.set(origin, (this.#inFlight.get(origin) ?? 1) - 1);
        }
      });
      const hold = reply.holdMs ?? 0;
      if (hold === Infinity) return;
      if (hold > 0) setTimeout(finish, hold);
      else finish();
    });
    this.#servers.push(server);
    return new Promise((resolve) => {
      server.listen(0, '127.0.0.1', () => {
        resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`);
      });
    });
  }
}

/** Gaps between consecutive arrivals (ms). */
export function gaps(requests: readonly SeenRequest[]): number[] {
  const times = requests.map((r) => r.at).sort((a, b) => a - b);
  return times.slice(1).map((t, i) => t - times[i]!);
}
