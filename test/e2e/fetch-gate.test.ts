import { describe, expect, it } from 'vitest';
import {
  isRobotsDeniedError,
  isRobotsInvalidUrlError,
  isRobotsRedirectError,
  isRobotsTooManyRedirectsError,
} from '@polite-crawler/fetch';
import type { PoliteEvent } from '@polite-crawler/fetch';
import { routes } from '../helpers/recording-server.js';
import { caught } from '../fetch/helpers/thrown.js';
import { USER_AGENT, useRigs } from '../fetch/helpers/setup.js';
import { Agent, Request as UndiciRequest } from 'undici';

const { server, polite, defer } = useRigs();

describe('the gate', () => {
  it('never sends anything to a disallowed URL and names the rule and line', async () => {
    const s = await server(
      routes({
        '/robots.txt': {
          body: '# rules\nUser-agent: examplebot\nDisallow: /no\nAllow: /no/but-yes\n',
        },
      }),
    );
    const events: PoliteEvent[] = [];
    const { fetch } = polite({ onEvent: (e) => events.push(e) });
    const error = await caught(fetch(`${s.origin}/no/thanks?q=1`, { method: 'POST', body: 'x' }));
    expect(isRobotsDeniedError(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'RobotsDeniedError',
      code: 'ERR_ROBOTS_DENIED',
      reason: 'disallowed',
      url: `${s.origin}/no/thanks?q=1`,
      origin: s.origin,
      line: 3,
      rule: { kind: 'disallow', pattern: '/no', line: 3 },
    });
    expect((error as Error).message).toBe(
      `Request denied by robots.txt: ${s.origin}/no/thanks?q=1 (disallowed by line 3 "Disallow: /no")`,
    );
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'request-denied',
        reason: 'disallowed',
        line: 3,
        url: `${s.origin}/no/thanks?q=1`,
      }),
    );
    expect(s.seen.map((x) => x.path)).toEqual(['/robots.txt']);
    expect((await fetch(`${s.origin}/no/but-yes`)).status).toBe(404);
    expect(s.seen.map((x) => x.path)).toEqual(['/robots.txt', '/no/but-yes']);
  });

  it('refuses non-http(s) URLs with a typed error', async () => {
    const { fetch } = polite();
    expect(isRobotsInvalidUrlError(await caught(fetch('ftp://example.com/file')))).toBe(true);
    expect(isRobotsInvalidUrlError(await caught(fetch('not a url')))).toBe(true);
  });

  it('takes a null init as no init, and refuses a null or odd input with a typed error', async () => {
    const s = await server(routes({ '/robots.txt': { body: '' }, '/p': { body: 'ok' } }));
    const { fetch } = polite();
    // As fetch does (WebIDL: a null dictionary is an empty one).
    expect(await (await fetch(`${s.origin}/p`, null)).text()).toBe('ok');
    for (const input of [null, undefined, 42, {}, { url: 5 }]) {
      const error = await caught(fetch(input as unknown as string));
      expect(isRobotsInvalidUrlError(error), JSON.stringify(input) ?? 'undefined').toBe(true);
    }
    // An object that is no Request but stringifies to a URL (a URL from another realm).
    const foreign = { toString: () => `${s.origin}/p` };
    expect(await (await fetch(foreign as unknown as string)).text()).toBe('ok');
  });

  it('sends its own User-Agent on pages, and keeps the caller’s headers', async () => {
    const s = await server(routes({ '/robots.txt': { body: '' }, '/p': { body: 'ok' } }));
    const { fetch } = polite();
    await fetch(`${s.origin}/p`, {
      headers: { 'user-agent': 'Sneaky/1.0', 'x-trace': 't1', cookie: 'a=b' },
    });
    const page = s.hits('/p')[0]!;
    expect(page.headers['user-agent']).toBe(USER_AGENT);
    expect(page.headers['x-trace']).toBe('t1');
    expect(page.headers.cookie).toBe('a=b');
  });

  it('accepts a Request (global or undici) as input', async () => {
    const s = await server(routes({ '/robots.txt': { body: '' }, '/p': { body: 'ok' } }));
    const { fetch } = polite();
    const fromGlobal = await fetch(
      new Request(`${s.origin}/p`, { method: 'POST', body: 'payload', headers: { 'x-a': '1' } }),
    );
    expect(fromGlobal.status).toBe(200);
    const fromUndici = await fetch(new UndiciRequest(`${s.origin}/p`, { headers: { 'x-a': '2' } }));
    expect(fromUndici.status).toBe(200);
    const [first, second] = s.hits('/p');
    expect(first).toMatchObject({ method: 'POST', body: 'payload' });
    expect(first!.headers['x-a']).toBe('1');
    expect(second).toMatchObject({ method: 'GET' });
    expect(second!.headers['x-a']).toBe('2');
  });
});

