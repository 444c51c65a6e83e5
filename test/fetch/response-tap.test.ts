import { describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import type { Dispatcher } from 'undici';
import { scanRobotsMeta } from '@polite-crawler/robots-tag';
import { tapResponse, tapSettings } from '../../packages/fetch/src/transport/response-tap.js';
import type { TapRecord } from '../../packages/fetch/src/transport/response-tap.js';

const PRODUCT_TOKEN = 'ExampleBot';
const SETTINGS = tapSettings({ productToken: PRODUCT_TOKEN, scanMeta: true, maxHeadBytes: 65_536 });
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** undici's classic handler API, which undici's fetch uses and the tap implements. */
interface ClassicHandler {
  onConnect(abort: () => void): void;
  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean;
  onData(chunk: Buffer): boolean;
  onComplete(trailers: string[] | null): void;
}

interface Replayed {
  readonly record: TapRecord;
  /** What the handler behind the tap received, in order. */
  readonly events: string[];
  readonly body: Buffer;
}

/**
 * Plays one response through the real tap, as undici's classic handler API delivers it:
 * `rawHeaders` as Buffers, then `chunks` exactly as split here (the network's part, scripted so
 * that chunk boundaries are known).
 */
function replay(rawHeaders: string[], chunks: readonly Buffer[], settings = SETTINGS): Replayed {
  const events: string[] = [];
  const received: Buffer[] = [];
  const handler = {
    onConnect: (): void => {},
    onHeaders: (status: number): boolean => {
      events.push(`headers ${status}`);
      return true;
    },
    onData: (chunk: Buffer): boolean => {
      events.push('data');
      received.push(chunk);
      return true;
    },
    onComplete: (): void => {
      events.push('complete');
    },
    onError: (error: Error): void => {
      events.push(`error ${error.message}`);
    },
  };
  const record = playThroughTap(rawHeaders, chunks, handler, settings);
  return { record, events, body: Buffer.concat(received) };
}

/**
 * Plays the response to `handler` through the real tap; returns what the tap recorded. undici's
 * abort does nothing here, as for a request that has completed.
 */
function playThroughTap(
  rawHeaders: string[],
  chunks: readonly Buffer[],
  handler: object,
  settings = SETTINGS,
): TapRecord {
  const record: TapRecord = { headers: undefined, meta: undefined };
  const network = {
    dispatch(_options: unknown, tapped: ClassicHandler): boolean {
      tapped.onConnect(() => {});
      tapped.onHeaders(
        200,
        rawHeaders.map((part) => Buffer.from(part, 'latin1')),
        () => {},
        'OK',
      );
      for (const chunk of chunks) tapped.onData(chunk);
      tapped.onComplete(null);
      return true;
    },
  };
  const dispatcher = tapResponse(network as unknown as Dispatcher, settings, record);
  dispatcher.dispatch({ method: 'GET', path: '/' }, handler);
  return record;
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

  /** Settles once the handler has seen `last` (a gzip body is released from zlib's events). */
  const until = async (events: string[], last: RegExp): Promise<void> => {
    for (let i = 0; i < 200 && !events.some((event) => last.test(event)); i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  it('classic API: an abort in onHeaders, or a throw in onData, ends it with onError and nothing escapes', async () => {
    for (const fails of ['abort', 'throw'] as const) {
      const events: string[] = [];
      let abort: ((error?: Error) => void) | undefined;
      const handler = {
        onConnect: (given: (error?: Error) => void): void => {
          abort = given;
        },
        onHeaders: (): boolean => {
          events.push('headers');
          if (fails === 'abort') abort!(new Error('refused'));
          return true;
        },
        onData: (): boolean => {
          events.push('data');
          if (fails === 'throw') throw new Error('broken');
          return true;
        },
        onComplete: (): void => {
          events.push('complete');
        },
        onError: (error: Error): void => {
          events.push(`error ${error.message}`);
        },
      };
      playThroughTap(GZIP_HTML, [PAGE], handler);
      await until(events, /^error|^complete/);
      expect(events, fails).toEqual(
        fails === 'abort' ? ['headers', 'error refused'] : ['headers', 'data', 'error broken'],
      );
    }
  });

  it('controller API: an abort in onResponseStart ends it with onResponseError, without data', async () => {
    const events: string[] = [];
    const controller = {
      aborted: false,
      paused: false,
      reason: null as Error | null,
      abort(reason: Error): void {
        this.aborted = true;
        this.reason = reason;
      },
      pause(): void {},
      resume(): void {},
    };
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
    const network = {
      dispatch(_options: unknown, tapped: Dispatcher.DispatchHandler): boolean {
        const given = controller as unknown as Parameters<
          NonNullable<typeof tapped.onRequestStart>
        >[0];
        tapped.onRequestStart!(given, {});
        tapped.onResponseStart!(
          given,
          200,
          { 'content-type': 'text/html', 'content-encoding': 'gzip' },
          'OK',
        );
        tapped.onResponseData!(given, PAGE);
        tapped.onResponseEnd!(given, {});
        return true;
      },
    };
    const record: TapRecord = { headers: undefined, meta: undefined };
    tapResponse(network as unknown as Dispatcher, SETTINGS, record).dispatch(
      { method: 'GET', path: '/' },
      handler,
    );
    await until(events, /^error|^end/);
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
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

  /**
   * Dispatches through the tap to `network`, waits for the handler's `last` event, and checks
   * that undici was paused once and resumed, the meta was read, and the body came through.
   */
  const expectDrained = async (
    network: object,
    handler: object,
    seen: { events: string[]; received: Buffer[]; last: string },
  ): Promise<void> => {
    const record: TapRecord = { headers: undefined, meta: undefined };
    tapResponse(network as unknown as Dispatcher, SMALL, record).dispatch(
      { method: 'GET', path: '/' },
      handler,
    );
    for (let i = 0; i < 200 && !seen.events.includes(seen.last); i++) await settle();
    expect(seen.events).toEqual(['pause', 'resume', seen.last]);
    expect(ruleNames(record.meta)).toEqual(['* noindex']);
    expect(Buffer.concat(seen.received).equals(body)).toBe(true);
  };

  it('classic API: onData answers false at the cap, and the tap resumes undici after the replay', async () => {
    const events: string[] = [];
    const received: Buffer[] = [];
    let resumed: (() => void) | undefined;
    const handler = {
      onConnect: (): void => {},
      onHeaders: (): boolean => true,
      onData: (chunk: Buffer): boolean => {
        received.push(chunk);
        return true;
      },
      onComplete: (): void => {
        events.push('complete');
      },
      onError: (error: Error): void => {
        events.push(`error ${error.message}`);
      },
    };
    const network = {
      dispatch(_options: unknown, tapped: ClassicHandler): boolean {
        void (async () => {
          tapped.onConnect(() => {});
          const raw = ['Content-Type', 'text/html', 'Content-Encoding', 'gzip'];
          tapped.onHeaders(
            200,
            raw.map((part) => Buffer.from(part)),
            () => resumed?.(),
            'OK',
          );
          for (const chunk of chunks) {
            if (!tapped.onData(chunk)) {
              events.push('pause');
              await new Promise<void>((resolve) => (resumed = resolve));
              events.push('resume');
            }
          }
          tapped.onComplete(null);
        })();
        return true;
      },
    };
    await expectDrained(network, handler, { events, received, last: 'complete' });
  });

  it('controller API: the tap pauses the controller at the cap and resumes it after the replay', async () => {
    const events: string[] = [];
    const received: Buffer[] = [];
    let resumed: (() => void) | undefined;
    const controller = {
      aborted: false,
      paused: false,
      reason: null,
      abort(): void {},
      pause(): void {
        this.paused = true;
      },
      resume(): void {
        this.paused = false;
        resumed?.();
      },
    };
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
    const network = {
      dispatch(_options: unknown, tapped: Dispatcher.DispatchHandler): boolean {
        const given = controller as unknown as Parameters<
          NonNullable<typeof tapped.onRequestStart>
        >[0];
        void (async () => {
          tapped.onRequestStart!(given, {});
          const headers = { 'content-type': 'text/html', 'content-encoding': 'gzip' };
          tapped.onResponseStart!(given, 200, headers, 'OK');
          for (const chunk of chunks) {
            tapped.onResponseData!(given, chunk);
            if (controller.paused) {
              events.push('pause');
              await new Promise<void>((resolve) => (resumed = resolve));
              events.push('resume');
            }
          }
          tapped.onResponseEnd!(given, {});
        })();
        return true;
      },
    };
    await expectDrained(network, handler, { events, received, last: 'end' });
  });
});
