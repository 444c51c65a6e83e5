import type { Transform } from 'node:stream';
import type { Dispatcher } from 'undici';
import { createMetaScannerFactory } from '@polite-crawler/robots-tag';
import type { MetaScanner, RobotsTagRules } from '@polite-crawler/robots-tag';
import { fetchDecoderChain } from './content-decoders.js';
import { isHtml } from './html-content-type.js';
import { upperCaseMethod } from './request-method.js';

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
  /** The header lines the checks need ({@link RECORDED}), each apart (fetch's `Headers` joins them). */
  headers: RawHeaders | undefined;
  /** Robots metas read from `<head>`, when the body was HTML and was scanned. */
  meta: RobotsTagRules | undefined;
}

/**
 * The tap's settings for one polite fetch, as {@link tapSettings} makes them.
 * @example
 * const settings: TapSettings = tapSettings({ scanMeta: true, maxHeadBytes: 262_144, productToken: 'ExampleBot' });
 */
export type TapSettings = ReturnType<typeof tapSettings>;

/**
 * The tap's settings for one polite fetch (made once, shared by every request).
 * @example
 * const settings = tapSettings({ scanMeta: true, maxHeadBytes: 262_144, productToken: 'ExampleBot' });
 */
export function tapSettings(options: {
  readonly scanMeta: boolean;
  readonly maxHeadBytes: number;
  readonly productToken: string;
}) {
  return {
    scanMeta: options.scanMeta,
    maxHeadBytes: options.maxHeadBytes,
    // A head scanner for this crawler, options validated once.
    newScanner: createMetaScannerFactory({
      maxHeadBytes: options.maxHeadBytes,
      productTokens: [options.productToken],
    }),
  } as const;
}

