import type { Transform } from 'node:stream';
import type { UnderlyingByteSource } from 'node:stream/web';
import { Headers, Response } from 'undici';
import type { Dispatcher } from 'undici';
import type { RobotsTagRules } from '@polite-crawler/robots-tag';
import { fetchDecoderChain } from './content-decoders.js';
import { HeadScan, recordRawHeaders, scansBody } from './response-tap.js';
import type { HeadScanOwner, HeldChunks, TapRecord, TapSettings } from './response-tap.js';
import { onAbort } from '../time/signals.js';

/**
 * The transport of a bodiless GET or HEAD: the request goes straight to the dispatcher and the
 * `Response` is built here, with what undici's fetch would send and give back for it — the same
 * request headers, the same body decoding, the same errors — but without the fetch algorithm's
 * bookkeeping (request cloning, timing entries, a Node stream between the socket and the web
 * stream), which costs more than twice the dispatcher's own work for a small page. Every other
 * request (a body, a `Request` object, any other init member) goes through undici's fetch.
 * `test/e2e/fetch-transport-parity.test.ts` compares the two, case by case.
 */

/** Statuses whose response has no body for fetch (and HEAD, whatever the status). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** Body bytes held for the reader before the connection is paused, as fetch's Node stream does. */
const BODY_HIGH_WATER_MARK = 16_384;

/** Request headers that make undici's fetch add `pragma` and `cache-control` (cache mode). */
const CONDITIONAL_HEADERS = [
  'if-modified-since',
  'if-none-match',
  'if-unmodified-since',
  'if-match',
  'if-range',
];

/** Init members the direct transport handles; any other one sends the request through fetch. */
const DIRECT_INIT_MEMBERS = new Set(['method', 'headers', 'signal', 'redirect', 'dispatcher']);

/**
 * Whether a call's init leaves nothing to undici's fetch: only members the wrapper handles
 * itself (`body` aside, which is checked per hop).
 * @example
 * initSendsDirectly({ headers: { accept: 'text/html' } }); // true
 */
export function initSendsDirectly(init: object): boolean {
  for (const key in init) {
    if ((init as Record<string, unknown>)[key] === undefined) continue;
    if (key === 'body') continue;
    if (!DIRECT_INIT_MEMBERS.has(key)) return false;
  }
  return true;
}

/**
 * The request headers undici's fetch sends for a bodiless GET or HEAD in its default modes,
 * from the caller's (already a valid header list), as a dispatcher's header object: `accept`
 * and `accept-language` unless given, `sec-fetch-mode: cors`, `pragma`/`cache-control` beside
 * a conditional header, `accept-encoding` (`identity` added for a range request), no `host`.
 * @example
 * fetchRequestHeaders({ 'user-agent': 'ExampleBot/1.0' }, false)['accept-encoding']; // 'gzip, deflate'
 */
export function fetchRequestHeaders(
  given: Iterable<[string, string]> | Readonly<Record<string, string>>,
  https: boolean,
): Record<string, string> {
  const headers: Record<string, string> = {};
  const pairs: Iterable<[string, string]> =
    Symbol.iterator in given ? given : Object.entries(given as Record<string, string>);
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    const held = headers[lower];
    headers[lower] = held === undefined ? value : `${held}, ${value}`;
  }
  headers['accept'] ??= '*/*';
  headers['accept-language'] ??= '*';
  headers['sec-fetch-mode'] = 'cors';
  if (CONDITIONAL_HEADERS.some((name) => headers[name] !== undefined)) {
    headers['pragma'] ??= 'no-cache';
    headers['cache-control'] ??= 'no-cache';
  }
  if (headers['range'] !== undefined) {
    const held = headers['accept-encoding'];
    headers['accept-encoding'] = held === undefined ? 'identity' : `${held}, identity`;
  }
  headers['accept-encoding'] ??= https ? 'br, gzip, deflate' : 'gzip, deflate';
  delete headers['host'];
  return headers;
}

/** The URLs of clones (undici makes a clone without the fields a constructor sets). */
const cloneUrls = new WeakMap<object, string>();

/** What a dropped Response's body is cancelled through. */
interface WatchedBody {
  /** The body stream (a tee branch after `clone()`), while something still holds it. */
  readonly body: WeakRef<ReadableStream<Uint8Array>>;
  /** Ends the request, for a Response dropped before `clone()` (none after). */
  readonly drop: (() => void) | undefined;
}

