import type { ServerResponse } from 'node:http';
import { interceptors, request } from 'undici';
import type { Dispatcher } from 'undici';
import { describe, expect, it } from 'vitest';
import { isRobotsDeniedError, politeInterceptor } from '@polite-crawler/fetch';
import type { RobotsPolicyOptions } from '@polite-crawler/fetch';
import { USER_AGENT, localAgent, useRigs } from '../fetch/helpers/setup.js';
import { FakeClock, tick, until } from '../fetch/helpers/fake-clock.js';

const { server, defer } = useRigs();

/**
 * An Agent composed with the interceptor (and undici's redirect interceptor outside it);
 * `inside`: interceptors between the Agent and the polite one.
 */
function politeAgent(
  options: Partial<RobotsPolicyOptions> = {},
  inside: Dispatcher.DispatcherComposeInterceptor[] = [],
) {
  const clock = new FakeClock();
  const agent = localAgent();
  const polite = politeInterceptor({
    userAgent: USER_AGENT,
    minInterval: 0,
    dispatcher: agent,
    clock,
    ...options,
  });
  const dispatcher = agent.compose(
    ...inside,
    polite,
    interceptors.redirect({ maxRedirections: 5 }),
  );
  defer(
    () => agent.close(),
    () => polite.close(),
  );
  return { polite, dispatcher, clock };
}

const ROBOTS = 'User-agent: *\nDisallow: /private\n';

const pages = (seen: readonly { path: string }[]): string[] =>
  seen.map((x) => x.path).filter((path) => path !== '/robots.txt');

