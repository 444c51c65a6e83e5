import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { createMetaScanner } from '@polite-crawler/robots-tag';
import type { MetaScanner, RobotsTagRules } from '@polite-crawler/robots-tag';

/** Response headers as undici parsed them: repeated field lines stay separate (arrays). */
export type RawHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

/** What the tap saw of the final response of one request. */
export interface TapRecord {
  /** The response headers, each field line apart (fetch's `Headers` joins them with `, `). */
  headers: RawHeaders | undefined;
  /** Robots metas read from `<head>`, when the body was HTML and was scanned. */
  meta: RobotsTagRules | undefined;
}

export interface TapSettings {
  readonly scanMeta: boolean;
  readonly maxHeadBytes: number;
  readonly productToken: string;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const NO_BODY = new Set([204, 205, 304]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DECODERS: Record<string, (() => Transform) | undefined> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

function single(value: string | readonly string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : value?.join(', ');
}

/**
 * Whether a `Content-Type` names HTML (`text/html`, `application/xhtml+xml`), whose `<head>`
 * may hold robots metas.
 * @example
 * isHtml('text/html; charset=utf-8'); // true
 */
export function isHtml(contentType: string | undefined | null): boolean {
  if (contentType === undefined || contentType === null) return false;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return HTML_TYPES.has(essence);
}

/** A decoder chain for `Content-Encoding`, or `null` when a coding is unknown. */
function decoderFor(contentEncoding: string | undefined): Transform[] | null {
  if (contentEncoding === undefined) return [];
  const chain: Transform[] = [];
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  for (const coding of codings) {
    const create = DECODERS[coding];
    if (create === undefined) return null;
    chain.push(create());
  }
  for (let i = 0; i + 1 < chain.length; i += 1) chain[i]!.pipe(chain[i + 1]!);
  return chain;
}

/**
 * `dispatcher`, composed with an interceptor that records the final response's raw headers
 * and, for HTML, reads the robots metas in `<head>` *before* the response is handed to fetch:
 * body chunks are held (at most `maxHeadBytes`, compressed or not, plus one chunk) until the
 * head is over, then passed on untouched and in order. The caller's body is therefore the
 * original one, byte for byte, with no copy and no second stream. One composed view per
 * request; the underlying dispatcher (and its connection pool) is shared.
 * @example
 * const tap = tapResponse(getGlobalDispatcher(), { scanMeta: true, maxHeadBytes: 262_144, productToken: 'ExampleBot' });
 * const response = await fetch(url, { dispatcher: tap.dispatcher });
 * tap.record.meta; // robots metas of the page
 */
export function tapResponse(
  dispatcher: Dispatcher,
  settings: TapSettings,
): { dispatcher: Dispatcher; record: TapRecord } {
  const record: TapRecord = { headers: undefined, meta: undefined };
  const composed = dispatcher.compose(
    (dispatch) => (options, handler) =>
      dispatch(options, new TapHandler(handler, record, settings, options.method === 'HEAD')),
  );
  return { dispatcher: composed, record };
}

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[0];

/** Held events while the head is being scanned. */
interface Held {
  readonly controller: Controller;
  readonly statusCode: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly statusMessage: string | undefined;
  readonly chunks: Buffer[];
  rawBytes: number;
  decodedBytes: number;
  ended: boolean;
  trailers: Record<string, string | string[] | undefined> | undefined;
  readonly scanner: MetaScanner;
  readonly decoders: Transform[];
}

class TapHandler implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #record: TapRecord;
  readonly #settings: TapSettings;
  readonly #head: boolean;
  #held: Held | undefined;
  #failed = false;

  constructor(
    handler: Dispatcher.DispatchHandler,
    record: TapRecord,
    settings: TapSettings,
    head: boolean,
  ) {
    this.#handler = handler;
    this.#record = record;
    this.#settings = settings;
    this.#head = head;
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.#handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    ...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>
  ): void {
    this.#handler.onRequestUpgrade?.(...args);
  }

  onResponseStarted(): void {
    (this.#handler as { onResponseStarted?: () => void }).onResponseStarted?.();
  }

  onResponseStart(
    controller: Controller,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
    statusMessage?: string,
  ): void {
    if (statusCode >= 200) {
      this.#record.headers = headers;
      if (this.#wantsScan(statusCode, headers)) {
        const decoders = decoderFor(single(headers['content-encoding']));
        if (decoders !== null) {
          this.#hold(controller, statusCode, headers, statusMessage, decoders);
          return;
        }
      }
    }
    this.#handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    const held = this.#held;
    if (held === undefined) {
      this.#handler.onResponseData?.(controller, chunk);
      return;
    }
    held.chunks.push(chunk);
    held.rawBytes += chunk.byteLength;
    const first = held.decoders[0];
    if (first === undefined) this.#scan(chunk);
    else first.write(chunk);
    if (this.#held !== undefined && held.rawBytes >= this.#settings.maxHeadBytes) this.#release();
  }

  onResponseEnd(
    controller: Controller,
    trailers: Record<string, string | string[] | undefined>,
  ): void {
    const held = this.#held;
    if (held === undefined) {
      this.#handler.onResponseEnd?.(controller, trailers);
      return;
    }
    held.ended = true;
    held.trailers = trailers;
    const first = held.decoders[0];
    if (first === undefined) this.#release();
    else first.end();
  }

  onResponseError(controller: Controller, error: Error): void {
    const held = this.#held;
    if (held !== undefined) {
      this.#held = undefined;
      for (const decoder of held.decoders) decoder.destroy();
    }
    this.#handler.onResponseError?.(controller, error);
  }

  #wantsScan(statusCode: number, headers: Record<string, string | string[] | undefined>): boolean {
    return (
      this.#settings.scanMeta &&
      !this.#head &&
      !NO_BODY.has(statusCode) &&
      !(REDIRECTS.has(statusCode) && headers.location !== undefined) &&
      isHtml(single(headers['content-type']))
    );
  }

  #hold(
    controller: Controller,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
    statusMessage: string | undefined,
    decoders: Transform[],
  ): void {
    const { maxHeadBytes, productToken } = this.#settings;
    const held: Held = {
      controller,
      statusCode,
      headers,
      statusMessage,
      chunks: [],
      rawBytes: 0,
      decodedBytes: 0,
      ended: false,
      trailers: undefined,
      scanner: createMetaScanner({ maxHeadBytes, productTokens: [productToken] }),
      decoders,
    };
    this.#held = held;
    const last = decoders.at(-1);
    if (last !== undefined) {
      last.on('data', (chunk: Buffer) => {
        if (this.#held !== held) return;
        held.decodedBytes += chunk.byteLength;
        this.#scan(chunk);
      });
      last.on('end', () => {
        if (this.#held === held) this.#release();
      });
      for (const decoder of decoders) {
        // A body we cannot decode is passed on as it is; fetch reports the error to the caller.
        decoder.on('error', () => {
          if (this.#held === held) {
            this.#failed = true;
            this.#release();
          }
        });
      }
    }
  }

  #scan(chunk: Buffer): void {
    const held = this.#held;
    if (held === undefined) return;
    if (held.scanner.write(chunk)) this.#release();
  }

  /** Ends the scan and passes every held event on, in order. */
  #release(): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    for (const decoder of held.decoders) decoder.destroy();
    held.scanner.end();
    this.#record.meta = this.#failed ? undefined : held.scanner.result();
    const { controller } = held;
    this.#handler.onResponseStart?.(controller, held.statusCode, held.headers, held.statusMessage);
    for (const chunk of held.chunks) this.#handler.onResponseData?.(controller, chunk);
    held.chunks.length = 0;
    if (held.ended) this.#handler.onResponseEnd?.(controller, held.trailers ?? {});
  }
}
