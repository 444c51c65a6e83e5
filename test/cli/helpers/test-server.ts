import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the test server saw. */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly userAgent: string | undefined;
}

/** A route: answers a request, or returns false to fall through to 404. */
export type Route = (request: IncomingMessage, response: ServerResponse) => boolean | void;

/** A running test server on 127.0.0.1. */
export interface TestServer {
  readonly origin: string;
  readonly port: number;
  /** Every request, in order. */
  readonly requests: SeenRequest[];
  /** Paths requested (in order). */
  paths(): string[];
  close(): Promise<void>;
}

/** Routes by exact path (query included). */
export function routes(table: Readonly<Record<string, Route>>): Route {
  return (request, response) => {
    const route = table[request.url ?? '/'];
    if (route === undefined) return false;
    return route(request, response);
  };
}

/** A 200 answer with a body and a content type. */
export function send(
  body: string | Buffer,
  contentType = 'text/html; charset=utf-8',
  headers: Record<string, string> = {},
): Route {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': contentType, ...headers });
    response.end(body);
  };
}

/** An answer with any status. */
export function status(code: number, body = '', headers: Record<string, string> = {}): Route {
  return (_request, response) => {
    response.writeHead(code, { 'content-type': 'text/plain', ...headers });
    response.end(body);
  };
}

/** A redirect. */
export function redirect(location: string, code = 301): Route {
  return (_request, response) => {
    response.writeHead(code, { location });
    response.end();
  };
}

/** Starts a `node:http` server on 127.0.0.1, port 0, that records every request. */
export async function startServer(route: Route): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server: Server = createServer((request, response) => {
    requests.push({
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      userAgent: request.headers['user-agent'],
    });
    if (route(request, response) === false) {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    paths: () => requests.map((request) => request.path),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A port on 127.0.0.1 where nothing listens (a server was started there and closed). */
export async function closedPort(): Promise<number> {
  const server = await startServer(() => false);
  await server.close();
  return server.port;
}
