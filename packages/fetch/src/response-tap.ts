import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';
import { createMetaScanner } from '@polite-crawler/robots-tag';
import type { MetaScanner, RobotsTagRules } from '@polite-crawler/robots-tag';

/**
 * Response header field lines the checks need, each line apart (lower-cased names).
 * @example
 * const lines: RawHeaders = { 'x-robots-tag': ['noindex', 'nofollow'] };
 */
export type RawHeaders = Readonly<Record<string, readonly string[]>>;

/**
 * What the tap saw of the final response of one request.
 * @example
 * const { headers, meta }: TapRecord = tap.record;
 */
export interface TapRecord {
  /** The interesting response header lines (fetch's `Headers` joins repeated lines with `, `). */
  headers: RawHeaders | undefined;
  /** Robots metas read from `<head>`, when the body was HTML and was scanned. */
  meta: RobotsTagRules | undefined;
}

/**
 * @example
 * tapResponse(dispatcher, { scanMeta: true, maxHeadBytes: 262_144, productToken: 'ExampleBot' } satisfies TapSettings);
 */
export interface TapSettings {
  readonly scanMeta: boolean;
  readonly maxHeadBytes: number;
  readonly productToken: string;
}

/** Header names recorded by the tap. */
const RECORDED = new Set([
  'robots-tag',
  'x-robots-tag',
  'content-type',
  'content-encoding',
  'location',
  'retry-after',
]);
const NO_BODY = new Set([204, 205, 304]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DECODERS: Record<string, (() => Transform) | undefined> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * Whether a `Content-Type` names HTML (`text/html`, `application/xhtml+xml`), whose `<head>`
 * may hold robots metas.
 * @example
 * isHtml('text/html; charset=utf-8'); // true
 */
export function isHtml(contentType: string | undefined | null): boolean {
  if (contentType === undefined || contentType === null) return false;
  const semicolon = contentType.indexOf(';');
  const essence = (semicolon === -1 ? contentType : contentType.slice(0, semicolon))
    .trim()
    .toLowerCase();
  return essence === 'text/html' || essence === 'application/xhtml+xml';
}

/** A decoder chain for `Content-Encoding`, or `null` when a coding is unknown. */
function decodersFor(contentEncoding: readonly string[] | undefined): Transform[] | null {
  if (contentEncoding === undefined) return [];
  const codings = contentEncoding
    .join(',')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity')
    .reverse();
  const chain: Transform[] = [];
  for (const coding of codings) {
    const create = DECODERS[coding];
    if (create === undefined) return null;
    chain.push(create());
  }
  for (let i = 0; i + 1 < chain.length; i += 1) chain[i]!.pipe(chain[i + 1]!);
  return chain;
}

function recordHeaders(pairs: Iterable<readonly [string, string]>): RawHeaders {
  const headers: Record<string, string[]> = {};
  for (const [name, value] of pairs) {
    if (!RECORDED.has(name)) continue;
    (headers[name] ??= []).push(value);
  }
  return headers;
}

/** Lengths of the recorded names: most header names are skipped without being decoded. */
const RECORDED_LENGTHS = new Set([...RECORDED].map((name) => name.length));

function recordRawHeaders(rawHeaders: readonly (Buffer | Buffer[] | string)[]): RawHeaders {
  const headers: Record<string, string[]> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const rawName = rawHeaders[i]!;
    if (!RECORDED_LENGTHS.has(rawName.length)) continue;
    const name = rawName.toString().toLowerCase();
    if (!RECORDED.has(name)) continue;
    const value = rawHeaders[i + 1]!;
    const lines = (headers[name] ??= []);
    if (Array.isArray(value)) for (const item of value) lines.push(item.toString('latin1'));
    else lines.push(value.toString('latin1'));
  }
  return headers;
}

function* objectPairs(
  headers: Record<string, string | string[] | undefined>,
): Generator<[string, string]> {
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const item of value) yield [name.toLowerCase(), item];
    else yield [name.toLowerCase(), value];
  }
}

/**
 * Holds a response's body chunks while its `<head>` is scanned, then passes everything on.
 * Bounded: releases once the head is over, or `maxHeadBytes` have arrived (compressed) or been
 * decoded, or the body ends, whichever comes first.
 */
class HeadScan {
  readonly #chunks: Buffer[] = [];
  readonly #scanner: MetaScanner;
  readonly #decoders: Transform[];
  readonly #maxHeadBytes: number;
  readonly #onRelease: (chunks: Buffer[], meta: RobotsTagRules | undefined, ended: boolean) => void;
  #rawBytes = 0;
  #ended = false;
  #failed = false;
  #done = false;

