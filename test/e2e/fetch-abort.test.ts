import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isRobotsClosedError } from '@polite-crawler/fetch';
import { useRigs } from '../fetch/helpers/setup.js';
import { FakeClock, tick, until } from '../fetch/helpers/fake-clock.js';

const { server, polite } = useRigs();

const reason = (): Error => new Error('caller aborted');

describe('abort signals', () => {
  it('while waiting for robots.txt: rejects with the reason, nothing is sent to the page', async () => {
    let answerRobots: (() => void) | undefined;
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') answerRobots = () => res.end('');
      else res.end('page');
    });
    const { fetch } = polite();
    const controller = new AbortController();
    const pending = fetch(`${s.origin}/p`, { signal: controller.signal });
    await until(() => answerRobots !== undefined, 'robots.txt request');
    const why = reason();
    controller.abort(why);
    await expect(pending).rejects.toBe(why);
    answerRobots!();
    for (let i = 0; i < 50; i += 1) await tick();
    expect(s.hits('/p')).toHaveLength(0);
  });

  it('while waiting for a slot: rejects at once; the queued request is never sent', async () => {
    const held: ServerResponse[] = [];
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') res.end('');
      else held.push(res);
    });
    const { fetch } = polite({ concurrency: 1 });
    const first = fetch(`${s.origin}/first`);
    await until(() => held.length === 1, 'first request');
    const controller = new AbortController();
    const second = fetch(`${s.origin}/second`, { signal: controller.signal });
    const why = reason();
    controller.abort(why);
    await expect(second).rejects.toBe(why);
    held[0]!.end('one');
    await first;
    const third = fetch(`${s.origin}/third`);
    await until(() => held.length === 2, 'third request');
    held[1]!.end('three');
    expect((await third).status).toBe(200);
    expect(s.hits('/second')).toHaveLength(0);
  });

  it('while waiting out the spacing interval', async () => {
    const clock = new FakeClock();
    const s = await server((req, res) => res.end(''));
    const { fetch } = polite({ clock, minInterval: 5_000 });
    await fetch(`${s.origin}/a`);
    const controller = new AbortController();
    const second = fetch(`${s.origin}/b`, { signal: controller.signal });
    await until(() => clock.pending > 0, 'spacing wait');
    const why = reason();
    controller.abort(why);
    await expect(second).rejects.toBe(why);
    expect(clock.pending).toBe(0);
    await clock.advance(10_000);
    expect(s.hits('/b')).toHaveLength(0);
  });

  it('during the body: the reader rejects', async () => {
    let finish: (() => void) | undefined;
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') {
        res.end('');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write('first part;');
      finish = () => res.end('rest');
    });
    const { fetch } = polite();
    const controller = new AbortController();
    const response = await fetch(`${s.origin}/big`, { signal: controller.signal });
    const reader = response.body!.getReader();
    const chunk = await reader.read();
    expect(new TextDecoder().decode(chunk.value as Uint8Array)).toBe('first part;');
    const why = reason();
    controller.abort(why);
    await expect(reader.read()).rejects.toBe(why);
    finish?.();
  });

  it('while the HTML head is being scanned', async () => {
    let served = false;
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') {
        res.end('');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><head><title>slow');
      served = true;
    });
    const { fetch } = polite();
    const controller = new AbortController();
    const pending = fetch(`${s.origin}/page`, { signal: controller.signal });
    await until(() => served, 'head sent');
    for (let i = 0; i < 50; i += 1) await tick();
    const why = reason();
    controller.abort(why);
    await expect(pending).rejects.toBe(why);
  });

  it('an already-aborted signal rejects before anything is sent', async () => {
    const s = await server((req, res) => res.end(''));
    const { fetch, policy } = polite();
    const why = reason();
    await expect(fetch(`${s.origin}/x`, { signal: AbortSignal.abort(why) })).rejects.toBe(why);
    await expect(policy.check(`${s.origin}/x`, { signal: AbortSignal.abort(why) })).rejects.toBe(
      why,
    );
    expect(s.seen).toHaveLength(0);
  });

  it('close() rejects later calls with ERR_ROBOTS_CLOSED', async () => {
    const s = await server((req, res) => res.end(''));
    const { fetch, policy } = polite();
    await fetch.close();
    await expect(fetch(`${s.origin}/x`)).rejects.toSatisfy(isRobotsClosedError);
    await expect(policy.check(`${s.origin}/x`)).rejects.toMatchObject({
      code: 'ERR_ROBOTS_CLOSED',
    });
    expect(s.seen).toHaveLength(0);
  });

  it('close() ends an in-flight robots.txt fetch and its waiters', async () => {
    const s = await server(() => {
      /* never answers */
    });
    const { policy } = polite();
    const pending = policy.check(`${s.origin}/x`);
    await until(() => s.seen.length === 1, 'robots.txt request');
    await policy.close();
    await expect(pending).rejects.toMatchObject({ code: 'ERR_ROBOTS_CLOSED' });
  });
});