describe('robots.txt requests', () => {
  it('carry our User-Agent and never the caller’s cookies or Authorization', async () => {
    const s = await server(routes({ '/robots.txt': { body: '' }, '/p': { body: 'ok' } }));
    const { fetch } = polite();
    await fetch(`${s.origin}/p`, {
      headers: { authorization: 'Bearer secret', cookie: 'session=1' },
    });
    const robots = s.hits('/robots.txt')[0]!;
    expect(robots.headers['user-agent']).toBe(USER_AGENT);
    expect(robots.headers.authorization).toBeUndefined();
    expect(robots.headers.cookie).toBeUndefined();
    expect(s.hits('/p')[0]!.headers.authorization).toBe('Bearer secret');
  });

  it('go through the caller’s dispatcher (proxies and TLS settings apply)', async () => {
    const s = await server(routes({ '/robots.txt': { body: '' }, '/p': { body: 'ok' } }));
    const through: string[] = [];
    const agent = new Agent();
    defer(() => agent.close());
    const recording = agent.compose((dispatch) => (options, handler) => {
      through.push(`${options.method} ${options.path}`);
      return dispatch(options, handler);
    });
    const { fetch } = polite({ dispatcher: recording });
    await fetch(`${s.origin}/p`);
    expect(through).toEqual(['GET /robots.txt', 'GET /p']);
  });

  it('a per-request dispatcher carries the page request', async () => {
    const s = await server(routes({ '/robots.txt': { body: '' }, '/p': { body: 'ok' } }));
    const through: string[] = [];
    const agent = new Agent();
    defer(() => agent.close());
    const recording = agent.compose((dispatch) => (options, handler) => {
      through.push(`${options.path}`);
      return dispatch(options, handler);
    });
    const { fetch } = polite();
    await fetch(`${s.origin}/p`, { dispatcher: recording });
    expect(through).toEqual(['/p']);
  });
});

