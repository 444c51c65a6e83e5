import { gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ageHeader,
  cacheControlMaxAge,
  classifyNetworkError,
  statusOutcome,
} from '../../packages/fetch/src/robots/robots-fetcher.js';
import { decodedBody, readCapped } from '../../packages/fetch/src/transport/body-reader.js';
import { parseRetryAfter } from '../../packages/fetch/src/pacing/retry-after.js';

describe('statusOutcome (RFC 9309 §2.3.1)', () => {
  const table: [number, boolean, string][] = [
    [200, true, 'ok'],
    [204, true, 'ok'],
    [299, true, 'ok'],
    [300, true, 'unavailable'],
    [304, true, 'unavailable'],
    [400, true, 'unavailable'],
    [401, true, 'unavailable'],
    [403, true, 'unavailable'],
    [404, true, 'unavailable'],
    [410, true, 'unavailable'],
    [429, true, 'unreachable'],
    [429, false, 'unavailable'],
    [499, true, 'unavailable'],
    [500, true, 'unreachable'],
    [502, true, 'unreachable'],
    [503, false, 'unreachable'],
    [599, true, 'unreachable'],
    [600, true, 'unreachable'],
  ];
  for (const [status, treat429, expected] of table) {
    it(`${status}${treat429 ? '' : ' (429 as 4xx)'} → ${expected}`, () => {
      expect(statusOutcome(status, treat429)).toBe(expected);
    });
  }
});

describe('ageHeader', () => {
  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    [['30', '40'], 30_000],
    ['-5', undefined],
    ['1.5', undefined],
    ['abc', undefined],
    [undefined, undefined],
  ] as const)('%s → %s', (value, expected) => {
    expect(ageHeader(value as string | string[] | undefined)).toBe(expected);
  });
});

describe('cacheControlMaxAge', () => {
  it.each([
    ['max-age=600', 600_000],
    ['public, max-age=60', 60_000],
    ['max-age="30"', 30_000],
    ['MAX-AGE=5', 5_000],
    ['max-age=600, max-age=10', 10_000],
    ['no-cache', 0],
    ['max-age=100, no-store', 0],
    ['private', undefined],
    ['max-age=abc', undefined],
  ] as const)('%s → %s', (value, expected) => {
    expect(cacheControlMaxAge(value)).toBe(expected);
  });

  it('joins repeated field lines', () => {
    expect(cacheControlMaxAge(['public', 'max-age=7'])).toBe(7_000);
    expect(cacheControlMaxAge(undefined)).toBeUndefined();
  });

  it('never throws and never returns a negative or non-finite value', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (value) => {
        const result = cacheControlMaxAge(value);
        return result === undefined || (Number.isFinite(result) && result >= 0);
      }),
    );
  });
});

describe('parseRetryAfter', () => {
  const now = Date.UTC(2025, 0, 1);
  it.each([
    ['120', 120_000],
    [' 0 ', 0],
    [new Date(now + 90_000).toUTCString(), 90_000],
    [new Date(now - 90_000).toUTCString(), 0],
    ['soon', undefined],
    ['-5', undefined],
    ['1.5', undefined],
    ['Wed, 01 Jan 2025 00:00:00', undefined],
  ] as const)('%s → %s', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it('measures an HTTP-date from the Date header when it is a valid one, else from now', () => {
    const date = (at: number): string => new Date(at).toUTCString();
    // The server's clock is 30 s behind ours: its Date says so, the pause is what it meant.
    expect(parseRetryAfter(date(now + 30_000), now, date(now - 30_000))).toBe(60_000);
    expect(parseRetryAfter(date(now - 30_000), now, date(now - 90_000))).toBe(60_000);
    expect(parseRetryAfter(date(now + 90_000), now, 'yesterday')).toBe(90_000);
    expect(parseRetryAfter(date(now + 90_000), now, 'Wed, 01 Jan 2025 00:00:00')).toBe(90_000);
    expect(parseRetryAfter(date(now + 90_000), now, date(now + 120_000))).toBe(0);
    // delta-seconds do not depend on any clock.
    expect(parseRetryAfter('120', now, date(now - 3_600_000))).toBe(120_000);
  });

  it('never throws and never returns a negative value', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 100 }), fc.string({ maxLength: 100 }), (value, date) => {
        expect(parseRetryAfter(value, now, date) ?? 0).toBeGreaterThanOrEqual(0);
        const result = parseRetryAfter(value, now);
        return result === undefined || (Number.isFinite(result) && result >= 0);
      }),
    );
  });
});

