import { createServer } from 'node:net';
import type { AddressInfo, Server as NetServer, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { isRobotsDeniedError } from '@polite-crawler/fetch';
import type { RobotsDeniedError } from '@polite-crawler/fetch';
import { startServer, routes } from '../helpers/recording-server.js';
import { useRigs } from '../fetch/helpers/setup.js';
import { until } from '../fetch/helpers/fake-clock.js';

const RULES = 'User-agent: *\nDisallow: /private\n';

const { server, polite, defer } = useRigs();

async function denial(promise: Promise<unknown>): Promise<RobotsDeniedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isRobotsDeniedError(error))
    throw new Error(`expected a RobotsDeniedError, got ${String(error)}`);
  return error;
}

describe('robots.txt 200', () => {
  it('applies the rules: a disallowed page is never requested, an allowed one is', async () => {
    const s = await server(routes({ '/robots.txt': { body: RULES }, '/open': { body: 'ok' } }));
    const { fetch } = polite();
    const error = await denial(fetch(`${s.origin}/private/page`));
    expect(error).toMatchObject({ code: 'ERR_ROBOTS_DENIED', reason: 'disallowed', line: 2 });
    expect(error.rule).toMatchObject({ kind: 'disallow', pattern: '/private' });
    expect(error.message).toContain('line 2');
    const response = await fetch(`${s.origin}/open`);
    expect(await response.text()).toBe('ok');
    expect(s.seen.map((x) => x.path)).toEqual(['/robots.txt', '/open']);
  });

  it('parses an HTML soft-404 served with 200 (which allows everything)', async () => {
    const html =
      '<!doctype html><html><head><title>Not found</title></head><body>Sorry</body></html>';
    const s = await server(
      routes({
        '/robots.txt': { headers: { 'content-type': 'text/html' }, body: html },
        '/private/x': { body: 'yes' },
      }),
    );
    const { fetch, policy } = polite();
    expect(await (await fetch(`${s.origin}/private/x`)).text()).toBe('yes');
    const explanation = await policy.explain(`${s.origin}/private/x`);
    expect(explanation).toMatchObject({ allowed: true, reason: 'allowed', robotsStatus: 'ok' });
    expect(explanation.robotsTxt.httpStatus).toBe(200);
  });
});

describe('robots.txt redirects', () => {
  const chain = (
    hops: number,
    final = '/rules.txt',
  ): Record<string, { status?: number; headers?: Record<string, string>; body?: string }> => {
    const table: Record<
      string,
      { status?: number; headers?: Record<string, string>; body?: string }
    > = {};
    let from = '/robots.txt';
    for (let i = 1; i <= hops; i += 1) {
      const to = i === hops ? final : `/hop${i}`;
      table[from] = { status: i % 2 === 0 ? 302 : 301, headers: { location: to } };
      from = to;
    }
    table[final] = { body: RULES };
    return table;
  };

  for (const hops of [1, 5]) {
    it(`follows ${hops} redirect(s) and applies the target's rules to the initial origin`, async () => {
      const s = await server(routes(chain(hops)));
      const { fetch, policy } = polite();
      await denial(fetch(`${s.origin}/private`));
      const explanation = await policy.explain(`${s.origin}/private`);
      expect(explanation.robotsTxt.redirects).toHaveLength(hops);
      expect(explanation.robotsTxt.status).toBe('ok');
      expect(s.hits('/private')).toHaveLength(0);
    });
  }

  it('treats 6 redirects as unavailable: everything allowed', async () => {
    const s = await server(routes({ ...chain(6), '/private': { body: 'fetched' } }));
    const { fetch, policy } = polite();
    expect(await (await fetch(`${s.origin}/private`)).text()).toBe('fetched');
    const explanation = await policy.explain(`${s.origin}/private`);
    expect(explanation).toMatchObject({
      allowed: true,
      reason: 'unavailable',
      robotsStatus: 'unavailable',
    });
    expect(explanation.robotsTxt.latest.failure?.kind).toBe('too-many-redirects');
    expect(s.hits('/hop5')).toHaveLength(1);
    expect(s.hits('/rules.txt')).toHaveLength(0);
  });

  it('treats a redirect loop as unavailable', async () => {
    const s = await server(
      routes({
        '/robots.txt': { status: 301, headers: { location: '/a' } },
        '/a': { status: 302, headers: { location: '/robots.txt' } },
        '/private': { body: 'fetched' },
      }),
    );
    const { fetch, policy } = polite();
    expect((await fetch(`${s.origin}/private`)).status).toBe(200);
    expect((await policy.explain(`${s.origin}/x`)).robotsTxt.latest.failure?.kind).toBe(
      'redirect-loop',
    );
    expect(s.hits('/robots.txt')).toHaveLength(1);
  });

  it('follows a redirect to another host and port, and a relative Location', async () => {
    const other = await server(
      routes({
        '/elsewhere/robots.txt': { status: 302, headers: { location: '../final.txt' } },
        '/final.txt': { body: RULES },
      }),
    );
    const s = await server(
      routes({
        '/robots.txt': {
          status: 301,
          headers: { location: `http://localhost:${other.port}/elsewhere/robots.txt` },
        },
        '/open': { body: 'ok' },
      }),
    );
    const { fetch, policy } = polite();
    await denial(fetch(`${s.origin}/private/1`));
    expect((await fetch(`${s.origin}/open`)).status).toBe(200);
    const explanation = await policy.explain(`${s.origin}/private/1`);
    expect(explanation.robotsTxt.redirects).toEqual([
      `http://localhost:${other.port}/elsewhere/robots.txt`,
      `http://localhost:${other.port}/final.txt`,
    ]);
    expect(other.seen.map((x) => x.path)).toEqual(['/elsewhere/robots.txt', '/final.txt']);
    expect(other.seen[0]!.host).toBe(`localhost:${other.port}`);
  });
});

