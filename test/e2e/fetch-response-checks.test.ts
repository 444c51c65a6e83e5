import { createHash, randomBytes } from 'node:crypto';
import { brotliCompressSync, constants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { isRobotsNoIndexError } from '@polite-crawler/fetch';
import { routes } from '../helpers/recording-server.js';
import { useRigs } from '../fetch/helpers/setup.js';
import { FakeClock, tick, until } from '../fetch/helpers/fake-clock.js';
import { caught } from '../fetch/helpers/thrown.js';

const { server, polite } = useRigs();

/** Brotli's default quality takes seconds for megabytes; the decoder does not care. */
const FAST_BROTLI = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

describe('Robots-Tag headers', () => {
  it('reads every X-Robots-Tag and Robots-Tag field line, including dates with commas', async () => {
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/doc.pdf': {
          headers: {
            'content-type': 'application/pdf',
            'x-robots-tag': [
              'noarchive',
              'unavailable_after: Wed, 01 Jan 2020 00:00:00 GMT',
              'otherbot: noindex',
            ],
            'robots-tag': 'examplebot;nosnippet',
          },
          body: '%PDF',
        },
      }),
    );
    const { fetch } = polite();
    const response = await fetch(`${s.origin}/doc.pdf`);
    // Issue 22: an unavailable_after that has passed is a noindex, with its reason.
    expect(response.robots).toMatchObject({
      noarchive: true,
      nosnippet: true,
      noindex: true,
      noindexReason: 'unavailable_after',
    });
    expect(response.robots.unavailableAfter?.toISOString()).toBe('2020-01-01T00:00:00.000Z');
    expect(await response.text()).toBe('%PDF');
  });

  it('applies rules for this crawler’s token and for everyone, not for other crawlers', async () => {
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/p': {
          headers: { 'x-robots-tag': ['googlebot: noindex', 'ExampleBot: nofollow'] },
          body: 'x',
        },
      }),
    );
    const { fetch } = polite();
    const { robots } = await fetch(`${s.origin}/p`);
    expect(robots).toMatchObject({ noindex: false, nofollow: true });
  });

  it('policy.directives() gives the same answer from header lines, for adapters', () => {
    const { policy } = polite();
    expect(policy.directives(['noindex', 'otherbot: nofollow'])).toMatchObject({
      noindex: true,
      nofollow: false,
    });
    expect(policy.directives({ 'x-robots-tag': ['examplebot: nosnippet'] })).toMatchObject({
      nosnippet: true,
    });
  });
});

describe('unavailable_after and freshness, at the policy clock', () => {
  it('a page is noindex once its unavailable_after has passed on the policy clock, not before', async () => {
    const clock = new FakeClock(Date.UTC(2029, 11, 31, 23, 59));
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/news': {
          headers: {
            'x-robots-tag': 'unavailable_after: 2030-01-01',
            'cache-control': 'max-age=60',
            // On the policy's clock: the response's age is 0.
            date: new Date(clock.now()).toUTCString(),
          },
          body: 'news',
        },
        '/meta': {
          headers: { 'content-type': 'text/html' },
          body: '<head><meta name="robots" content="unavailable_after: 2030-01-01"></head>',
        },
      }),
    );
    const { fetch, policy } = polite({ clock });
    const before = await fetch(`${s.origin}/news`);
    await before.arrayBuffer();
    expect(before.robots.noindex).toBe(false);
    expect(before.robots.noindexReason).toBeUndefined();
    expect(before.robots.freshness).toMatchObject({ source: 'max-age', lifetimeSeconds: 60 });
    expect(before.robots.freshness?.freshUntil?.getTime()).toBe(clock.now() + 60_000);
    const metaBefore = await fetch(`${s.origin}/meta`);
    await metaBefore.arrayBuffer();
    expect(metaBefore.robots.noindex).toBe(false);
    expect(metaBefore.robots.freshness).toBeUndefined();
    await clock.advance(61_000);
    const after = await fetch(`${s.origin}/news`);
    await after.arrayBuffer();
    expect(after.robots).toMatchObject({ noindex: true, noindexReason: 'unavailable_after' });
    const metaAfter = await fetch(`${s.origin}/meta`);
    await metaAfter.arrayBuffer();
    expect(metaAfter.robots).toMatchObject({ noindex: true, noindexReason: 'unavailable_after' });
    // The adapters' entry point reads at the same clock, with freshness from whole headers.
    expect(policy.directives(['unavailable_after: 2030-01-01'])).toMatchObject({
      noindex: true,
      noindexReason: 'unavailable_after',
    });
    expect(
      policy.directives(['unavailable_after: 2030-01-01'], undefined, {
        now: Date.UTC(2029, 0, 1),
      }).noindex,
    ).toBe(false);
    expect(policy.directives({ expires: 'Thu, 01 Jan 2099 00:00:00 GMT' }).freshness).toMatchObject(
      { source: 'expires' },
    );
    expect(policy.directives(['noindex']).freshness).toBeUndefined();
  });
});