/** Header names recorded by the tap: the checks read these lines, each apart, and no others. */
const RECORDED = new Set([
  'robots-tag',
  'x-robots-tag',
  'content-encoding',
  'location',
  'retry-after',
  // What an HTTP-date Retry-After is measured from (the server's clock, not ours).
  'date',
  // What the page's directives and usage are read from (`pageRobots`): the freshness the
  // response declares counts its age off.
  'cache-control',
  'expires',
  'age',
  'content-usage',
]);
const NO_BODY = new Set([204, 205, 304]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** The decoders of a body sent as it is (shared; not frozen: a loop over a frozen array is slower). */
const NO_DECODERS: readonly Transform[] = [];

/**
 * Records the header lines the checks need (names lower-cased: undici's own dispatchers give
 * them so, another interceptor may not); returns the first `Content-Type`.
 */
function recordHeaders(headers: HeaderObject, record: TapRecord): string | undefined {
  const recorded: Record<string, string[]> = {};
  let contentType: string | undefined;
  for (const key of Object.keys(headers)) {
    const value = headers[key];
    if (value === undefined) continue;
    const name = key.toLowerCase();
    if (name === 'content-type') {
      contentType ??= typeof value === 'string' ? value : value[0];
    } else if (RECORDED.has(name)) {
      const lines = (recorded[name] ??= []);
      if (typeof value === 'string') lines.push(value);
      else lines.push(...value);
    }
  }
  record.headers = recorded;
  return contentType;
}

/**
 * The first piece of a body handed to the scanner; each next one is twice as big, up to
 * {@link MAX_PIECE}. Small: most heads end within it, and a long head costs only a few writes.
 */
const FIRST_PIECE = 256;
/** The scanner tokenizes at most this much per write anyway. */
const MAX_PIECE = 16_384;

/**
 * Holds a response's body chunks while its `<head>` is scanned, then passes everything on.
 * Bounded: releases once the head is over, or `maxHeadBytes` have arrived (compressed) or been
 * decoded, or the body ends, whichever comes first. The scanner is fed in pieces that start
 * small and grow: most heads end early, and the rest of the chunk is then never decoded.
 */
class HeadScan {
  /** The body chunks held, in order (emptied once passed on). */
  held: Buffer[] = [];
  readonly #scanner: MetaScanner;
  readonly #decoders: readonly Transform[];
  readonly #maxHeadBytes: number;
  readonly #owner: Tap;
  #rawBytes = 0;
  #piece = FIRST_PIECE;
  #ended = false;
  #failed = false;
  #done = false;
  /**
   * The compressed bytes reached the cap: the decoders finish what they were given and nothing
   * more goes in; the sender is asked to pause until the release.
   */
  #draining = false;

  constructor(settings: TapSettings, decoders: readonly Transform[], owner: Tap) {
    this.#maxHeadBytes = settings.maxHeadBytes;
    this.#scanner = settings.newScanner();
    this.#decoders = decoders;
    this.#owner = owner;
    const last = decoders[decoders.length - 1];
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

  /** Holds and scans `chunk`; `false` asks the sender to pause (see {@link #draining}). */
  write(chunk: Buffer): boolean {
    this.held.push(chunk);
    this.#rawBytes += chunk.byteLength;
    if (this.#draining) return false;
    const first = this.#decoders[0];
    if (first === undefined) {
      this.#scan(chunk);
      if (this.#rawBytes >= this.#maxHeadBytes) this.release();
      return true;
    }
    first.write(chunk);
    if (this.#rawBytes < this.#maxHeadBytes) return true;
    // What the bytes at the cap decode to is still on its way (zlib works off the thread):
    // the decoders are ended (lenient, so a cut stream is no error) and release at their end.
    this.#draining = true;
    first.end();
    return false;
  }

  end(): void {
    this.#ended = true;
    const first = this.#decoders[0];
    if (first === undefined) this.release();
    else if (!this.#draining) first.end();
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
    this.#owner.released(this, this.#failed ? undefined : this.#scanner.result(), this.#ended);
    this.held = [];
  }

  #scan(chunk: Buffer): void {
    if (this.#done) return;
    const { length } = chunk;
    for (let at = 0; at < length;) {
      const piece = this.#piece;
      if (piece < MAX_PIECE) this.#piece = piece * 2;
      const end = Math.min(length, at + piece);
      if (this.#scanner.write(chunk.subarray(at, end))) {
        this.release();
        return;
      }
      at = end;
    }
  }
}

/**
 * The decoders a {@link HeadScan} of this response reads its body through, connected: those
 * fetch puts it through (a coding fetch does not know, or `identity` among others, leaves it as
 * it is), so the scan reads what the caller will read. `null` when the body is not scanned:
 * scanning off, no body, a redirect, not HTML, or more codings than fetch accepts.
 */
function scanDecoders(
  settings: TapSettings,
  method: string,
  statusCode: number,
  headers: RawHeaders,
  contentType: string | undefined,
): readonly Transform[] | null {
  if (
    !settings.scanMeta ||
    method === 'HEAD' ||
    NO_BODY.has(statusCode) ||
    (REDIRECTS.has(statusCode) && headers.location !== undefined) ||
    !isHtml(contentType)
  ) {
    return null;
  }
  const contentEncoding = headers['content-encoding'];
  if (contentEncoding === undefined) return NO_DECODERS;
  const chain = fetchDecoderChain(contentEncoding);
  for (let i = 0; chain !== null && i + 1 < chain.length; i += 1) chain[i]!.pipe(chain[i + 1]!);
  return chain;
}

type Controller = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[0];
type HeaderObject = Record<string, string | string[] | undefined>;

/**
 * The tap on one request, written against undici's handler API (an interceptor gets every
 * handler in it: `Dispatcher.compose` adapts the callback handlers of undici's fetch).
 */
class Tap implements Dispatcher.DispatchHandler {
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #record: TapRecord;
  readonly #settings: TapSettings;
  readonly #method: string;
  #scan: HeadScan | undefined;
  #trailers: HeaderObject = {};
  /** The tap paused undici (while decoders drain), and resumes after the replay. */
  #paused = false;
  /** `onResponseStart`'s arguments, replayed when the scan lets go. */
  #head: [Controller, number, HeaderObject, string | undefined] | undefined;

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
      const record = this.#record;
      const contentType = recordHeaders(headers, record);
      const recorded = record.headers!;
      const decoders = scanDecoders(
        this.#settings,
        this.#method,
        statusCode,
        recorded,
        contentType,
      );
      if (decoders !== null) {
        this.#head = [controller, statusCode, headers, statusMessage];
        this.#scan = new HeadScan(this.#settings, decoders, this);
        return;
      }
    }
    this.#handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  /** The scan let go: `meta` is `undefined` if the body could not be decoded; `ended`: complete. */
  released(scan: HeadScan, meta: RobotsTagRules | undefined, ended: boolean): void {
    this.#record.meta = meta;
    const [controller, statusCode, headers, statusMessage] = this.#head!;
    const handler = this.#handler;
    // The handler may abort while the held body is replayed to it: the replay stops there.
    let failed: Error | undefined;
    try {
      handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
      for (const chunk of scan.held) {
        if (controller.aborted) break;
        handler.onResponseData?.(controller, chunk);
      }
    } catch (error) {
      // Replayed from a decoder's event, a throw would escape undici: it fails the request.
      failed = error as Error;
      controller.abort(failed);
    }
    if (!ended) {
      // A pause the handler asked for during the replay is not told apart from the tap's own:
      // it gets data again, as after any resume.
      if (this.#paused && !controller.aborted) {
        this.#paused = false;
        controller.resume();
      }
      return;
    }
    // undici has completed the request: an abort now is a no-op there, so the error is given
    // to the handler here.
    if (!controller.aborted && failed === undefined) {
      handler.onResponseEnd?.(controller, this.#trailers);
    } else {
      handler.onResponseError?.(controller, failed ?? controller.reason ?? new Error('aborted'));
    }
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    const scan = this.#scan;
    if (scan === undefined || scan.done) this.#handler.onResponseData?.(controller, chunk);
    else if (!scan.write(chunk) && !this.#paused) {
      this.#paused = true;
      controller.pause();
    }
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
 * The tap as an undici interceptor for one request: records the final response's header lines
 * into `record` and, for HTML, reads the robots metas in `<head>` *before* the response reaches
 * the handler (fetch): body chunks are held (at most `maxHeadBytes`, plus one chunk) until the
 * head is over, then passed on untouched and in order. The caller's body is the original one,
 * byte for byte, with no copy and no second stream.
 * @example
 * const record: TapRecord = { headers: undefined, meta: undefined };
 * const response = await fetch(url, { dispatcher: agent.compose(tapInterceptor(settings, record)) });
 * record.meta; // robots metas of the page
 */
export function tapInterceptor(
  settings: TapSettings,
  record: TapRecord,
): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (options, handler) =>
    dispatch(options, new Tap(handler, record, settings, upperCaseMethod(String(options.method))));
}