describe('politeInterceptor with undici.request', () => {
  it('an allowed request goes out with the policy’s User-Agent; the caller reads the directives from the policy', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end(ROBOTS);
      else res.writeHead(200, { 'x-robots-tag': 'noindex' }).end('page');
    });
    const { polite, dispatcher } = politeAgent();
    const { statusCode, headers, body } = await request(`${s.origin}/page`, {
      dispatcher,
      headers: { 'User-Agent': 'Other/1.0', accept: 'text/plain' },
    });
    expect(statusCode).toBe(200);
    expect(await body.text()).toBe('page');
    expect(polite.policy.directives(headers).noindex).toBe(true);
    const seen = s.hits('/page')[0]!;
    expect(seen.headers['user-agent']).toBe(USER_AGENT);
    expect(seen.headers.accept).toBe('text/plain');
    expect(s.hits('/robots.txt')).toHaveLength(1);
  });

  it('directives from the policy are at its clock: an unavailable_after that has passed is noindex', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end(ROBOTS);
      else
        res
          .writeHead(200, {
            'x-robots-tag': 'unavailable_after: 2025-06-01',
            'cache-control': 'no-cache',
          })
          .end('page');
    });
    const { polite, dispatcher, clock } = politeAgent();
    const { headers, body } = await request(`${s.origin}/page`, { dispatcher });
    await body.text();
    expect(polite.policy.directives(headers)).toMatchObject({
      noindex: false,
      freshness: { source: 'no-cache' },
    });
    await clock.advance(200 * 86_400_000); // FakeClock starts at 2025-01-01
    expect(polite.policy.directives(headers)).toMatchObject({
      noindex: true,
      noindexReason: 'unavailable_after',
    });
  });

  it('a disallowed URL fails with RobotsDeniedError; nothing is sent to it', async () => {
    const s = await server((req, res) => res.end(req.url === '/robots.txt' ? ROBOTS : 'x'));
    const { dispatcher } = politeAgent();
    const error = await request(`${s.origin}/private/a`, { dispatcher }).catch((e: unknown) => e);
    expect(isRobotsDeniedError(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'disallowed', line: 2 });
    expect(pages(s.seen)).toEqual([]);
  });

  it('each redirect hop is gated: a hop to a disallowed URL is never requested', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end(ROBOTS);
      else if (req.url === '/hop') res.writeHead(302, { location: '/ok' }).end();
      else if (req.url === '/ok') res.writeHead(301, { location: '/private/x' }).end();
      else res.end('never');
    });
    const { dispatcher } = politeAgent();
    const error = await request(`${s.origin}/hop`, { dispatcher }).catch((e: unknown) => e);
    expect(isRobotsDeniedError(error)).toBe(true);
    expect(pages(s.seen)).toEqual(['/hop', '/ok']);
  });

  it('concurrency counts a request until its body has ended: a slow body holds the slot', async () => {
    const open: ServerResponse[] = [];
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') {
        res.end('');
        return;
      }
      // Headers and part of the body now, the rest when the test says so.
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start;');
      open.push(res);
    });
    const { dispatcher } = politeAgent({ concurrency: 1 });
    const first = await request(`${s.origin}/a`, { dispatcher });
    const second = request(`${s.origin}/b`, { dispatcher });
    for (let i = 0; i < 50; i += 1) await tick();
    // The first response's headers are in, its body is not: the second has not been sent.
    expect(pages(s.seen)).toEqual(['/a']);
    const text = first.body.text();
    open.shift()!.end('end');
    expect(await text).toBe('start;end');
    await until(() => open.length === 1, 'the second request at the server');
    expect(pages(s.seen)).toEqual(['/a', '/b']);
    open.shift()!.end('end');
    expect(await (await second).body.text()).toBe('start;end');
    // The server never had two requests in progress at once.
    expect(s.maxConcurrent).toBe(1);
  });

  it('a body destroyed unread gives the slot back too', async () => {
    const open: ServerResponse[] = [];
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') return void res.end('');
      res.writeHead(200).write('partial');
      open.push(res);
    });
    const { dispatcher } = politeAgent({ concurrency: 1 });
    const first = await request(`${s.origin}/a`, { dispatcher });
    const second = request(`${s.origin}/b`, { dispatcher });
    first.body.destroy();
    await until(() => open.length === 2, 'the second request at the server');
    for (const res of open) res.end();
    await (await second).body.dump();
  });

  it('a 429 with Retry-After pauses the origin on the policy’s clock', async () => {
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('');
      else if (req.url === '/busy') res.writeHead(429, { 'retry-after': '30' }).end();
      else res.end('ok');
    });
    const { dispatcher, clock } = politeAgent();
    await (await request(`${s.origin}/busy`, { dispatcher })).body.dump();
    let done = false;
    const next = request(`${s.origin}/next`, { dispatcher }).then(async (r) => {
      done = true;
      await r.body.dump();
    });
    for (let i = 0; i < 50; i += 1) await tick();
    expect(done).toBe(false);
    await clock.advance(30_000);
    await next;
    expect(pages(s.seen)).toEqual(['/busy', '/next']);
  });

  it('a dispatcher that throws fails that request, gives its slot back, and crashes nothing', async () => {
    const s = await server((req, res) => res.end(req.url === '/robots.txt' ? '' : 'page'));
    const boom = new Error('the dispatcher refused it');
    const throwsOnBoom: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
      if (opts.path === '/boom') throw boom;
      return dispatch(opts, handler);
    };
    const { dispatcher } = politeAgent({ concurrency: 1 }, [throwsOnBoom]);
    await expect(request(`${s.origin}/boom`, { dispatcher })).rejects.toBe(boom);
    // With concurrency 1, the next request goes out only if the slot came back.
    const { body } = await request(`${s.origin}/next`, { dispatcher });
    expect(await body.text()).toBe('page');
    expect(pages(s.seen)).toEqual(['/next']);
  });

  it('takes a shared policy, not policy options beside it', () => {
    const { polite } = politeAgent();
    expect(politeInterceptor({ policy: polite.policy }).policy).toBe(polite.policy);
    expect(() =>
      politeInterceptor({ policy: polite.policy, minInterval: 5 } as never),
    ).toThrowError(/either a policy or policy options/);
  });
});