describe('robots.txt status codes', () => {
  for (const status of [400, 401, 403, 404, 410]) {
    it(`${status} → unavailable: everything allowed`, async () => {
      const s = await server(
        routes({ '/robots.txt': { status, body: 'no' }, '/private': { body: 'fetched' } }),
      );
      const { fetch, policy } = polite();
      expect(await (await fetch(`${s.origin}/private`)).text()).toBe('fetched');
      expect(await policy.check(`${s.origin}/private`)).toMatchObject({
        allowed: true,
        reason: 'unavailable',
      });
    });
  }

  for (const status of [429, 500, 502, 503]) {
    it(`${status} → unreachable: everything disallowed, nothing requested`, async () => {
      const s = await server(
        routes({ '/robots.txt': { status, body: 'busy' }, '/page': { body: 'fetched' } }),
      );
      const { fetch } = polite();
      const error = await denial(fetch(`${s.origin}/page`));
      expect(error).toMatchObject({ reason: 'unreachable', url: `${s.origin}/page` });
      expect(error.decision.robotsStatus).toBe('unreachable');
      expect(s.hits('/page')).toHaveLength(0);
    });
  }

  it('treats 429 like any 4xx when treat429AsUnreachable is false', async () => {
    const s = await server(
      routes({ '/robots.txt': { status: 429 }, '/page': { body: 'fetched' } }),
    );
    const { fetch } = polite({ treat429AsUnreachable: false });
    expect((await fetch(`${s.origin}/page`)).status).toBe(200);
  });
});

describe('robots.txt transport failures → unreachable', () => {
  it('connection refused', async () => {
    const probe = await startServer(routes({}));
    const { port } = probe;
    await probe.close();
    const { fetch, policy } = polite();
    const error = await denial(fetch(`http://127.0.0.1:${port}/page`));
    expect(error.reason).toBe('unreachable');
    const explanation = await policy.explain(`http://127.0.0.1:${port}/page`);
    expect(explanation.robotsTxt.latest.failure).toMatchObject({
      kind: 'connect',
      code: 'ECONNREFUSED',
    });
  });

  it('connection reset in the middle of the body', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') {
        res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
        res.write('User-agent: *\nAllow: /\n');
        setImmediate(() => res.socket?.destroy());
        return;
      }
      res.end('page');
    });
    const { fetch, policy } = polite();
    await denial(fetch(`${s.origin}/page`));
    expect((await policy.explain(`${s.origin}/page`)).robotsTxt.latest.failure?.kind).toBe('reset');
    expect(s.hits('/page')).toHaveLength(0);
  });

  it('DNS failure of an unresolvable .invalid host', async () => {
    const { fetch, policy } = polite();
    const error = await denial(fetch('http://no-such-host.invalid/page'));
    expect(error.reason).toBe('unreachable');
    expect(
      (await policy.explain('http://no-such-host.invalid/page')).robotsTxt.latest.failure,
    ).toMatchObject({
      kind: 'dns',
      code: 'ENOTFOUND',
    });
  });

  it('TLS failure: https spoken to a plain-HTTP port', async () => {
    const s = await server(routes({ '/robots.txt': { body: 'User-agent: *\nAllow: /\n' } }));
    const { fetch, policy } = polite();
    await denial(fetch(`https://127.0.0.1:${s.port}/page`));
    expect(
      (await policy.explain(`https://127.0.0.1:${s.port}/page`)).robotsTxt.latest.failure?.kind,
    ).toBe('tls');
  });

  it('headers timeout: a server that never answers', async () => {
    const s = await server(() => {
      /* never answers */
    });
    const { fetch, policy } = polite({ robotsHeadersTimeout: 20 });
    await denial(fetch(`${s.origin}/page`));
    expect((await policy.explain(`${s.origin}/page`)).robotsTxt.latest.failure).toMatchObject({
      kind: 'timeout',
      code: 'UND_ERR_HEADERS_TIMEOUT',
    });
  });

  it('body timeout: a server that stops dripping', async () => {
    const s = await server((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('U');
    });
    const { fetch, policy } = polite({ robotsBodyTimeout: 20 });
    await denial(fetch(`${s.origin}/page`));
    expect((await policy.explain(`${s.origin}/page`)).robotsTxt.latest.failure).toMatchObject({
      kind: 'timeout',
      code: 'UND_ERR_BODY_TIMEOUT',
    });
  });

  it('overall timeout on the injected clock: a body that drips a byte at a time', async () => {
    let drip: (() => void) | undefined;
    const s = await server((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      drip = () => res.write('#');
      drip();
    });
    const { fetch, policy, clock } = polite({ robotsTimeout: 30_000 });
    const pending = denial(fetch(`${s.origin}/page`));
    await until(() => drip !== undefined, 'robots.txt request');
    for (let second = 0; second < 31; second += 1) {
      drip?.();
      await clock.advance(1_000);
    }
    const error = await pending;
    expect(error.reason).toBe('unreachable');
    expect((await policy.explain(`${s.origin}/page`)).robotsTxt.latest.failure?.kind).toBe(
      'timeout',
    );
    expect(s.hits('/page')).toHaveLength(0);
  });

  it('garbage instead of HTTP is a network failure, not a crash', async () => {
    const sockets: Socket[] = [];
    const raw: NetServer = createServer((socket) => {
      sockets.push(socket);
      socket.end('SSH-2.0-OpenSSH\r\n\r\n');
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    defer(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          raw.close(() => resolve());
        }),
    );
    const { port } = raw.address() as AddressInfo;
    const { fetch } = polite();
    expect((await denial(fetch(`http://127.0.0.1:${port}/x`))).reason).toBe('unreachable');
  });
});