  constructor(
    settings: TapSettings,
    decoders: Transform[],
    onRelease: (chunks: Buffer[], meta: RobotsTagRules | undefined, ended: boolean) => void,
  ) {
    this.#maxHeadBytes = settings.maxHeadBytes;
    this.#scanner = createMetaScanner({
      maxHeadBytes: settings.maxHeadBytes,
      productTokens: [settings.productToken],
    });
    this.#decoders = decoders;
    this.#onRelease = onRelease;
    const last = decoders.at(-1);
    if (last !== undefined) {
      last.on('data', (chunk: Buffer) => this.#scan(chunk));
      last.on('end', () => this.release());
      for (const decoder of decoders) {
        // A body that cannot be decoded is passed on as it is; fetch reports the error.
        decoder.on('error', () => {
          this.#failed = true;
          this.release();
        });
      }
    }
  }

  get done(): boolean {
    return this.#done;
  }

  write(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#rawBytes += chunk.byteLength;
    const first = this.#decoders[0];
    if (first === undefined) this.#scan(chunk);
    else first.write(chunk);
    if (this.#rawBytes >= this.#maxHeadBytes) this.release();
  }

  end(): void {
    this.#ended = true;
    const first = this.#decoders[0];
    if (first === undefined) this.release();
    else first.end();
  }

  /** Stops without passing anything on (the request failed). */
  abandon(): void {
    this.#done = true;
    for (const decoder of this.#decoders) decoder.destroy();
  }

  release(): void {
    if (this.#done) return;
    this.#done = true;
    for (const decoder of this.#decoders) decoder.destroy();
    this.#scanner.end();
    const chunks = this.#chunks.splice(0);
    this.#onRelease(chunks, this.#failed ? undefined : this.#scanner.result(), this.#ended);
  }

  #scan(chunk: Buffer): void {
    if (!this.#done && this.#scanner.write(chunk)) this.release();
  }
}

function wantsScan(
  settings: TapSettings,
  method: string,
  statusCode: number,
  headers: RawHeaders,
): boolean {
  return (
    settings.scanMeta &&
    method !== 'HEAD' &&
    !NO_BODY.has(statusCode) &&
    !(REDIRECTS.has(statusCode) && headers.location !== undefined) &&
    isHtml(headers['content-type']?.[0])
  );
}

type LegacyHandler = {
  onConnect?(abort: (error?: Error) => void, context?: unknown): void;
  onResponseStarted?(): void;
  onHeaders?(
    statusCode: number,
    rawHeaders: Buffer[],
    resume: () => void,
    statusText: string,
  ): boolean;
  onData?(chunk: Buffer): boolean;
  onComplete?(trailers: string[] | null): void;
  onError?(error: Error): void;
  onUpgrade?(statusCode: number, headers: Buffer[] | string[] | null, socket: unknown): void;
  onBodySent?(chunkSize: number, totalBytesSent: number): void;
  onRequestSent?(): void;
};

/** Tap for handlers of undici's classic callback API (what undici's fetch uses). */
class LegacyTap implements LegacyHandler {
  readonly #handler: LegacyHandler;
  readonly #record: TapRecord;
  readonly #settings: TapSettings;
  readonly #method: string;
  #scan: HeadScan | undefined;
  #completeWith: { trailers: string[] | null } | undefined;

  constructor(handler: LegacyHandler, record: TapRecord, settings: TapSettings, method: string) {
    this.#handler = handler;
    this.#record = record;
    this.#settings = settings;
    this.#method = method;
  }

  onConnect(abort: (error?: Error) => void, context?: unknown): void {
    this.#handler.onConnect?.(abort, context);
  }

  onResponseStarted(): void {
    this.#handler.onResponseStarted?.();
  }

  onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: unknown): void {
    this.#handler.onUpgrade?.(statusCode, headers, socket);
  }

  onBodySent(chunkSize: number, totalBytesSent: number): void {
    this.#handler.onBodySent?.(chunkSize, totalBytesSent);
  }

  onRequestSent(): void {
    this.#handler.onRequestSent?.();
  }

  onHeaders(
    statusCode: number,
    rawHeaders: Buffer[],
    resume: () => void,
    statusText: string,
  ): boolean {
    if (statusCode < 200)
      return this.#handler.onHeaders?.(statusCode, rawHeaders, resume, statusText) ?? true;
    const headers = recordRawHeaders(rawHeaders);
    this.#record.headers = headers;
    if (wantsScan(this.#settings, this.#method, statusCode, headers)) {
      const decoders = decodersFor(headers['content-encoding']);
      if (decoders !== null) {
        this.#scan = new HeadScan(this.#settings, decoders, (chunks, meta, ended) => {
          this.#record.meta = meta;
          this.#handler.onHeaders?.(statusCode, rawHeaders, resume, statusText);
          for (const chunk of chunks) this.#handler.onData?.(chunk);
          if (ended) this.#handler.onComplete?.(this.#completeWith?.trailers ?? null);
        });
        return true;
      }
    }
    return this.#handler.onHeaders?.(statusCode, rawHeaders, resume, statusText) ?? true;
  }

  onData(chunk: Buffer): boolean {
    const scan = this.#scan;
    if (scan !== undefined && !scan.done) {
      scan.write(chunk);
      return true;
    }
    return this.#handler.onData?.(chunk) ?? true;
  }

  onComplete(trailers: string[] | null): void {
    const scan = this.#scan;
    if (scan !== undefined && !scan.done) {
      this.#completeWith = { trailers };
      scan.end();
      return;
    }
    this.#handler.onComplete?.(trailers);
  }

  onError(error: Error): void {
    this.#scan?.abandon();
    this.#handler.onError?.(error);
  }
}

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[0];
type HeaderObject = Record<string, string | string[] | undefined>;

/** Tap for handlers of undici's newer controller API. */
class ControllerTap implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #record: TapRecord;
  readonly #settings: TapSettings;
  readonly #method: string;
  #scan: HeadScan | undefined;
  #trailers: HeaderObject = {};

  constructor(
    handler: Dispatcher.DispatchHandler,
    record: TapRecord,
    settings: TapSettings,
    method: string,
  ) {
    this.#handler = handler;
    this.#record = record;
    this.#settings = settings;
    this.#method = method;
  }

  onRequestStart(controller: Controller, context: unknown): void {
    this.#handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(
    ...args: Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>
  ): void {
    this.#handler.onRequestUpgrade?.(...args);
  }

  onResponseStart(
    controller: Controller,
    statusCode: number,
    headers: HeaderObject,
    statusMessage?: string,
  ): void {
    if (statusCode >= 200) {
      const recorded = recordHeaders(objectPairs(headers));
      this.#record.headers = recorded;
      if (wantsScan(this.#settings, this.#method, statusCode, recorded)) {
        const decoders = decodersFor(recorded['content-encoding']);
        if (decoders !== null) {
          this.#scan = new HeadScan(this.#settings, decoders, (chunks, meta, ended) => {
            this.#record.meta = meta;
            this.#handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
            for (const chunk of chunks) this.#handler.onResponseData?.(controller, chunk);
            if (ended) this.#handler.onResponseEnd?.(controller, this.#trailers);
          });
          return;
        }
      }
    }
    this.#handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    const scan = this.#scan;
    if (scan !== undefined && !scan.done) scan.write(chunk);
    else this.#handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: HeaderObject): void {
    const scan = this.#scan;
    if (scan !== undefined && !scan.done) {
      this.#trailers = trailers;
      scan.end();
    } else {
      this.#handler.onResponseEnd?.(controller, trailers);
    }
  }

  onResponseError(controller: Controller, error: Error): void {
    this.#scan?.abandon();
    this.#handler.onResponseError?.(controller, error);
  }
}

