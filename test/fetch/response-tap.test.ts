import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { Dispatcher } from 'undici';
import { scanRobotsMeta } from '@polite-crawler/robots-tag';
import { tapInterceptor, tapSettings } from '../../packages/fetch/src/transport/response-tap.js';
import type { TapRecord } from '../../packages/fetch/src/transport/response-tap.js';

const PRODUCT_TOKEN = 'ExampleBot';
const SETTINGS = tapSettings({ productToken: PRODUCT_TOKEN, scanMeta: true, maxHeadBytes: 65_536 });
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestStart']>>[0];

/** A controller as undici hands one to a handler (its abort noted, pause/resume counted). */
function fakeController(onResume: () => void = () => {}): Controller & { paused: boolean } {
  const controller = {
    aborted: false,
    paused: false,
    reason: null as Error | null,
    abort(reason: Error): void {
      this.aborted = true;
      this.reason = reason;
    },
    pause(): void {
      this.paused = true;
    },
    resume(): void {
      this.paused = false;
      onResume();
    },
  };
  return controller;
}

/** undici's header object for raw name/value pairs: lower-cased names, repeated ones as arrays. */
function headerObject(rawHeaders: readonly string[]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    const value = rawHeaders[i + 1]!;
    const seen = headers[name];
    headers[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return headers;
}

/** Dispatches through the real tap (as an interceptor) to a scripted `network`. */
function tapped(
  network: (options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) => boolean,
  handler: Dispatcher.DispatchHandler,
  settings = SETTINGS,
): TapRecord {
  const record: TapRecord = { headers: undefined, meta: undefined };
  tapInterceptor(settings, record)(network)({ method: 'GET', path: '/' }, handler);
  return record;
}

interface Replayed {
  readonly record: TapRecord;
  /** What the handler behind the tap received, in order. */
  readonly events: string[];
  readonly body: Buffer;
}

/**
 * Plays one response through the real tap as undici's handler API delivers it: the headers,
 * then `chunks` exactly as split here (the network's part, scripted so that chunk boundaries are
 * known).
 */
function replay(rawHeaders: string[], chunks: readonly Buffer[], settings = SETTINGS): Replayed {
  const events: string[] = [];
  const received: Buffer[] = [];
  const handler: Dispatcher.DispatchHandler = {
    onResponseStart: (_controller, status) => {
      events.push(`headers ${status}`);
    },
    onResponseData: (_controller, chunk) => {
      events.push('data');
      received.push(chunk);
    },
    onResponseEnd: () => {
      events.push('complete');
    },
    onResponseError: (_controller, error) => {
      events.push(`error ${error.message}`);
    },
  };
  const record = tapped(playing(rawHeaders, chunks), handler, settings);
  return { record, events, body: Buffer.concat(received) };
}

/** A network that answers 200 with `rawHeaders` and `chunks`, synchronously. */
function playing(rawHeaders: readonly string[], chunks: readonly Buffer[]) {
  return (_options: unknown, handler: Dispatcher.DispatchHandler): boolean => {
    const controller = fakeController();
    handler.onRequestStart?.(controller, {});
    handler.onResponseStart?.(controller, 200, headerObject(rawHeaders), 'OK');
    for (const chunk of chunks) handler.onResponseData?.(controller, chunk);
    handler.onResponseEnd?.(controller, {});
    return true;
  };
}

/** Event-loop turns (zlib answers from its thread pool) until `events` has `last`; no timer. */
async function turnsUntil(events: readonly string[], last: RegExp): Promise<void> {
  for (let i = 0; i < 10_000 && !events.some((event) => last.test(event)); i++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const HTML = ['Content-Type', 'text/html; charset=utf-8'];

function split(body: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.filter((cut) => cut > 0 && cut < body.length))].sort(
    (a, b) => a - b,
  );
  const chunks: Buffer[] = [];
  let previous = 0;
  for (const point of [...points, body.length]) {
    chunks.push(body.subarray(previous, point));
    previous = point;
  }
  return chunks.filter((chunk) => chunk.length > 0);
}

const ruleNames = (rules: TapRecord['meta']): string[] =>
  (rules?.rules ?? []).map((rule) => `${rule.token} ${rule.name}`);

describe('head scan: the tap reads what a scan of the whole body reads', () => {
  const piece = fc.constantFrom(
    '<html>',
    '<head>',
    '</head>',
    '<body>',
    '<title>é</title>',
    '<title>' + 'a'.repeat(1_030) + '</title>',
    '<!--' + 'c'.repeat(2_100) + '-->',
    '<meta name="robots" content="noindex">',
    '<meta name="ExampleBot" content="nofollow, max-snippet:5">',
    '<meta name="otherbot" content="noarchive">',
    '<script>var a = "<meta name=robots content=none>";</script>',
    '<noscript><meta name="robots" content="noimageindex"></noscript>',
    ' ',
    '\n',
    'text',
    'é',
    '€',
    '😀',
    '\uFEFF',
  );
  const body = fc
    .tuple(
      fc.array(piece, { maxLength: 30 }),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 4 }),
      fc.nat(),
    )
    .map(([pieces, bytes, at]) => {
      const text = Buffer.from(pieces.join(''));
      const where = at % (text.length + 1);
      return Buffer.concat([text.subarray(0, where), Buffer.from(bytes), text.subarray(where)]);
    });

  it('for any body (ASCII or not, byte-order marks anywhere) split anywhere', () => {
    fc.assert(
      fc.property(body, fc.array(fc.nat({ max: 8_000 }), { maxLength: 8 }), (whole, cuts) => {
        const { record, body: replayed, events } = replay(HTML, split(whole, cuts));
        const expected = scanRobotsMeta(whole, {
          maxHeadBytes: SETTINGS.maxHeadBytes,
          productTokens: [PRODUCT_TOKEN],
        });
        expect(record.meta).toEqual(expected);
        expect(replayed.equals(whole)).toBe(true);
        expect(events[0]).toBe('headers 200');
        expect(events.at(-1)).toBe('complete');
      }),
      { numRuns: 2_000 },
    );
  });

  it('a byte-order mark where an ASCII first chunk ends is text in the head, as in the whole body', () => {
    const head = Buffer.from('<html><head><title>t</title>');
    const rest = Buffer.from('<meta name="robots" content="noindex"></head><body>');
    const whole = Buffer.concat([head, BOM, rest]);
    expect(ruleNames(scanRobotsMeta(whole))).toEqual([]);
    // The first chunk ends before the mark, inside it, and after it.
    for (const cut of [head.length, head.length + 1, head.length + 2, head.length + 3]) {
      const { record, body: replayed } = replay(HTML, split(whole, [cut]));
      expect(ruleNames(record.meta), `cut at ${cut}`).toEqual([]);
      expect(replayed.equals(whole)).toBe(true);
    }
  });

  it('a byte-order mark at the very start of the body is dropped, as decoding drops it', () => {
    const whole = Buffer.concat([
      BOM,
      Buffer.from('<head><meta name="robots" content="noindex"></head>'),
    ]);
    const { record } = replay(HTML, [whole]);
    expect(ruleNames(record.meta)).toEqual(['* noindex']);
  });

  it('a head past the first kilobytes, in one chunk, is read whole', () => {
    const whole = Buffer.from(
      `<html><head><title>${'t'.repeat(20_000)}</title>` +
        '<meta name="robots" content="nosnippet"></head><body>',
    );
    const { record, body: replayed } = replay(HTML, [whole]);
    expect(ruleNames(record.meta)).toEqual(['* nosnippet']);
    expect(replayed.equals(whole)).toBe(true);
  });
});

