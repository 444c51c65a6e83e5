/**
 * Loopback origins that record what they see: every request's origin, path, arrival time (this
 * process's monotonic clock, ms) and the number of requests of that origin in flight when it
 * arrived. Tests assert on this record, the site owner's view of the crawl. Each origin is one
 * shared recording server (test/helpers/recording-server.ts); the fleet's workers are separate
 * processes on the wall clock, so arrivals are stamped with `performance.now()`.
 */
import type { ServerResponse } from 'node:http';
import { startServer } from '../../helpers/recording-server.js';
import type { RecordingServer, SeenRequest as Recorded } from '../../helpers/recording-server.js';

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
  readonly #servers: RecordingServer[] = [];
  origins: string[] = [];

  readonly #route: Route;

  private constructor(route: Route) {
    this.#route = route;
  }

  static async start(count: number, route: Route): Promise<Site> {
    const site = new Site(route);
    for (let i = 0; i < count; i += 1) await site.add();
    return site;
  }

  /** One more origin (an OS-chosen port), answering by the site's route. */
  async add(): Promise<string> {
    const server = await startServer((_req, res, seen) => this.#answer(res, seen), {
      now: () => performance.now(),
    });
    this.#servers.push(server);
    this.origins.push(server.origin);
    return server.origin;
  }

  /** The requests `origin` saw for `path` (all paths when omitted). */
  of(origin: string, path?: string): SeenRequest[] {
    return this.seen.filter((r) => r.origin === origin && (path === undefined || r.path === path));
  }

  pages(origin: string): SeenRequest[] {
    return this.of(origin).filter((r) => r.path !== '/robots.txt');
  }

  /** Closes every origin, ending the responses still held. */
  async close(): Promise<void> {
    await Promise.all(this.#servers.map((server) => server.close()));
  }

  #answer(res: ServerResponse, recorded: Recorded): void {
    const origin = `http://${recorded.host}`;
    const seenBefore = this.of(origin, recorded.path).length;
    this.seen.push({
      origin,
      path: recorded.path,
      at: recorded.at,
      inFlight: recorded.concurrent,
      userAgent: recorded.userAgent,
    });
    const reply = this.#route(recorded.path, seenBefore);
    const answer = (): void => {
      if (res.destroyed) return;
      res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...reply.headers });
      res.end(reply.body ?? 'ok');
    };
    const hold = reply.holdMs ?? 0;
    if (hold === Infinity) return;
    // A slow origin on purpose: the workers run on the wall clock, in other processes.
    if (hold > 0) setTimeout(answer, hold);
    else answer();
  }
}