/**
 * Ends the request of a Response dropped unread, as undici does for the Responses its fetch
 * makes: otherwise the request would hold its connection (and its abort listener) for ever.
 * A body someone still reads (locked) is left alone.
 */
const unreadBodies = new FinalizationRegistry<WatchedBody>(({ body, drop }) => {
  const stream = body.deref();
  if (stream === undefined) drop?.();
  else if (!stream.locked) stream.cancel().catch(() => {});
});

function watchBody(response: Response, drop: (() => void) | undefined): void {
  const { body } = response;
  if (body !== null) unreadBodies.register(response, { body: new WeakRef(body), drop }, response);
}

/**
 * A Response built by the direct transport: its URL and type are what fetch gives (a
 * constructed Response has neither), and so are its clones'.
 */
class DispatchedResponse extends Response {
  readonly #url: string;

  constructor(body: ReadableStream<Uint8Array> | null, init: ResponseInit, url: string) {
    super(body, init);
    this.#url = url;
  }

  static {
    // Accessors, as on Response itself (its type declarations call them properties).
    Object.defineProperties(this.prototype, {
      url: {
        get(this: DispatchedResponse): string {
          return #url in this ? this.#url : (cloneUrls.get(this) ?? '');
        },
        configurable: true,
      },
      type: {
        get(): 'basic' {
          return 'basic';
        },
        configurable: true,
      },
    });
    Object.defineProperty(this, 'name', { value: 'Response' });
  }

  override clone(): Response {
    const copy = super.clone();
    // undici makes the copy a plain Response: it gets this one's class (its accessors) and URL.
    Object.setPrototypeOf(copy, Object.getPrototypeOf(this) as object);
    cloneUrls.set(copy, this.url);
    // Cloning gave this one a new body (one branch of a tee): both are watched, and dropping
    // one no longer ends the request the other may still read.
    unreadBodies.unregister(this);
    watchBody(this, undefined);
    watchBody(copy, undefined);
    return lockHeaders(copy);
  }
}

type ResponseInit = ConstructorParameters<typeof Response>[1];

function refuseChange(): never {
  throw new TypeError('immutable');
}

/** Non-enumerable mutators that throw, as on the headers of a Response fetch made. */
const IMMUTABLE: PropertyDescriptorMap = {
  append: { value: refuseChange },
  set: { value: refuseChange },
  delete: { value: refuseChange },
};

/**
 * Makes a Response's headers read-only, as fetch's are ("immutable" guard; a constructed
 * Response's can be changed, and undici offers no way to make them otherwise).
 */
function lockHeaders(response: Response): Response {
  Object.defineProperties(response.headers, IMMUTABLE);
  return response;
}

/** The status lines of {@link StatusLineResponse}s (theirs and their clones'). */
const statusLines = new WeakMap<object, { readonly status: number; readonly statusText: string }>();

/**
 * A Response whose status line the Response constructor refuses (fetch passes on any status a
 * server sends, 600 and above included, and any reason phrase): made with 200 and no reason
 * phrase, it answers with the real ones.
 */
class StatusLineResponse extends DispatchedResponse {
  constructor(
    body: ReadableStream<Uint8Array> | null,
    status: number,
    statusText: string,
    headers: Headers,
    url: string,
  ) {
    super(body, { status: 200, headers }, url);
    statusLines.set(this, { status, statusText });
  }

  static {
    // Read by the Response constructor too, before the status line is set.
    const statusOf = (response: object): number => statusLines.get(response)?.status ?? 200;
    Object.defineProperties(this.prototype, {
      status: {
        get(this: StatusLineResponse): number {
          return statusOf(this);
        },
        configurable: true,
      },
      ok: {
        get(this: StatusLineResponse): boolean {
          const status = statusOf(this);
          return status >= 200 && status <= 299;
        },
        configurable: true,
      },
      statusText: {
        get(this: StatusLineResponse): string {
          return statusLines.get(this)?.statusText ?? '';
        },
        configurable: true,
      },
    });
    Object.defineProperty(this, 'name', { value: 'Response' });
  }

  override clone(): Response {
    const copy = super.clone();
    const line = statusLines.get(this);
    if (line !== undefined) statusLines.set(copy, line);
    return copy;
  }
}