describe('header capture', () => {
  it('records the robots header lines whatever their case, each line apart', () => {
    const { record } = replay(
      [
        'X-ROBOTS-TAG',
        'noindex',
        'Date',
        'Mon, 01 Jan 2024 00:00:00 GMT',
        'x-robots-tag',
        'unavailable_after: Mon, 01 Jan 2024 00:00:00 GMT',
        'Robots-Tag',
        'examplebot: nosnippet',
        'Connection',
        'keep-alive',
        'Content-Type',
        'text/plain',
      ],
      [Buffer.from('plain')],
    );
    expect(record.headers).toEqual({
      'x-robots-tag': ['noindex', 'unavailable_after: Mon, 01 Jan 2024 00:00:00 GMT'],
      'robots-tag': ['examplebot: nosnippet'],
      // What an HTTP-date Retry-After is measured from.
      date: ['Mon, 01 Jan 2024 00:00:00 GMT'],
    });
    expect(record.meta).toBeUndefined();
  });

  it('ignores names that only look alike (same length and last letter)', () => {
    const { record } = replay(
      [
        'Robots-Taq',
        'noindex',
        'robots-tg',
        'noindex',
        'Xrobots-tag!',
        'x',
        'Content-Type',
        'text/plain',
      ],
      [],
    );
    expect(record.headers).toEqual({});
  });

  it('scans HTML named in any case, with spaces and parameters; nothing else', () => {
    const page = Buffer.from('<head><meta name="robots" content="noindex"></head><body>');
    for (const type of ['TEXT/HTML', ' text/html ; charset=utf-8', 'Application/XHTML+XML']) {
      expect(ruleNames(replay(['Content-Type', type], [page]).record.meta), type).toEqual([
        '* noindex',
      ]);
    }
    for (const type of ['text/htmlx', 'text/plain; x=text/html', 'text/ html']) {
      expect(replay(['Content-Type', type], [page]).record.meta, type).toBeUndefined();
    }
  });
});