describe('robots metas in HTML', () => {
  it('reads robots and product-token metas in <head>, not in <body>', async () => {
    const html =
      '<!doctype html><html><head><meta name="robots" content="noarchive">' +
      '<meta name="ExampleBot" content="nofollow"><meta name="otherbot" content="noindex"></head>' +
      '<body><meta name="robots" content="noindex">text</body></html>';
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/p': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: html },
      }),
    );
    const { fetch } = polite();
    const response = await fetch(`${s.origin}/p`);
    expect(response.robots).toMatchObject({ noarchive: true, nofollow: true, noindex: false });
    expect(response.robots.rules.map((r) => r.source)).toEqual(['meta', 'meta']);
    expect(await response.text()).toBe(html);
  });

  it('pages repeating one robots meta share its directives; headers and dates still apply per page', async () => {
    const meta = (content: string): string =>
      `<!doctype html><head><meta name="robots" content="${content}"></head><body>x</body>`;
    const html = { 'content-type': 'text/html' };
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/a': { headers: html, body: meta('nosnippet') },
        '/b': { headers: html, body: meta('nosnippet') },
        '/c': { headers: { ...html, 'x-robots-tag': 'nofollow' }, body: meta('nosnippet') },
        '/d': { headers: html, body: meta('unavailable_after: 2030-01-01') },
        '/e': { headers: html, body: meta('unavailable_after: 2030-01-01') },
        '/f': { headers: html, body: meta('noindex') },
      }),
    );
    const { fetch } = polite();
    const robots = async (path: string): Promise<Awaited<ReturnType<typeof fetch>>['robots']> => {
      const response = await fetch(`${s.origin}${path}`);
      await response.arrayBuffer();
      return response.robots;
    };
    const a = await robots('/a');
    expect(a).toMatchObject({ nosnippet: true, nofollow: false, noindex: false });
    expect(await robots('/b')).toBe(a);
    const c = await robots('/c');
    expect(c).toMatchObject({ nosnippet: true, nofollow: true });
    const d = await robots('/d');
    const e = await robots('/e');
    // A Date can be changed in place: each page gets its own.
    expect(e).not.toBe(d);
    expect(e.unavailableAfter).not.toBe(d.unavailableAfter);
    expect(e.unavailableAfter?.toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(await robots('/f')).toMatchObject({ noindex: true, nosnippet: false });
    expect(await robots('/a')).toBe(a);
  });

  it('returns a multi-megabyte page byte-for-byte and keeps status, headers and url', async () => {
    const head =
      '<html><head><meta name="robots" content="nosnippet"><title>big</title></head><body>';
    const payload = Buffer.concat([
      Buffer.from(head),
      randomBytes(6 * 1024 * 1024),
      Buffer.from('</body></html>'),
    ]);
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/big': { headers: { 'content-type': 'text/html', 'x-custom': 'kept' }, body: payload },
      }),
    );
    const { fetch } = polite();
    const response = await fetch(`${s.origin}/big#section-2`);
    expect(response.robots.nosnippet).toBe(true);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-custom')).toBe('kept');
    // As with fetch: the URL without its fragment.
    expect(response.url).toBe(`${s.origin}/big`);
    expect(response.redirected).toBe(false);
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body.byteLength).toBe(payload.byteLength);
    expect(sha(body)).toBe(sha(payload));
  });

  it('decodes gzip HTML, scans it and replays it exactly', async () => {
    const html = `<html><head><meta name="robots" content="noimageindex"></head><body>${'z'.repeat(100_000)}</body></html>`;
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/gz': {
          headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' },
          body: gzipSync(html),
        },
      }),
    );
    const { fetch } = polite();
    const response = await fetch(`${s.origin}/gz`);
    expect(response.robots.noimageindex).toBe(true);
    expect(await response.text()).toBe(html);
  });

  it('a response fetch refuses while the head is held (six content codings) rejects as undici fetch does', async () => {
    const html = '<html><head><meta name="robots" content="noindex"></head><body>x</body></html>';
    const codings = 'identity, identity, identity, identity, identity, gzip';
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        // Replayed from the decoder's event once the head is read (no exception may escape).
        '/gz': {
          headers: { 'content-type': 'text/html', 'content-encoding': codings },
          body: gzipSync(html),
        },
        '/plain': {
          headers: {
            'content-type': 'text/html',
            'content-encoding': codings.replace('gzip', 'identity'),
          },
          body: html,
        },
        '/ok': { headers: { 'content-type': 'text/html' }, body: html },
      }),
    );
    const { fetch } = polite();
    for (const path of ['/gz', '/plain']) {
      const error = (await caught(fetch(`${s.origin}${path}`))) as Error;
      expect(error).toBeInstanceOf(TypeError);
      expect((error.cause as Error).message).toMatch(/too many content-encodings/);
    }
    expect((await fetch(`${s.origin}/ok`)).robots.noindex).toBe(true);
  });

  it('hands the response over once the head is read, before the rest of the body exists', async () => {
    let sendRest: (() => void) | undefined;
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') {
        res.end('');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<html><head><meta name="robots" content="noarchive"></head><body>start ');
      sendRest = () => res.end('end</body></html>');
    });
    const { fetch } = polite();
    const response = await fetch(`${s.origin}/stream`);
    expect(response.robots.noarchive).toBe(true);
    expect(sendRest).toBeDefined();
    sendRest!();
    expect(await response.text()).toBe(
      '<html><head><meta name="robots" content="noarchive"></head><body>start end</body></html>',
    );
  });

  it('stops at maxHeadBytes for a page without </head> and still replays everything', async () => {
    const html = `<html><head><title>${'t'.repeat(300_000)}</title><meta name="robots" content="noindex">`;
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/h': { headers: { 'content-type': 'text/html' }, body: html },
      }),
    );
    const { fetch } = polite({ maxHeadBytes: 65_536 });
    const response = await fetch(`${s.origin}/h`);
    expect(response.robots.noindex).toBe(false);
    expect(await response.text()).toBe(html);
  });

  it('maxHeadBytes: a meta ending at the last byte counts, one ending a byte later does not', async () => {
    const limit = 1_024;
    const page = (padding: number): string => {
      const before = '<html><head><title>';
      const meta = '</title><meta name="robots" content="noindex">';
      return `${before}${'p'.repeat(padding)}${meta}<link rel="x"></head><body>${'b'.repeat(5_000)}</body></html>`;
    };
    const fits =
      limit -
      '<html><head><title>'.length -
      '</title><meta name="robots" content="noindex">'.length;
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/at': { headers: { 'content-type': 'text/html' }, body: page(fits) },
        '/past': { headers: { 'content-type': 'text/html' }, body: page(fits + 1) },
      }),
    );
    const { fetch } = polite({ maxHeadBytes: limit });
    const at = await fetch(`${s.origin}/at`);
    expect(at.robots.noindex).toBe(true);
    expect(await at.text()).toBe(page(fits));
    const past = await fetch(`${s.origin}/past`);
    expect(past.robots.noindex).toBe(false);
    expect(await past.text()).toBe(page(fits + 1));
  });

  it('maxHeadBytes on compressed pages: decoded bytes count, and compressed bytes at the cap are still decoded', async () => {
    const limit = 1_024;
    const meta = '<meta name="robots" content="noindex">';
    // Compressible padding: the decoded bytes reach the cap long before the compressed ones.
    const padded = (padding: number): string =>
      `<html><head><title>${'p'.repeat(padding)}</title>${meta}</head><body>${'b'.repeat(50_000)}</body></html>`;
    const fits = limit - '<html><head><title>'.length - '</title>'.length - meta.length;
    // Incompressible text after the meta: the compressed bytes reach the cap in the first
    // chunk, before zlib has decoded any of it; megabytes make undici pause and resume.
    const noisy = `<html><head>${meta}<title>${randomBytes(1_500_000).toString('base64')}</title></head><body>x</body></html>`;
    const pages = {
      '/at': padded(fits),
      '/past': padded(fits + 1),
      '/noisy': noisy,
    };
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        ...Object.fromEntries(
          Object.entries(pages).flatMap(([path, html]) => [
            [
              path,
              {
                headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' },
                body: gzipSync(html),
              },
            ],
            [
              `${path}-br`,
              {
                headers: { 'content-type': 'text/html', 'content-encoding': 'br' },
                body: brotliCompressSync(html, FAST_BROTLI),
              },
            ],
          ]),
        ),
      }),
    );
    const { fetch } = polite({ maxHeadBytes: limit });
    for (const [path, html] of Object.entries(pages)) {
      for (const variant of [path, `${path}-br`]) {
        const response = await fetch(`${s.origin}${variant}`);
        expect(response.robots.noindex, variant).toBe(path !== '/past');
        expect(sha(new Uint8Array(await response.arrayBuffer())), variant).toBe(
          sha(Buffer.from(html)),
        );
      }
    }
  });

  it('reads a UTF-16 page by its byte-order mark, as browsers do', async () => {
    const html = '<html><head><meta name="robots" content="noindex"></head><body>ü</body></html>';
    const page = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(html, 'utf16le')]);
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/utf16': { headers: { 'content-type': 'text/html' }, body: page },
      }),
    );
    const { fetch } = polite();
    const response = await fetch(`${s.origin}/utf16`);
    expect(response.robots.noindex).toBe(true);
    expect(sha(new Uint8Array(await response.arrayBuffer()))).toBe(sha(page));
  });

  it('decodes pages as fetch does: deflate sent raw, gzip without its trailer', async () => {
    const html = `<html><head><meta name="robots" content="noindex"></head><body>${'b'.repeat(9_000)}</body></html>`;
    const gzip = gzipSync(html);
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/raw': {
          headers: { 'content-type': 'text/html', 'content-encoding': 'deflate' },
          body: deflateRawSync(html),
        },
        '/zlib': {
          headers: { 'content-type': 'text/html', 'content-encoding': 'deflate' },
          body: deflateSync(html),
        },
        '/cut': {
          headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' },
          body: gzip.subarray(0, gzip.length - 8),
        },
      }),
    );
    const { fetch } = polite();
    for (const path of ['/raw', '/zlib', '/cut']) {
      const response = await fetch(`${s.origin}${path}`);
      expect(response.robots.noindex, path).toBe(true);
      expect(await response.text(), path).toBe(html);
    }
  });

  it('reads metas for text/html and application/xhtml+xml in any case and spacing, and for nothing else', async () => {
    const html = '<html><head><meta name="robots" content="noindex"></head></html>';
    const types: [string | undefined, boolean][] = [
      ['text/html', true],
      ['TEXT/HTML', true],
      ['text/html ; charset=utf-8', true],
      ['\u00a0APPLICATION/XHTML+XML\t', true],
      ['text/html x', false],
      ['text/htmlx', false],
      ['text/htm', false],
      ['application/xhtml', false],
      ['text/plain', false],
      ['', false],
      [undefined, false], // no Content-Type at all
    ];
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        ...Object.fromEntries(
          types.map(([type], i) => [
            `/p${i}`,
            { headers: type === undefined ? {} : { 'content-type': type }, body: html },
          ]),
        ),
      }),
    );
    const { fetch } = polite({ minInterval: 0 });
    for (const [i, [type, scanned]] of types.entries()) {
      const response = await fetch(`${s.origin}/p${i}`);
      expect(response.headers.has('content-type'), `/p${i}`).toBe(type !== undefined);
      expect(response.robots.noindex, JSON.stringify(type)).toBe(scanned);
      expect(await response.text()).toBe(html);
    }
  });

  it('does not scan non-HTML bodies, and returns them untouched', async () => {
    const text = '<html><head><meta name="robots" content="noindex"></head></html>';
    const binary = randomBytes(3 * 1024 * 1024);
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/t': { headers: { 'content-type': 'text/plain' }, body: text },
        '/b': { headers: { 'content-type': 'application/octet-stream' }, body: binary },
      }),
    );
    const { fetch } = polite();
    const plain = await fetch(`${s.origin}/t`);
    expect(plain.robots.noindex).toBe(false);
    expect(await plain.text()).toBe(text);
    const bin = await fetch(`${s.origin}/b`);
    expect(sha(new Uint8Array(await bin.arrayBuffer()))).toBe(sha(binary));
  });

  it('does not scan when scanMeta is false', async () => {
    const html = '<html><head><meta name="robots" content="noindex"></head></html>';
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/p': { headers: { 'content-type': 'text/html' }, body: html },
      }),
    );
    const { fetch } = polite({ scanMeta: false });
    const response = await fetch(`${s.origin}/p`);
    expect(response.robots.noindex).toBe(false);
    expect(await response.text()).toBe(html);
  });
});