/** The Response for a status line and headers (see {@link StatusLineResponse}). */
function responseOf(
  body: ReadableStream<Uint8Array> | null,
  status: number,
  statusText: string,
  headers: Headers,
  url: string,
): Response {
  let response: Response;
  try {
    response = new DispatchedResponse(body, { status, statusText, headers }, url);
  } catch {
    response = new StatusLineResponse(body, status, statusText, headers, url);
  }
  return lockHeaders(response);
}

/** `url.href` without its fragment (what a Response's `url` is). */
function hrefWithoutFragment(url: URL): string {
  const { href, hash } = url;
  if (hash !== '') return href.slice(0, href.length - hash.length);
  return href.endsWith('#') ? href.slice(0, -1) : href;
}

/** The request target: path and query, and a lone `?` kept as fetch keeps it. */
function requestTarget(url: URL): string {
  const path = url.pathname + url.search;
  if (url.search !== '') return path;
  const { href, hash } = url;
  const beforeFragment = hash === '' ? href.length : href.length - hash.length;
  return href.charCodeAt(beforeFragment - (href.endsWith('#') ? 2 : 1)) === 0x3f
    ? `${path}?`
    : path;
}

/**
 * @example
 * const request: DirectRequest = { url, method: 'GET', headers: fetchRequestHeaders(given, false), signal: undefined };
 */
export interface DirectRequest {
  readonly url: URL;
  readonly method: 'GET' | 'HEAD';
  /** From {@link fetchRequestHeaders}. */
  readonly headers: Readonly<Record<string, string>>;
  readonly signal: AbortSignal | undefined;
}

/**
 * Sends a bodiless GET or HEAD through `dispatcher` and resolves to its Response, as undici's
 * fetch with `redirect: 'manual'` would (see the file comment). The response's header lines go
 * to `record`, and an HTML body's robots metas too, read before the Response is handed back
 * (the bytes read are then passed on, as by the tap).
 * @example
 * const record: TapRecord = { headers: undefined, meta: undefined };
 * const response = await sendDirect(dispatcher, request, settings, record);
 */
export function sendDirect(
  dispatcher: Dispatcher,
  request: DirectRequest,
  settings: TapSettings,
  record: TapRecord,
): Promise<Response> {
  const { signal } = request;
  if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
  return new Promise<Response>((resolve, reject) => {
    const exchange = new DirectExchange(request, settings, record, resolve, reject);
    try {
      dispatcher.dispatch(
        {
          origin: request.url.origin,
          path: requestTarget(request.url),
          method: request.method,
          headers: request.headers,
          body: null,
        },
        exchange,
      );
    } catch (error) {
      exchange.onError(error as Error);
    }
  });
}

/** A chunk as fetch enqueues it: a copy (the socket's buffer may be shared). */
function copied(chunk: Buffer): Uint8Array {
  return new Uint8Array(chunk);
}

/**
 * One request–response exchange with undici's callback API (what its fetch uses): resolves the
 * Response at the headers (or once an HTML head has been read), then feeds its body stream,
 * with backpressure both ways.
 */
class DirectExchange implements HeadScanOwner {
  readonly #request: DirectRequest;
  readonly #settings: TapSettings;
  readonly #record: TapRecord;
  #resolve: ((response: Response) => void) | undefined;
  /** Cleared with {@link #resolve}: a settled promise would keep its Response alive through it. */
  #reject: ((error: unknown) => void) | undefined;
  #abort: ((error?: Error) => void) | undefined;
  #resume: (() => void) | undefined;
  #unsubscribe: (() => void) | undefined;
  /** Set when the request ended early: by the caller's signal, a cancel, or a failure. */
  #stopped: unknown;
  #scan: HeadScan | undefined;
  #statusCode = 0;
  #rawHeaders: Buffer[] | undefined;
  #statusText = '';
  /** The body stream's controller; `undefined` before the response, or for a null body. */
  #body: ReadableByteStreamController | undefined;
  /** The decoders the body goes through, first to last (none for an identity body). */
  #decoders: readonly Transform[] = [];
  #responded = false;
  #bodyBytes = 0;
  #completed = false;
  /** undici is paused: by the body's backpressure, or while decoders drain a head. */
  #paused = false;
  /** The body is complete, but not yet all read (see {@link #close}). */
  #closing = false;