describe('classifyNetworkError', () => {
  const withCode = (code: string, cause?: unknown): Error =>
    Object.assign(new Error(code), { code, cause });
  it.each([
    ['ENOTFOUND', 'dns'],
    ['EAI_AGAIN', 'dns'],
    ['ECONNREFUSED', 'connect'],
    ['EHOSTUNREACH', 'connect'],
    ['ECONNRESET', 'reset'],
    ['UND_ERR_SOCKET', 'reset'],
    ['UND_ERR_HEADERS_TIMEOUT', 'timeout'],
    ['UND_ERR_BODY_TIMEOUT', 'timeout'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timeout'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls'],
    ['EPROTO', 'tls'],
    ['ESOMETHING', 'network'],
  ] as const)('%s → %s', (code, kind) => {
    expect(classifyNetworkError(withCode(code)).kind).toBe(kind);
  });

  it('looks through the cause chain (fetch wraps errors)', () => {
    const wrapped = new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') });
    expect(classifyNetworkError(wrapped)).toMatchObject({ kind: 'connect', code: 'ECONNREFUSED' });
    expect(classifyNetworkError('weird')).toEqual({ kind: 'network', message: 'weird' });
  });
});

describe('readCapped', () => {
  const source = (...chunks: string[]): Readable =>
    Readable.from(chunks.map((c) => Buffer.from(c)));

  it('reads a body of exactly the cap whole, not truncated', async () => {
    const { bytes, truncated } = await readCapped(source('abc', 'de'), 5);
    expect(Buffer.from(bytes).toString()).toBe('abcde');
    expect(truncated).toBe(false);
  });

  it('cuts a body one byte over the cap and says so', async () => {
    const { bytes, truncated } = await readCapped(source('abc', 'def'), 5);
    expect(Buffer.from(bytes).toString()).toBe('abcde');
    expect(truncated).toBe(true);
  });

  it('stops reading at the cap (the rest is never pulled)', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled += 1;
        this.push(Buffer.alloc(1_000, 0x61));
      },
    });
    const { bytes, truncated } = await readCapped(endless, 10_000);
    expect(bytes.byteLength).toBe(10_000);
    expect(truncated).toBe(true);
    expect(pulled).toBeLessThan(40);
  });

  it('reads a null body (a body-less response) as empty, not truncated', async () => {
    expect(await readCapped(null, 5)).toEqual({ bytes: new Uint8Array(0), truncated: false });
  });

  it('with a cap of 0 reads nothing and tells whether there was a body', async () => {
    expect(await readCapped(source('a'), 0)).toEqual({ bytes: new Uint8Array(0), truncated: true });
    expect(await readCapped(source(), 0)).toEqual({ bytes: new Uint8Array(0), truncated: false });
  });

  it('cancels a web stream (a fetch body) at the cap', async () => {
    let cancelled = false;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(100).fill(0x62));
      },
      cancel() {
        cancelled = true;
      },
    });
    const { bytes, truncated } = await readCapped(body, 250);
    expect(bytes.byteLength).toBe(250);
    expect(truncated).toBe(true);
    expect(cancelled).toBe(true);
    expect(pulled).toBeLessThan(10);
  });

  it('counts decompressed bytes', async () => {
    const body = Readable.from([gzipSync(Buffer.alloc(1_000_000, 0x23))]);
    const { bytes, truncated } = await readCapped(decodedBody(body, 'gzip'), 1_000);
    expect(bytes.byteLength).toBe(1_000);
    expect(truncated).toBe(true);
  });

  it('refuses a coding it cannot undo', () => {
    expect(() => decodedBody(Readable.from([]), 'compress')).toThrow(
      /unsupported content-encoding/,
    );
    expect(decodedBody(Readable.from([]), 'identity')).toBeInstanceOf(Readable);
  });
});