describe("noindex: 'reject'", () => {
  it('rejects a page whose header says noindex and cancels its body', async () => {
    let closedEarly = false;
    const s = await server((req, res) => {
      if (req.url === '/robots.txt') {
        res.end('');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'x-robots-tag': 'noindex' });
      res.write(Buffer.alloc(64 * 1024));
      res.on('close', () => (closedEarly = !res.writableFinished));
    });
    const { fetch } = polite({ noindex: 'reject' });
    const error = await fetch(`${s.origin}/secret`).catch((e: unknown) => e);
    expect(isRobotsNoIndexError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'ERR_ROBOTS_NOINDEX',
      url: `${s.origin}/secret`,
      status: 200,
    });
    await until(() => closedEarly, 'body cancelled');
  });

  it('rejects on a meta noindex, and on an unavailable_after in the past', async () => {
    const s = await server(
      routes({
        '/robots.txt': { body: '' },
        '/meta': {
          headers: { 'content-type': 'text/html' },
          body: '<head><meta name="robots" content="none"></head>',
        },
        '/expired': { headers: { 'x-robots-tag': 'unavailable_after: 2001-01-01' }, body: 'old' },
        '/fine': {
          headers: { 'content-type': 'text/html' },
          body: '<head><meta name="robots" content="nofollow"></head>',
        },
      }),
    );
    const { fetch } = polite({ noindex: 'reject' });
    const meta = await fetch(`${s.origin}/meta`).catch((e: unknown) => e);
    expect(meta).toMatchObject({
      code: 'ERR_ROBOTS_NOINDEX',
      directives: { noindex: true, nofollow: true },
    });
    const expired = await fetch(`${s.origin}/expired`).catch((e: unknown) => e);
    expect(isRobotsNoIndexError(expired)).toBe(true);
    expect((expired as Error).message).toContain('unavailable_after');
    const fine = await fetch(`${s.origin}/fine`);
    expect(fine.robots.nofollow).toBe(true);
    for (let i = 0; i < 5; i += 1) await tick();
  });
});