describe('a handler that gives up while the held body is replayed to it', () => {
  const PAGE = gzipSync(
    '<head><meta name="robots" content="noindex"></head><body>' + 'b'.repeat(5_000),
  );
  const GZIP_HTML = ['Content-Type', 'text/html', 'Content-Encoding', 'gzip'];

  it('a throw in onResponseData while the held body is replayed ends it with onResponseError; nothing escapes', async () => {
    const events: string[] = [];
    const handler: Dispatcher.DispatchHandler = {
      onResponseStart: () => {
        events.push('start');
      },
      onResponseData: () => {
        events.push('data');
        throw new Error('broken');
      },
      onResponseEnd: () => {
        events.push('end');
      },
      onResponseError: (_given, error) => {
        events.push(`error ${error.message}`);
      },
    };
    tapped(playing(GZIP_HTML, [PAGE]), handler);
    await turnsUntil(events, /^error|^end/);
    expect(events).toEqual(['start', 'data', 'error broken']);
  });

  it('controller API: an abort in onResponseStart ends it with onResponseError, without data', async () => {
    const events: string[] = [];
    const controller = fakeController();
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: () => {},
      onResponseStart: (given) => {
        events.push('start');
        given.abort(new Error('refused'));
      },
      onResponseData: () => {
        events.push('data');
      },
      onResponseEnd: () => {
        events.push('end');
      },
      onResponseError: (_given, error) => {
        events.push(`error ${error.message}`);
      },
    };
    const network = (_options: unknown, tap: Dispatcher.DispatchHandler): boolean => {
      tap.onRequestStart!(controller, {});
      tap.onResponseStart!(
        controller,
        200,
        { 'content-type': 'text/html', 'content-encoding': 'gzip' },
        'OK',
      );
      tap.onResponseData!(controller, PAGE);
      tap.onResponseEnd!(controller, {});
      return true;
    };
    const record = tapped(network, handler);
    await turnsUntil(events, /^error|^end/);
    expect(events).toEqual(['start', 'error refused']);
    expect(ruleNames(record.meta)).toEqual(['* noindex']);
  });
});

describe('compressed bytes at maxHeadBytes: undici paused while the decoders drain', () => {
  const SMALL = tapSettings({ productToken: PRODUCT_TOKEN, scanMeta: true, maxHeadBytes: 1_024 });
  // Incompressible after the meta: the compressed bytes reach the cap in the first chunks.
  const body = gzipSync(
    `<head><meta name="robots" content="noindex"><title>${randomBytes(60_000).toString('base64')}</title></head>`,
  );
  const chunks = Array.from({ length: Math.ceil(body.length / 4_096) }, (_, i) =>
    body.subarray(i * 4_096, (i + 1) * 4_096),
  );
  it('the tap pauses the controller at the cap and resumes it after the replay', async () => {
    const events: string[] = [];
    const received: Buffer[] = [];
    let resumed: (() => void) | undefined;
    const controller = fakeController(() => resumed?.());
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart: () => {},
      onResponseStart: () => {},
      onResponseData: (_given, chunk) => {
        received.push(chunk);
      },
      onResponseEnd: () => {
        events.push('end');
      },
      onResponseError: (_given, error) => {
        events.push(`error ${error.message}`);
      },
    };
    const network = (_options: unknown, tap: Dispatcher.DispatchHandler): boolean => {
      void (async () => {
        tap.onRequestStart!(controller, {});
        const headers = { 'content-type': 'text/html', 'content-encoding': 'gzip' };
        tap.onResponseStart!(controller, 200, headers, 'OK');
        for (const chunk of chunks) {
          tap.onResponseData!(controller, chunk);
          if (controller.paused) {
            events.push('pause');
            await new Promise<void>((resolve) => (resumed = resolve));
            events.push('resume');
          }
        }
        tap.onResponseEnd!(controller, {});
      })();
      return true;
    };
    const record = tapped(network, handler, SMALL);
    await turnsUntil(events, /^end|^error/);
    expect(events).toEqual(['pause', 'resume', 'end']);
    expect(ruleNames(record.meta)).toEqual(['* noindex']);
    expect(Buffer.concat(received).equals(body)).toBe(true);
  });
});