/**
 * A dispatcher view of `dispatcher` that records the final response's header lines and, for
 * HTML, reads the robots metas in `<head>` *before* the response reaches fetch: body chunks
 * are held (at most `maxHeadBytes`, plus one chunk) until the head is over, then passed on
 * untouched and in order. The caller's body is the original one, byte for byte, with no copy
 * and no second stream. The underlying dispatcher (and its connection pool) is shared; the
 * view costs one small object per request.
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
  return {
    dispatcher: new TapDispatcher(dispatcher, record, settings) as unknown as Dispatcher,
    record,
  };
}

/** The per-request view: `dispatch` wraps the handler; the rest is the underlying dispatcher's. */
class TapDispatcher {
  readonly #dispatcher: Dispatcher;
  readonly #record: TapRecord;
  readonly #settings: TapSettings;

  constructor(dispatcher: Dispatcher, record: TapRecord, settings: TapSettings) {
    this.#dispatcher = dispatcher;
    this.#record = record;
    this.#settings = settings;
  }

  get isMockActive(): unknown {
    return (this.#dispatcher as { isMockActive?: unknown }).isMockActive;
  }

  dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const method = String(options.method).toUpperCase();
    const tapped =
      typeof handler.onRequestStart === 'function'
        ? new ControllerTap(handler, this.#record, this.#settings, method)
        : (new LegacyTap(
            handler,
            this.#record,
            this.#settings,
            method,
          ) as unknown as Dispatcher.DispatchHandler);
    return this.#dispatcher.dispatch(options, tapped);
  }

  close(): Promise<void> {
    return this.#dispatcher.close();
  }

  destroy(error?: Error | null): Promise<void> {
    return this.#dispatcher.destroy(error ?? null);
  }
}
