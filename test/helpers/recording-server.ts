/**
 * The one recording server every test folder uses: a real `node:http` server on 127.0.0.1,
 * port 0, that records what it saw of each request (method, path, headers, body, arrival on the
 * test's clock, requests in flight) and answers from a handler or a table of routes. Tests
 * assert on that record, the site owner's view of what the crawler did.
 */
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
  /** 1 for the first request the server saw, then 2, … */
  readonly seq: number;
  readonly method: string;
  /** Path + query, as sent. */
  readonly path: string;
  readonly host: string;
  readonly headers: IncomingHttpHeaders;
  readonly userAgent: string | undefined;
  /** The request body (UTF-8). */
  readonly body: string;
  /**
   * The test's clock when the request head arrived (`now` of {@link ServerOptions}; 0 without
   * one). The request is recorded, and answered, once its body is in.
   */
  readonly at: number;
  /** Requests in progress when this one arrived, itself included. */
  readonly concurrent: number;
}

/**
 * Answers one request by writing to `res`, called once the request body has been read. A
 * rejected promise destroys the response; returning `false` answers 404.
 */
export type Handler = (req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => unknown;

/** One canned answer. Headers given as pairs are sent as separate field lines, in order. */
export interface Answer {
  /** @default 200 */
  readonly status?: number;
  /** @default a `content-type` only (see {@link routes}) */
  readonly headers?: OutgoingHttpHeaders | readonly (readonly [string, string])[];
  /** @default '' */
  readonly body?: string | Buffer;
  /** Hold the answer until this promise settles (to make requests overlap). */
  readonly hold?: Promise<unknown>;
  /** Reset the connection instead of answering. */
  readonly reset?: boolean;
}

/**
 * A route: a canned answer, or a function that returns one, returns `false` to answer 404, or
 * answers through `res` itself (and returns anything else).
 */
export type Route =
  | Answer
  | ((req: IncomingMessage, res: ServerResponse, seen: SeenRequest) => Answer | boolean | void);

/** Routes by exact path + query. */
export type RouteTable = Readonly<Record<string, Route>>;

export interface ServerOptions {
  /** The clock that stamps {@link SeenRequest.at} (a test's fake clock). */
  readonly now?: () => number;
}

export interface RecordingServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  readonly server: Server;
  /** Every request, in order of arrival. */
  readonly seen: SeenRequest[];
  /** Paths requested, in order. */
  paths(): string[];
  /** Requests for exactly this path + query. */
  hits(path: string): SeenRequest[];
  /**
   * Resolves once `count` requests for `path` (any path when omitted) have arrived, counting
   * the ones already seen: a test waits on the arrival itself, never on time.
   */
  arrived(path?: string, count?: number): Promise<SeenRequest>;
  /** Most requests in progress at once. */
  readonly maxConcurrent: number;
  /** Requests in progress now. */
  readonly active: number;
  /** Closes every connection (held answers included) and the server. */
  close(): Promise<void>;
}

const NOT_FOUND: Answer = {
  status: 404,
  headers: { 'content-type': 'text/plain' },
  body: 'not found',
};

/** Writes `answer` to `res` (nothing when the connection is already gone). */
function write(res: ServerResponse, answer: Answer, contentType: string): void {
  if (res.destroyed) return;
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
      (headers as OutgoingHttpHeaders | undefined) ?? { 'content-type': contentType },
    );
  }
  res.end(answer.body ?? '');
}

/** Sends `answer` now, or once its `hold` settles. */
function answerWith(res: ServerResponse, answer: Answer, contentType: string): void {
  if (answer.hold === undefined) write(res, answer, contentType);
  else {
    const later = (): void => write(res, answer, contentType);
    void answer.hold.then(later, later);
  }
}

/**
 * A handler answering from `table` by exact path + query, 404 otherwise. An answer without
 * headers is sent with `content-type: <contentType>` alone.
 */
export function routes(
  table: RouteTable,
  { contentType = 'text/plain' }: { readonly contentType?: string } = {},
): Handler {
  return (req, res, seen) => {
    const route = table[seen.path];
    const result = typeof route === 'function' ? route(req, res, seen) : (route ?? false);
    if (result === false) answerWith(res, NOT_FOUND, contentType);
    else if (typeof result === 'object') answerWith(res, result, contentType);
  };
}

/** A 200 answer with a body and a content type (and more headers). */
export function send(
  body: string | Buffer,
  contentType = 'text/html; charset=utf-8',
  headers: OutgoingHttpHeaders = {},
): Answer {
  return { status: 200, headers: { 'content-type': contentType, ...headers }, body };
}

/** An answer with any status (a `text/plain` body). */
export function status(code: number, body = '', headers: OutgoingHttpHeaders = {}): Answer {
  return { status: code, headers: { 'content-type': 'text/plain', ...headers }, body };
}

/** A redirect. */
export function redirect(location: string, code = 301): Answer {
  return { status: code, headers: { location } };
}

/**
 * Starts a recording server that answers with `handler`. A handler that returns `false`
 * answers 404; one that never writes leaves the request hanging until {@link RecordingServer.close}.
 */
export async function startServer(
  handler: Handler,
  options: ServerOptions = {},
): Promise<RecordingServer> {
  const now = options.now ?? (() => 0);
  const seen: SeenRequest[] = [];
  const waiters = new Set<() => void>();
  let active = 0;
  let maxConcurrent = 0;
  const server = createServer((req, res) => {
    active += 1;
    maxConcurrent = Math.max(maxConcurrent, active);
    const concurrent = active;
    const at = now();
    let counted = true;
    const finish = (): void => {
      if (counted) active -= 1;
      counted = false;
    };
    res.on('finish', finish);
    res.on('close', finish);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: SeenRequest = {
        seq: seen.length + 1,
        method: req.method ?? '',
        path: req.url ?? '',
        host: req.headers.host ?? '',
        headers: req.headers,
        userAgent: req.headers['user-agent'],
        body: Buffer.concat(chunks).toString('utf8'),
        at,
        concurrent,
      };
      seen.push(entry);
      for (const wake of [...waiters]) wake();
      Promise.resolve(handler(req, res, entry)).then(
        (result) => {
          if (result === false) answerWith(res, NOT_FOUND, 'text/plain');
        },
        (error: unknown) => res.destroy(error as Error),
      );
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const matching = (path: string | undefined): SeenRequest[] =>
    path === undefined ? seen : seen.filter((entry) => entry.path === path);
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    server,
    seen,
    paths: () => seen.map((entry) => entry.path),
    hits: (path) => matching(path),
    arrived: (path, count = 1) =>
      new Promise<SeenRequest>((resolve) => {
        const check = (): void => {
          const hits = matching(path);
          if (hits.length < count) return;
          waiters.delete(check);
          resolve(hits[count - 1]!);
        };
        waiters.add(check);
        check();
      }),
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

/**
 * A site of HTML pages from `table` (answers without headers are `text/html`), 404 otherwise.
 * @example
 * const site = await startSite({ '/robots.txt': { body: 'User-agent: *\nAllow: /\n' }, '/': { body: '<p>hi</p>' } });
 */
export function startSite(
  table: RouteTable,
  options: ServerOptions = {},
): Promise<RecordingServer> {
  return startServer(routes(table, { contentType: 'text/html' }), options);
}

/** A port on 127.0.0.1 where nothing listens (a server was started there and closed). */
export async function closedPort(): Promise<number> {
  const server = await startServer(() => false);
  await server.close();
  return server.port;
}
