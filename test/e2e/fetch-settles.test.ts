/**
 * Every call settles: whatever the dispatcher, an interceptor's handler or the server does, a
 * polite fetch (and a request through politeInterceptor) resolves or rejects — with its signal
 * when it has one, else by the policy's own limits (`responseTimeout` for a page, `robotsTimeout`
 * for robots.txt), on the injected clock. Real servers, real dispatchers: a dispatcher that never
 * calls back is a real `Dispatcher` subclass that accepts requests and does nothing with them.
 */
import type { ServerResponse } from 'node:http';
import { Dispatcher, request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  DEFAULTS,
  createPoliteFetch,
  isRobotsDeniedError,
  politeInterceptor,
} from '@polite-crawler/fetch';
import { USER_AGENT, localAgent, useRigs } from '../fetch/helpers/setup.js';
import { FakeClock, until } from '../fetch/helpers/fake-clock.js';

const { server, polite, defer } = useRigs();

/** Takes every request and never calls its handler back. */
class SilentDispatcher extends Dispatcher {
  dispatched = 0;

  override dispatch(): boolean {
    this.dispatched += 1;
    return true;
  }

  override close(): Promise<void> {
    return Promise.resolve();
  }

  override destroy(): Promise<void> {
    return Promise.resolve();
  }
}

/** Settles to 'resolved' or the rejection, so a test can wait for either. */
function settled(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved',
    (error: unknown) => error,
  );
}

/** A site whose pages send their headers and an HTML head that never ends: one byte at a time. */
async function drippingSite() {
  const dripping: ServerResponse[] = [];
  const timer = setInterval(() => {
    for (const res of dripping) if (!res.destroyed) res.write(' ');
  }, 5);
  defer(() => clearInterval(timer));
  const s = await server((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200).end('User-agent: *\nAllow: /\n');
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write('<!doctype html><html><head><title>');
    dripping.push(res);
  });
  return s;
}

/** A polite fetch on the default clock (real timers), closed after the test. */
function realClockFetch(options: { responseTimeout: number; concurrency?: number }) {
  const agent = localAgent();
  const fetch = createPoliteFetch({
    userAgent: USER_AGENT,
    minInterval: 0,
    dispatcher: agent,
    ...options,
  });
  defer(async () => {
    await fetch.close();
    await agent.destroy();
  });
  return fetch;
}

const allowAll = (
  req: { url?: string | undefined },
  res: ServerResponse,
  page: (res: ServerResponse) => void,
): void => {
  if (req.url === '/robots.txt') res.writeHead(200).end('User-agent: *\nAllow: /\n');
  else page(res);
};

describe('a dispatcher that never calls back', () => {
  it('given per call: the call rejects with its signal’s reason', async () => {
    const s = await server((req, res) => allowAll(req, res, (r) => r.end('page')));
    const { fetch } = polite();
    const silent = new SilentDispatcher();
    const controller = new AbortController();
    const pending = settled(
      fetch(`${s.origin}/p`, { dispatcher: silent, signal: controller.signal }),
    );
    await until(() => silent.dispatched === 1, 'the page request dispatched');
    const why = new Error('caller gave up');
    controller.abort(why);
    expect(await pending).toBe(why);
  });

  it('given per call, no signal: the call rejects when responseTimeout has passed', async () => {
    const s = await server((req, res) => allowAll(req, res, (r) => r.end('page')));
    const clock = new FakeClock();
    const { fetch } = polite({ clock });
    const silent = new SilentDispatcher();
    let done = false;
    const pending = settled(fetch(`${s.origin}/p`, { dispatcher: silent })).finally(
      () => (done = true),
    );
    await until(() => silent.dispatched === 1, 'the page request dispatched');
    await clock.advance(DEFAULTS.responseTimeout - 1);
    expect(done).toBe(false);
    await clock.advance(1);
    const error = (await pending) as DOMException;
    expect(error.name).toBe('TimeoutError');
    expect(error.message).toMatch(/responseTimeout \(60000 ms\)/);
  });

  it('as the policy’s dispatcher: robots.txt is unreachable after robotsTimeout, the page refused', async () => {
    const clock = new FakeClock();
    const silent = new SilentDispatcher();
    const { fetch } = polite({ clock, dispatcher: silent });
    const pending = settled(fetch('http://127.0.0.1:9/p'));
    await until(() => silent.dispatched === 1, 'robots.txt dispatched');
    await clock.advance(DEFAULTS.robotsTimeout);
    const error = await pending;
    expect(isRobotsDeniedError(error)).toBe(true);
    expect((error as { reason: string }).reason).toBe('unreachable');
    expect(silent.dispatched).toBe(1);
  });

  it('under politeInterceptor: undici.request rejects with its signal’s reason, the slot is freed', async () => {
    const s = await server((req, res) => allowAll(req, res, (r) => r.end('page')));
    const agent = localAgent();
    defer(() => agent.destroy());
    // robots.txt through a working dispatcher; the page through the silent one.
    const polite = politeInterceptor({ userAgent: USER_AGENT, minInterval: 0, dispatcher: agent });
    defer(() => polite.close());
    const silent = new SilentDispatcher();
    const controller = new AbortController();
    const pending = settled(
      request(`${s.origin}/p`, { dispatcher: silent.compose(polite), signal: controller.signal }),
    );
    await until(() => silent.dispatched === 1, 'dispatched');
    const why = new Error('caller gave up');
    controller.abort(why);
    expect(await pending).toBe(why);
    // concurrency 1: the next request to the origin gets the slot.
    const next = await request(`${s.origin}/q`, { dispatcher: agent.compose(polite) });
    expect(await next.body.text()).toBe('page');
  });
});