  constructor(
    request: DirectRequest,
    settings: TapSettings,
    record: TapRecord,
    resolve: (response: Response) => void,
    reject: (error: unknown) => void,
  ) {
    this.#request = request;
    this.#settings = settings;
    this.#record = record;
    this.#resolve = resolve;
    this.#reject = reject;
    const { signal } = request;
    if (signal !== undefined) {
      this.#unsubscribe = onAbort(signal, () => this.#stop(signal.reason, true));
    }
  }

  onConnect(abort: (error?: Error) => void): void {
    this.#abort = abort;
    if (this.#stopped !== undefined) abort(this.#stopped as Error);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string) {
    if (statusCode < 200) return false;
    if (this.#stopped !== undefined) return false;
    this.#resume = resume;
    const contentType = recordRawHeaders(rawHeaders, this.#record);
    const decoders = scansBody(
      this.#settings,
      this.#request.method,
      statusCode,
      this.#record.headers!,
      contentType,
    );
    if (decoders !== null) {
      this.#statusCode = statusCode;
      this.#rawHeaders = rawHeaders;
      this.#statusText = statusText;
      this.#scan = new HeadScan(this.#settings, decoders, this);
      return true;
    }
    this.#respond(statusCode, rawHeaders, statusText);
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#stopped !== undefined) return true;
    this.#bodyBytes += chunk.byteLength;
    const scan = this.#scan;
    if (scan !== undefined && !scan.done) {
      if (scan.write(chunk)) return true;
      this.#paused = true;
      return false;
    }
    return this.#push(chunk);
  }

  onComplete(): void {
    this.#completed = true;
    const scan = this.#scan;
    if (scan !== undefined && !scan.done) {
      scan.end();
      return;
    }
    this.#end();
  }

  onError(error: Error): void {
    this.#scan?.abandon();
    if (this.#stopped !== undefined) return;
    // A connection that fails after a complete, empty body: fetch sees the end, not an error.
    if (this.#completed && this.#bodyBytes === 0 && this.#responded) {
      this.#end();
      return;
    }
    this.#stop(error, false);
  }

  released(held: HeldChunks, meta: RobotsTagRules | undefined, ended: boolean): void {
    this.#record.meta = meta;
    this.#respond(this.#statusCode, this.#rawHeaders!, this.#statusText);
    this.#rawHeaders = undefined;
    let more = true;
    if (held.first !== undefined) more = this.#push(held.first);
    for (const chunk of held.more ?? []) more = this.#push(chunk);
    if (ended) {
      this.#end();
      return;
    }
    if (this.#paused && more) {
      this.#paused = false;
      this.#resume?.();
    }
  }

  /** Makes the Response and hands it over. */
  #respond(statusCode: number, rawHeaders: Buffer[], statusText: string): void {
    if (this.#stopped !== undefined) return;
    try {
      this.#makeResponse(statusCode, rawHeaders, statusText);
    } catch (error) {
      // A header value the Headers class refuses (fetch's internal list takes anything): the
      // request fails as a network error would, never hangs.
      this.#stop(error, false);
    }
  }

  #makeResponse(statusCode: number, rawHeaders: Buffer[], statusText: string): void {
    const headers = new Headers();
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      const name = rawHeaders[i]!.toString('latin1').toLowerCase();
      const value = rawHeaders[i + 1] as Buffer | Buffer[];
      if (Array.isArray(value))
        for (const item of value) headers.append(name, item.toString('latin1'));
      else headers.append(name, value.toString('latin1'));
    }
    const nullBody = this.#request.method === 'HEAD' || NULL_BODY_STATUSES.has(statusCode);
    let body: ReadableStream<Uint8Array> | null = null;
    if (!nullBody) {
      const decoders = fetchDecoderChain(headers.get('content-encoding'));
      if (typeof decoders === 'string') {
        this.#stop(new Error(decoders), false);
        return;
      }
      this.#decoders = decoders;
      body = this.#bodyStream();
    }
    const response = responseOf(
      body,
      statusCode,
      statusText,
      headers,
      hrefWithoutFragment(this.#request.url),
    );
    // The registry holds the exchange, never the Response.
    watchBody(response, () =>
      this.#stop(new DOMException('The response was dropped unread.', 'AbortError'), true),
    );
    this.#responded = true;
    const resolve = this.#resolve!;
    this.#resolve = undefined;
    this.#reject = undefined;
    resolve(response);
  }

  #bodyStream(): ReadableStream<Uint8Array> {
    const decoders = this.#decoders;
    const last = decoders[decoders.length - 1];
    if (last !== undefined) {
      for (let i = 0; i + 1 < decoders.length; i++) decoders[i]!.pipe(decoders[i + 1]!);
      last.on('data', (chunk: Buffer) => {
        const body = this.#body;
        if (body === undefined || this.#stopped !== undefined) return;
        if (chunk.byteLength > 0) body.enqueue(copied(chunk));
        if ((body.desiredSize ?? 1) <= 0) last.pause();
      });
      last.on('end', () => this.#close());
      for (const decoder of decoders) {
        decoder.on('error', (error: Error) => this.#stop(error, false));
      }
      decoders[0]!.on('drain', () => {
        if (this.#paused && this.#stopped === undefined) {
          this.#paused = false;
          this.#resume?.();
        }
      });
    }
    const source: UnderlyingByteSource = {
      type: 'bytes',
      start: (controller) => {
        this.#body = controller;
      },
      pull: (controller) => {
        if (this.#closing) {
          if ((controller.desiredSize ?? 0) >= BODY_HIGH_WATER_MARK) this.#closeNow(controller);
          return;
        }
        if (last !== undefined) {
          if (last.isPaused()) last.resume();
        } else if (this.#paused) {
          this.#paused = false;
          this.#resume?.();
        }
      },
      cancel: (reason: unknown) => {
        this.#body = undefined;
        this.#stop(reason, true);
      },
    };
    // What fetch holds before it pauses the connection (its Node stream's default).
    return new ReadableStream(source, { highWaterMark: BODY_HIGH_WATER_MARK });
  }

  /** Passes a body chunk on; `false` asks undici to pause. */
  #push(chunk: Buffer): boolean {
    const body = this.#body;
    if (body === undefined) return true;
    const first = this.#decoders[0];
    if (first !== undefined) {
      if (first.write(chunk)) return true;
      this.#paused = true;
      return false;
    }
    if (chunk.byteLength > 0) body.enqueue(copied(chunk));
    if ((body.desiredSize ?? 1) > 0) return true;
    this.#paused = true;
    return false;
  }

  /** The body is complete on the wire. */
  #end(): void {
    const first = this.#decoders[0];
    if (first !== undefined && this.#body !== undefined) first.end();
    else this.#close();
  }

  /**
   * The body is complete. While a reader has not taken all of it, the caller's signal can still
   * error it (as fetch's): then the stream is closed from `pull`, once its queue is empty.
   */
  #close(): void {
    const body = this.#body;
    if (body === undefined || this.#stopped !== undefined) {
      this.#body = undefined;
      this.#unsubscribe?.();
      return;
    }
    if (this.#request.signal !== undefined && (body.desiredSize ?? 0) < BODY_HIGH_WATER_MARK) {
      this.#closing = true;
      return;
    }
    this.#closeNow(body);
  }

  #closeNow(body: ReadableByteStreamController): void {
    this.#body = undefined;
    this.#unsubscribe?.();
    try {
      body.close();
      // A BYOB read waiting when the body ends is answered with no bytes (as undici does).
      body.byobRequest?.respond(0);
    } catch {
      // A view partly filled with bytes that make no whole element: the stream has already
      // been errored by close(), and the reader is told so.
    }
  }

  /**
   * Ends the exchange early: `aborted` for the caller's signal or a cancel (the reason is given
   * as it is), else a failure (fetch's `TypeError`s: `fetch failed` before the response,
   * `terminated` during the body).
   */
  #stop(reason: unknown, aborted: boolean): void {
    if (this.#stopped !== undefined) return;
    this.#stopped = reason ?? new Error('aborted');
    this.#unsubscribe?.();
    this.#scan?.abandon();
    for (const decoder of this.#decoders) decoder.destroy();
    const body = this.#body;
    this.#body = undefined;
    const reject = this.#reject;
    if (reject !== undefined) {
      this.#resolve = undefined;
      this.#reject = undefined;
      reject(aborted ? reason : new TypeError('fetch failed', { cause: reason as Error }));
    } else if (body !== undefined) {
      body.error(
        aborted
          ? reason
          : new TypeError('terminated', { cause: reason instanceof Error ? reason : undefined }),
      );
    }
    this.#abort?.(this.#stopped as Error);
  }
}
