/**
 * The dispatchers a polite fetch can drive, and the refusal of those it cannot. undici 8's fetch
 * drives undici 8's dispatchers and undici 7's (both take the handler API of undici 8); undici
 * 6's (Node 22's bundled one) throws when handed such a handler, and is refused as an invalid
 * `dispatcher` before anything reaches the server. Real dispatchers from real copies of undici
 * 6, 7 and 8 (the aliases `undici6` and `undici7` are development dependencies).
 */
import { Agent as HttpAgent } from 'node:http';
import * as undici8 from 'undici';
import * as undici7 from 'undici7';
import * as undici6 from 'undici6';
import { describe, expect, it } from 'vitest';
import {
  createPoliteFetch,
  isRobotsInvalidOptionError,
  politeInterceptor,
} from '@polite-crawler/fetch';
import { USER_AGENT, useRigs } from '../fetch/helpers/setup.js';

const { server, defer } = useRigs();

const PAGE = '<head><meta name="robots" content="noindex"></head><p>hello</p>';

async function site() {
  return server((req, res) => {
    if (req.url === '/robots.txt') {
      return void res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end('User-agent: *\nAllow: /\n');
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
}

interface AnyDispatcher {
  destroy(): Promise<void>;
}

/** Each dispatcher made for `origin` (Pool, Client and BalancedPool are bound to one origin). */
const DRIVABLE: [string, (origin: string) => AnyDispatcher][] = [
  ['undici 8 Agent', () => new undici8.Agent()],
  ['undici 8 Pool', (origin) => new undici8.Pool(origin)],
  ['undici 8 Client', (origin) => new undici8.Client(origin)],
  ['undici 8 RetryAgent', () => new undici8.RetryAgent(new undici8.Agent())],
  [
    'undici 8 Agent composed with redirect',
    () => new undici8.Agent().compose(undici8.interceptors.redirect({ maxRedirections: 2 })),
  ],
  ['undici 7 Agent', () => new undici7.Agent()],
  ['undici 7 Pool', (origin) => new undici7.Pool(origin)],
  ['undici 7 Client', (origin) => new undici7.Client(origin)],
  ['undici 7 BalancedPool', (origin) => new undici7.BalancedPool([origin])],
  ['undici 7 RetryAgent', () => new undici7.RetryAgent(new undici7.Agent())],
  ['undici 7 EnvHttpProxyAgent (no proxy set)', () => new undici7.EnvHttpProxyAgent()],
  [
    'undici 7 Agent composed with redirect and dns',
    () =>
      new undici7.Agent().compose(
        undici7.interceptors.redirect({ maxRedirections: 2 }),
        undici7.interceptors.dns(),
      ),
  ],
];

describe('dispatchers a polite fetch drives', () => {
  for (const [name, make] of DRIVABLE) {
    it(`${name}: as the option and per call`, async () => {
      const s = await site();
      const dispatcher = make(s.origin);
      defer(() => dispatcher.destroy());
      const politeFetch = createPoliteFetch({
        userAgent: USER_AGENT,
        minInterval: 0,
        dispatcher: dispatcher as never,
      });
      defer(() => politeFetch.close());
      const response = await politeFetch(`${s.origin}/a`);
      expect(response.status).toBe(200);
      expect(response.robots.noindex).toBe(true);
      expect(await response.text()).toBe(PAGE);
      const perCall = await politeFetch(`${s.origin}/b`, { dispatcher: dispatcher as never });
      expect(await perCall.text()).toBe(PAGE);
      expect(s.paths()).toEqual(['/robots.txt', '/a', '/b']);
      expect(s.hits('/b')[0]!.userAgent).toBe(USER_AGENT);
    });
  }
});

describe('dispatchers a polite fetch refuses, before anything is sent', () => {
  it('not a dispatcher (a node:http Agent, a plain object): at construction and per call', async () => {
    const s = await site();
    for (const value of [new HttpAgent(), {}, { dispatch: () => true }]) {
      let thrown: unknown;
      try {
        createPoliteFetch({ userAgent: USER_AGENT, dispatcher: value as never });
      } catch (error) {
        thrown = error;
      }
      expect(isRobotsInvalidOptionError(thrown)).toBe(true);
      expect((thrown as { option: string }).option).toBe('dispatcher');
    }
    const politeFetch = createPoliteFetch({ userAgent: USER_AGENT, minInterval: 0 });
    defer(() => politeFetch.close());
    const error: unknown = await politeFetch(`${s.origin}/a`, {
      dispatcher: new HttpAgent() as never,
    }).catch((e: unknown) => e);
    expect(isRobotsInvalidOptionError(error)).toBe(true);
    expect((error as { option: string }).option).toBe('dispatcher');
    expect(s.paths()).toEqual([]);
  });

  it('an undici 6 Agent as the option: nothing reaches the server, not even robots.txt', async () => {
    const s = await site();
    const agent = new undici6.Agent();
    defer(() => agent.destroy());
    const politeFetch = createPoliteFetch({
      userAgent: USER_AGENT,
      minInterval: 0,
      dispatcher: agent as never,
    });
    defer(() => politeFetch.close());
    for (const path of ['/a', '/b']) {
      const error: unknown = await politeFetch(`${s.origin}${path}`).catch((e: unknown) => e);
      expect(isRobotsInvalidOptionError(error)).toBe(true);
      expect((error as Error).message).toMatch(/^Invalid option: dispatcher \(/);
      expect((error as Error).cause).toBeInstanceOf(Error);
    }
    expect(s.paths()).toEqual([]);
  });

  it('an undici 6 Agent per call: robots.txt through the policy’s, the page never sent', async () => {
    const s = await site();
    const agent = new undici6.Agent();
    defer(() => agent.destroy());
    const politeFetch = createPoliteFetch({ userAgent: USER_AGENT, minInterval: 0 });
    defer(() => politeFetch.close());
    const error: unknown = await politeFetch(`${s.origin}/a`, {
      dispatcher: agent as never,
    }).catch((e: unknown) => e);
    expect(isRobotsInvalidOptionError(error)).toBe(true);
    expect(s.paths()).toEqual(['/robots.txt']);
  });
});

describe('politeInterceptor composed onto undici 8 and undici 7 agents', () => {
  it('undici 8: Agent.compose + request', async () => {
    const s = await site();
    const polite = politeInterceptor({ userAgent: USER_AGENT, minInterval: 0 });
    defer(() => polite.close());
    const agent = new undici8.Agent();
    defer(() => agent.destroy());
    const { statusCode, body } = await undici8.request(`${s.origin}/a`, {
      dispatcher: agent.compose(polite),
    });
    expect(statusCode).toBe(200);
    expect(await body.text()).toBe(PAGE);
    expect(s.hits('/a')[0]!.userAgent).toBe(USER_AGENT);
  });

  it('undici 7: Agent.compose + undici 7’s own request', async () => {
    const s = await site();
    const polite = politeInterceptor({ userAgent: USER_AGENT, minInterval: 0 });
    defer(() => polite.close());
    const agent = new undici7.Agent();
    defer(() => agent.destroy());
    // Typechecks against undici 7's own types: the interceptor's signature is generic.
    const { statusCode, body } = await undici7.request(`${s.origin}/a`, {
      dispatcher: agent.compose(polite),
    });
    expect(statusCode).toBe(200);
    expect(await body.text()).toBe(PAGE);
    expect(s.hits('/a')[0]!.userAgent).toBe(USER_AGENT);
    expect(s.paths()).toEqual(['/robots.txt', '/a']);
  });
});