describe('page redirects', () => {
  it('follows redirects itself, gating every hop against that hop’s robots.txt', async () => {
    const other = await server(
      routes({
        '/robots.txt': { body: 'User-agent: *\nDisallow: /secret\n' },
        '/fine': { body: 'there' },
      }),
    );
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/go-fine': { status: 302, headers: { location: `http://localhost:${other.port}/fine` } },
        '/go-secret': {
          status: 301,
          headers: { location: `http://localhost:${other.port}/secret/x` },
        },
      }),
    );
    const { fetch } = polite();
    const response = await fetch(`${s.origin}/go-fine`);
    expect(await response.text()).toBe('there');
    expect(response.redirected).toBe(true);
    expect(response.url).toBe(`http://localhost:${other.port}/fine`);
    const error = await caught(fetch(`${s.origin}/go-secret`));
    expect(error).toMatchObject({
      code: 'ERR_ROBOTS_DENIED',
      reason: 'redirect-disallowed',
      url: `http://localhost:${other.port}/secret/x`,
      originalUrl: `${s.origin}/go-secret`,
      line: 2,
    });
    expect((error as Error).message).toContain('redirected from');
    expect(other.hits('/secret/x')).toHaveLength(0);
    expect(other.hits('/robots.txt')).toHaveLength(1);
  });

  it('turns POST into GET on 301/302/303 and keeps method and body on 307/308', async () => {
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/301': { status: 301, headers: { location: '/end' } },
        '/303': { status: 303, headers: { location: '/end' } },
        '/307': { status: 307, headers: { location: '/end' } },
        '/308': { status: 308, headers: { location: '/end' } },
        '/end': { body: 'end' },
      }),
    );
    const { fetch } = polite();
    for (const path of ['/301', '/303', '/307', '/308']) {
      await fetch(`${s.origin}${path}`, {
        method: 'POST',
        body: 'data',
        headers: { 'content-type': 'text/plain' },
      });
    }
    const ends = s.hits('/end');
    expect(ends.map((e) => [e.method, e.body, e.headers['content-type']])).toEqual([
      ['GET', '', undefined],
      ['GET', '', undefined],
      ['POST', 'data', 'text/plain'],
      ['POST', 'data', 'text/plain'],
    ]);
  });

  it('drops Authorization and Cookie on a cross-origin hop, keeps them same-origin', async () => {
    const other = await server(routes({ '/robots.txt': { body: '' }, '/there': { body: 'x' } }));
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/same': { status: 302, headers: { location: '/here' } },
        '/here': { body: 'y' },
        '/cross': { status: 302, headers: { location: `http://localhost:${other.port}/there` } },
      }),
    );
    const { fetch } = polite();
    const headers = { authorization: 'Basic abc', cookie: 'k=v' };
    await fetch(`${s.origin}/same`, { headers });
    await fetch(`${s.origin}/cross`, { headers });
    expect(s.hits('/here')[0]!.headers).toMatchObject({
      authorization: 'Basic abc',
      cookie: 'k=v',
    });
    expect(other.hits('/there')[0]!.headers.authorization).toBeUndefined();
    expect(other.hits('/there')[0]!.headers.cookie).toBeUndefined();
  });

  it('stops after maxRedirects (limit followed, one more refused)', async () => {
    const s = await server((req, res) => {
      const n = Number(/^\/r(\d+)$/.exec(req.url ?? '')?.[1] ?? -1);
      if (req.url === '/robots.txt') res.end('');
      else if (n >= 0 && n < 3) res.writeHead(302, { location: `/r${n + 1}` }).end();
      else res.end(`landed ${req.url}`);
    });
    const { fetch } = polite({ maxRedirects: 3 });
    expect(await (await fetch(`${s.origin}/r0`)).text()).toBe('landed /r3');
    const { fetch: strict } = polite({ maxRedirects: 2 });
    const error = await caught(strict(`${s.origin}/r0`));
    expect(isRobotsTooManyRedirectsError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'ERR_ROBOTS_TOO_MANY_REDIRECTS', maxRedirects: 2 });
    expect((error as { redirects: string[] }).redirects).toEqual([
      `${s.origin}/r1`,
      `${s.origin}/r2`,
    ]);
    expect(error).toBeInstanceOf(TypeError);
  });

  it('honours redirect: "manual" and redirect: "error"', async () => {
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/moved': { status: 301, headers: { location: '/new' } },
        '/new': { body: 'n' },
      }),
    );
    const { fetch } = polite();
    const manual = await fetch(`${s.origin}/moved`, { redirect: 'manual' });
    expect(manual.status).toBe(301);
    expect(manual.headers.get('location')).toBe('/new');
    const error = await caught(fetch(`${s.origin}/moved`, { redirect: 'error' }));
    expect(isRobotsRedirectError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'redirect-mode-error', location: '/new', status: 301 });
    expect(s.hits('/new')).toHaveLength(0);
  });

  it('refuses a redirect to a non-http(s) scheme and a streamed body on 307', async () => {
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/ftp': { status: 302, headers: { location: 'ftp://example.com/' } },
        '/307': { status: 307, headers: { location: '/end' } },
      }),
    );
    const { fetch } = polite();
    expect(await caught(fetch(`${s.origin}/ftp`))).toMatchObject({ reason: 'unsupported-scheme' });
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'));
        controller.close();
      },
    });
    expect(
      await caught(fetch(`${s.origin}/307`, { method: 'PUT', body: stream, duplex: 'half' })),
    ).toMatchObject({
      reason: 'unreplayable-body',
    });
    expect(s.hits('/end')).toHaveLength(0);
  });

  it('returns a redirect without Location as it is', async () => {
    const s = await server(
      routes({ '/robots.txt': { body: '' }, '/odd': { status: 302, body: 'no location' } }),
    );
    const { fetch } = polite();
    const response = await fetch(`${s.origin}/odd`);
    expect(response.status).toBe(302);
    expect(await response.text()).toBe('no location');
  });
});
