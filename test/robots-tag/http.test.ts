/**
 * Real responses from a node:http server on 127.0.0.1: repeated header lines as fetch, Node's
 * client and raw headers see them, and a body streamed in small writes to the meta scanner.
 */
import { request, createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMetaScanner,
  directivesFor,
  parseRobotsTagHeaders,
  rawHeaderPairs,
} from '@polite-crawler/robots-tag';

const HEAD =
  '<!doctype html><html><head><meta charset="utf-8"><title>Grüße</title>' +
  '<meta name="robots" content="max-snippet:20"><meta name="ExampleBot" content="noarchive"></head>';

/** Bytes of the streamed page sent before the server waits (the rest never comes). */
const HELD_AFTER = 65_536;

let server: Server;
let base: string;
/** What the server wrote for each body request: number of chunks and whether the client hung up early. */
const served: Array<{ path: string; chunksWritten: number; closedEarly: boolean }> = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/headers') {
      res.setHeader('X-Robots-Tag', ['googlebot: noindex', 'nofollow']);
      res.setHeader('Robots-Tag', '*;nosnippet, examplebot;noimageindex');
      res.end('ok');
      return;
    }
    // A page streamed in small writes: the head, then a long body, split inside "ü" too. The
    // server stops writing after HELD_AFTER bytes and waits: the rest is sent only to a client
    // that is still there. Whether a client stopped early is then seen for certain — not
    // guessed from whether 400 KB fitted in the socket buffers before it stopped (on Node 26
    // they did: the server wrote all of it before the client read its first chunk, and the
    // test saw no early close).
    const bytes = Buffer.from(
      HEAD + '<body>' + '<p>ünïcödé text</p>'.repeat(20_000) + '</body></html>',
    );
    const record = { path: req.url ?? '', chunksWritten: 0, closedEarly: false };
    served.push(record);
    res.setHeader('content-type', 'text/html; charset=utf-8');
    let at = 0;
    const pump = (): void => {
      while (at < Math.min(bytes.length, HELD_AFTER)) {
        const chunk = bytes.subarray(at, at + 37);
        at += chunk.length;
        record.chunksWritten++;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (at === bytes.length) res.end();
    };
    res.on('close', () => {
      record.closedEarly = at < bytes.length;
    });
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('headers from a real response', () => {
  it('fetch Headers joins the repeated lines: nofollow lands in googlebot’s run', async () => {
    const response = await fetch(`${base}/headers`);
    await response.text();
    const rules = parseRobotsTagHeaders(response.headers);
    expect(directivesFor(rules, 'Googlebot')).toMatchObject({
      noindex: true,
      nofollow: true,
      nosnippet: true,
    });
    expect(directivesFor(rules, 'ExampleBot')).toMatchObject({
      noindex: false,
      nofollow: false,
      nosnippet: true,
      noimageindex: true,
    });
  });

  it('raw header lines keep them apart: nofollow is for everyone', async () => {
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      request(`${base}/headers`, resolve).on('error', reject).end();
    });
    res.resume();
    const rules = parseRobotsTagHeaders(rawHeaderPairs(res.rawHeaders));
    expect(rules.rules.map((r) => [r.field, r.line, r.token, r.name])).toEqual([
      ['x-robots-tag', 1, 'googlebot', 'noindex'],
      ['x-robots-tag', 2, '*', 'nofollow'],
      ['robots-tag', 3, '*', 'nosnippet'],
      ['robots-tag', 3, 'examplebot', 'noimageindex'],
    ]);
    expect(directivesFor(rules, 'ExampleBot')).toMatchObject({ nofollow: true, noindex: false });
    // Node's own header object joins them too; an array-valued record would not.
    expect(res.headers['x-robots-tag']).toBe('googlebot: noindex, nofollow');
  });
});

describe('a streamed body', () => {
  it('reads the head’s metas and lets the caller stop reading early', async () => {
    const controller = new AbortController();
    const response = await fetch(`${base}/page`, { signal: controller.signal });
    const scanner = createMetaScanner({ productTokens: ['ExampleBot'] });
    let chunks = 0;
    for await (const chunk of response.body!) {
      chunks++;
      if (scanner.write(chunk as Uint8Array)) break;
    }
    scanner.end();
    controller.abort();
    const d = directivesFor(scanner.result(), 'ExampleBot');
    expect(d).toMatchObject({ maxSnippet: 20, noarchive: true, noindex: false });
    expect(scanner.stopReason).toBe('head-end');
    expect(scanner.bytesScanned).toBeLessThan(Buffer.byteLength(HEAD) + 70_000);
    expect(chunks).toBeGreaterThan(0);
    // The server saw the client leave: it was waiting to send the rest of the 400 KB body.
    await new Promise((resolve) => setImmediate(resolve));
    await expect.poll(() => served.at(-1)?.closedEarly, { timeout: 5_000 }).toBe(true);
  });
});
