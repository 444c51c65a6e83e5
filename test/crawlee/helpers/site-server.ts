import { createServer } from 'node:http';
import type {
  IncomingHttpHeaders,
  IncomingMessage,
  OutgoingHttpHeaders,
  Server,
  ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server saw of one request. */
export interface SeenRequest {
  readonly method: string;
  /** Path + query, as sent. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** Requests in progress when this one arrived, itself included. */
  readonly concurrent: number;
}

/** One canned answer. Header values given as arrays are sent as separate field lines. */
export interface Answer {
  readonly status?: number;
  readonly headers?: OutgoingHttpHeaders | readonly (readonly [string, string])[];
  readonly body?: string;
  /** Hold the answer until this promise settles (to make requests overlap). */
  readonly hold?: Promise<unknown>;
  /** Reset the connection instead of answering. */
  readonly reset?: boolean;
}

export type Route = Answer | ((req: IncomingMessage, seen: SeenRequest) => Answer);

export interface SiteServer {
  readonly origin: string;
  readonly seen: SeenRequest[];
  /** Paths requested, in order. */
  paths(): string[];
  /** Requests for exactly this path + query. */
  hits(path: string): SeenRequest[];
  readonly maxConcurrent: number;
  close(): Promise<void>;
}

function send(res: ServerResponse, answer: Answer): void {
  if (answer.reset === true) {
    res.socket?.destroy();
    return;
  }
  const { headers } = answer;
  if (Array.isArray(headers)) {
    res.writeHead(answer.status ?? 200, (headers as readonly (readonly [string, string])[]).flat());
  } else {
    res.writeHead(
      answer.status ?? 200,
      (headers as OutgoingHttpHeaders | undefined) ?? { 'content-type': 'text/html' },
    );
  }
  res.end(answer.body ?? '');
}

/**
 * A real HTTP server on 127.0.0.1 (port 0) that answers from a table of path → answer
 * (404 otherwise) and records every request it receives.
 */
export async function startSite(table: Record<string, Route>): Promise<SiteServer> {
  const seen: SeenRequest[] = [];
  let active = 0;
  let maxConcurrent = 0;
  const server: Server = createServer((req, res) => {
    active += 1;
    maxConcurrent = Math.max(maxConcurrent, active);
    const concurrent = active;
    let counted = true;
    const done = (): void => {
      if (counted) active -= 1;
      counted = false;
    };
    res.on('close', done);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: SeenRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        concurrent,
      };
      seen.push(entry);
      const route = table[entry.path];
      const answer: Answer =
        route === undefined
          ? { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' }
          : typeof route === 'function'
            ? route(req, entry)
            : route;
      if (answer.hold === undefined) send(res, answer);
      else void answer.hold.then(() => send(res, answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    paths: () => seen.map((entry) => entry.path),
    hits: (path) => seen.filter((entry) => entry.path === path),
    get maxConcurrent() {
      return maxConcurrent;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
