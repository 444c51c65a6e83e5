import { brotliCompressSync, createGzip, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DEFAULTS, isRobotsDeniedError } from '@polite-crawler/fetch';
import { routes } from '../helpers/recording-server.js';
import { rig, useRigs } from '../fetch/helpers/setup.js';

const { server, polite } = useRigs();

const LIMIT = DEFAULTS.robotsMaxBytes;

/** A robots.txt of exactly `size` bytes: a group, then comment padding, then `tail`. */
function robotsOfSize(size: number, tail: string): string {
  const head = 'User-agent: *\nDisallow: /early\n';
  const padding = size - head.length - tail.length;
  if (padding < 2) throw new Error('size too small');
  return `${head}#${'x'.repeat(padding - 2)}\n${tail}`;
}

describe('robots.txt byte limit', () => {
  it(`reads a body of exactly ${LIMIT} bytes whole: a rule ending at the last byte applies`, async () => {
    const body = robotsOfSize(LIMIT, 'Disallow: /late\n');
    expect(Buffer.byteLength(body)).toBe(LIMIT);
    const s = await server(routes({ '/robots.txt': { body } }));
    const { policy } = polite();
    const explanation = await policy.explain(`${s.origin}/late`);
    expect(explanation).toMatchObject({ allowed: false, reason: 'disallowed' });
    expect(explanation.robotsTxt).toMatchObject({ bytes: LIMIT, truncated: false });
  });

  it('ignores what lies past the limit: a rule starting one byte after it never applies', async () => {
    // Exactly LIMIT bytes of rules and padding, then a rule whose first byte is byte LIMIT + 1.
    const body = `${robotsOfSize(LIMIT, '')}Disallow: /late\n`;
    const s = await server(routes({ '/robots.txt': { body }, '/late': { body: 'fetched' } }));
    const { fetch, policy } = polite();
    const explanation = await policy.explain(`${s.origin}/early`);
    expect(explanation).toMatchObject({ allowed: false, reason: 'disallowed' });
    expect(explanation.robotsTxt).toMatchObject({ bytes: LIMIT, truncated: true });
    expect(await (await fetch(`${s.origin}/late`)).text()).toBe('fetched');
  });

  it('a rule ending at the limit applies when its line break is the next byte; one the limit cuts is dropped whole', async () => {
    // "Allow: /bc": at the limit it allows /bc; cut after "/b" it would allow all of /b….
    const ends = `${robotsOfSize(LIMIT, 'Disallow: /b\nAllow: /bc')}\n`;
    const cut = `${robotsOfSize(LIMIT, 'Disallow: /b\nAllow: /b')}cd\n`;
    const s = await server(routes({ '/robots.txt': { body: ends }, '/bc': { body: 'fetched' } }));
    const other = await server(routes({ '/robots.txt': { body: cut } }));
    const { fetch, policy } = polite();
    expect(await (await fetch(`${s.origin}/bc`)).text()).toBe('fetched');
    expect((await policy.explain(`${s.origin}/bc`)).robotsTxt).toMatchObject({
      bytes: LIMIT,
      truncated: true,
    });
    // Disallow: /b (line 4) decides; the cut "Allow: /b" would have tied it and won.
    expect(await policy.check(`${other.origin}/bc`)).toMatchObject({
      allowed: false,
      line: 4,
    });
  });

  it('accepts a larger robotsMaxBytes and refuses one below 500 KiB', async () => {
    const body = robotsOfSize(LIMIT + 1_000, 'Disallow: /late\n');
    const s = await server(routes({ '/robots.txt': { body } }));
    const { policy } = polite({ robotsMaxBytes: LIMIT + 1_000 });
    expect((await policy.explain(`${s.origin}/late`)).robotsTxt).toMatchObject({
      truncated: false,
      bytes: LIMIT + 1_000,
    });
    expect(() => rig({ robotsMaxBytes: LIMIT - 1 })).toThrow(/robotsMaxBytes/);
  });

  it('reads a gzip bomb (100 MB inflated) only up to the limit', async () => {
    let sentBytes = 0;
    const s = await server((req, res) => {
      if (req.url !== '/robots.txt') {
        res.end('page');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.on('data', (chunk: Buffer) => (sentBytes += chunk.length));
      gzip.pipe(res);
      gzip.write('User-agent: *\nDisallow: /bomb\n');
      const zeros = Buffer.alloc(1024 * 1024, 0x23); // '#' – one long comment line
      let written = 0;
      const pump = (): void => {
        while (written < 100) {
          written += 1;
          if (!gzip.write(zeros)) {
            gzip.once('drain', pump);
            return;
          }
        }
        gzip.end();
      };
      pump();
      res.on('close', () => gzip.destroy());
    });
    const { policy } = polite();
    const explanation = await policy.explain(`${s.origin}/bomb/x`);
    expect(explanation).toMatchObject({ allowed: false, reason: 'disallowed' });
    expect(explanation.robotsTxt).toMatchObject({ bytes: LIMIT, truncated: true });
    // The server was stopped long before it produced the whole 100 MB (about 100 KB compressed).
    expect(sentBytes).toBeLessThan(gzipSync(Buffer.alloc(100 * 1024 * 1024, 0x23)).length);
  });

  it('decompresses brotli and counts decompressed bytes', async () => {
    const text = 'User-agent: *\nDisallow: /br\n';
    const s = await server(
      routes({
        '/robots.txt': {
          headers: { 'content-encoding': 'br', 'content-type': 'text/plain' },
          body: brotliCompressSync(text),
        },
      }),
    );
    const { policy } = polite();
    const explanation = await policy.explain(`${s.origin}/br`);
    expect(explanation).toMatchObject({ allowed: false });
    expect(explanation.robotsTxt.bytes).toBe(Buffer.byteLength(text));
  });

  it('decodes what fetch decodes: deflate sent raw, gzip without its trailer, five codings', async () => {
    const text = 'User-agent: *\nDisallow: /private/\n';
    const gzip = gzipSync(text);
    const bodies = {
      'raw deflate': { coding: 'deflate', body: deflateRawSync(text) },
      'zlib deflate': { coding: 'deflate', body: deflateSync(text) },
      'gzip without its 8-byte trailer': {
        coding: 'gzip',
        body: gzip.subarray(0, gzip.length - 8),
      },
      'five codings': {
        coding: 'identity, identity, gzip, identity, identity',
        body: gzip,
      },
    };
    for (const [name, { coding, body }] of Object.entries(bodies)) {
      const s = await server(
        routes({
          '/robots.txt': { headers: { 'content-encoding': coding }, body },
          '/public': { body: 'ok' },
        }),
      );
      const { fetch, policy } = polite();
      expect((await fetch(`${s.origin}/public`)).status, name).toBe(200);
      expect(await policy.check(`${s.origin}/private/a`), name).toMatchObject({
        allowed: false,
        reason: 'disallowed',
      });
    }
  });

  it('treats a body it cannot decode (corrupt gzip, unknown coding, six codings) as unreachable', async () => {
    const s = await server(
      routes({
        '/robots.txt': { headers: { 'content-encoding': 'gzip' }, body: 'this is not gzip' },
      }),
    );
    const other = await server(
      routes({ '/robots.txt': { headers: { 'content-encoding': 'zz-unknown' }, body: 'x' } }),
    );
    // One more than fetch accepts (it bounds the work per body).
    const sixCodings = await server(
      routes({
        '/robots.txt': {
          headers: { 'content-encoding': 'identity, identity, gzip, identity, identity, identity' },
          body: gzipSync('User-agent: *\nAllow: /\n'),
        },
      }),
    );
    const { fetch } = polite();
    for (const origin of [s.origin, other.origin, sixCodings.origin]) {
      const error = await fetch(`${origin}/page`).catch((e: unknown) => e);
      expect(isRobotsDeniedError(error) && error.reason).toBe('unreachable');
    }
  });
});