describe('a handler that throws', () => {
  /** An interceptor (a caller's own, composed under the polite fetch's) whose handler throws. */
  const throwing =
    (at: 'onResponseStart' | 'onResponseData'): Dispatcher.DispatcherComposeInterceptor =>
    (dispatch) =>
    (options, handler) =>
      dispatch(options, {
        onRequestStart: (controller, context) => handler.onRequestStart?.(controller, context),
        onResponseStart: (controller, status, headers, message) => {
          if (at === 'onResponseStart') throw new Error(`thrown in ${at}`);
          handler.onResponseStart?.(controller, status, headers, message);
        },
        onResponseData: (controller, chunk) => {
          if (at === 'onResponseData') throw new Error(`thrown in ${at}`);
          handler.onResponseData?.(controller, chunk);
        },
        onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
        onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
      });

  for (const at of ['onResponseStart', 'onResponseData'] as const) {
    for (const type of ['text/plain', 'text/html']) {
      it(`in ${at} (${type}): the call rejects`, async () => {
        const s = await server((req, res) =>
          allowAll(req, res, (r) =>
            r.writeHead(200, { 'content-type': type }).end('<head><title>t</title></head>body'),
          ),
        );
        const { fetch } = polite();
        const agent = localAgent();
        defer(() => agent.destroy());
        const controller = new AbortController();
        const call = await fetch(`${s.origin}/p`, {
          dispatcher: agent.compose(throwing(at)),
          signal: controller.signal,
        }).then(
          (response) => response,
          (error: unknown) => error,
        );
        if (call instanceof Error) return; // the call itself rejected: settled
        // The call resolved (the throw came after the response was handed over, as with
        // undici's fetch, whose body read then waits too): the body read ends with the signal.
        const body = settled((call as Response).text());
        controller.abort(new Error('caller gave up'));
        expect(await body).toBeInstanceOf(Error);
      });
    }
  }
});

describe('a body that drips forever', () => {
  it('a Request’s own signal ends the wait for the head (the bare-GET path once dropped it)', async () => {
    const s = await drippingSite();
    const { fetch } = polite();
    const controller = new AbortController();
    const pending = settled(fetch(new Request(`${s.origin}/p`, { signal: controller.signal })));
    await s.arrived('/p');
    const why = new Error('caller gave up');
    controller.abort(why);
    expect(await pending).toBe(why);
  });

  it('init’s signal over a Request without one', async () => {
    const s = await drippingSite();
    const { fetch } = polite();
    const controller = new AbortController();
    const pending = settled(fetch(new Request(`${s.origin}/p`), { signal: controller.signal }));
    await s.arrived('/p');
    const why = new Error('caller gave up');
    controller.abort(why);
    expect(await pending).toBe(why);
  });

  it('no signal: rejects when responseTimeout has passed', async () => {
    const s = await drippingSite();
    const clock = new FakeClock();
    const { fetch } = polite({ clock, responseTimeout: 5_000 });
    const pending = settled(fetch(`${s.origin}/p`));
    await s.arrived('/p');
    await clock.until(() => clock.deadlines.includes(clock.now() + 5_000), 'the hop’s timer');
    await clock.advance(5_000);
    expect(((await pending) as DOMException).name).toBe('TimeoutError');
  });

  it('on the system clock (a plain timer): the dripping head times out, the slot is freed, the next call goes out', async () => {
    const s = await drippingSite();
    const fetch = realClockFetch({ responseTimeout: 200, concurrency: 1 });
    const error = (await settled(fetch(`${s.origin}/p`))) as DOMException;
    expect(error.name).toBe('TimeoutError');
    expect(error.message).toMatch(/responseTimeout \(200 ms\)/);
    // With concurrency 1, a slot the timed-out hop kept would hold this call for good.
    const next = settled(fetch(`${s.origin}/q`));
    await s.arrived('/q');
    expect(((await next) as DOMException).name).toBe('TimeoutError');
  });

  it('on the system clock, a dispatcher that never starts the request: rejects after responseTimeout', async () => {
    const s = await server((req, res) => allowAll(req, res, (r) => r.end('page')));
    const fetch = realClockFetch({ responseTimeout: 200 });
    const silent = new SilentDispatcher();
    const error = (await settled(fetch(`${s.origin}/p`, { dispatcher: silent }))) as DOMException;
    expect(silent.dispatched).toBe(1);
    expect(error.name).toBe('TimeoutError');
    expect(error.message).toMatch(/responseTimeout \(200 ms\)/);
  });

  it('the timer stops once the response is in: a slow body later is the caller’s to read', async () => {
    const s = await server((req, res) => allowAll(req, res, (r) => r.end('page')));
    const clock = new FakeClock();
    const { fetch } = polite({ clock, responseTimeout: 5_000 });
    const response = await fetch(`${s.origin}/p`);
    expect(clock.pending).toBe(0);
    expect(await response.text()).toBe('page');
  });
});
