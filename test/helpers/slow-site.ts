/**
 * A site whose pages answer when the test says so: each page request is held until the test
 * calls its answer, after moving the fake clock as far as the server "takes". The crawler's
 * clock then sees a response time of exactly that much. robots.txt (empty: all allowed) is
 * answered at once. Start times are on the test's clock (`SeenRequest.at`).
 */
import { startServer } from './recording-server.js';
import type { RecordingServer } from './recording-server.js';

export interface SlowSite {
  readonly site: RecordingServer;
  /** Answers of the held page requests, in order of arrival: call one to answer it. */
  readonly held: (() => void)[];
}

export async function startSlowSite(clock: { now(): number }, body = 'page'): Promise<SlowSite> {
  const held: (() => void)[] = [];
  const site = await startServer(
    (req, res) => {
      if (req.url === '/robots.txt') return void res.end('');
      held.push(() => res.writeHead(200, { 'content-type': 'text/html' }).end(body));
    },
    { now: () => clock.now() },
  );
  return { site, held };
}

/** Start times of the pages (not robots.txt) on the test's clock. */
export const pageStarts = (site: RecordingServer): number[] =>
  site.seen.filter((x) => x.path !== '/robots.txt' && x.path !== '/favicon.ico').map((x) => x.at);

/** Time between consecutive starts. */
export const gaps = (times: readonly number[]): number[] =>
  times.slice(1).map((t, i) => t - times[i]!);
