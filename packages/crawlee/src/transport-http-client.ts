import { Transform, pipeline } from 'node:stream';
import type { Readable, TransformCallback } from 'node:stream';
import type {
  BaseHttpClient,
  BaseHttpResponseData,
  HttpRequest,
  HttpResponse,
  ResponseTypes,
  StreamingHttpResponse,
} from '@crawlee/core';
import { requestThrough } from '@polite-crawler/fetch/internal';

/**
 * Set on a response the HTTP cache gave without a request (a fresh copy, or an identical GET's in
 * flight): the polite client does not note it as the origin's response.
 */
export const FROM_STORE: unique symbol = Symbol('polite-crawler.crawlee.from-store');

/** Whether `response` carries {@link FROM_STORE}. */
export function isFromStore(response: object): boolean {
  return (response as { [FROM_STORE]?: boolean })[FROM_STORE] === true;
}

/** The policy's transport dispatcher, as `requestThrough` takes it. */
type TransportDispatcher = Parameters<typeof requestThrough>[0];
type Answer = Awaited<ReturnType<typeof requestThrough>> & { readonly fromStore: boolean };

/** Headers undici computes itself (or refuses to be given). */
const COMPUTED = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);

function plainHeaders(headers: HttpRequest['headers']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value !== undefined && !COMPUTED.has(name.toLowerCase())) out[name] = value;
  }
  return out;
}

function plainBody(request: HttpRequest<keyof ResponseTypes>): string | Buffer | undefined {
  const { body } = request;
  if (body === undefined || typeof body === 'string' || Buffer.isBuffer(body)) return body;
  throw new TypeError(
    `politeCrawlee with cache: ${String(request.url)} has a streamed or form body; the cached transport sends string or Buffer bodies (use cache: false for this crawler)`,
  );
}

/** The body as got's `responseType` and `encoding` would hand it over. */
function typedBody(buffer: Buffer, request: HttpRequest<keyof ResponseTypes>): unknown {
  const type = request.responseType ?? 'text';
  if (type === 'buffer') return buffer;
  const text = buffer.toString(request.encoding ?? 'utf8');
  return type === 'json' ? (text === '' ? '' : (JSON.parse(text) as unknown)) : text;
}

function responseData(
  request: HttpRequest<keyof ResponseTypes>,
  answer: Answer,
): BaseHttpResponseData & { [FROM_STORE]: boolean } {
  return {
    [FROM_STORE]: answer.fromStore,
    url: String(request.url),
    redirectUrls: [],
    statusCode: answer.statusCode,
    statusMessage: answer.statusText,
    headers: answer.headers,
    trailers: answer.trailers,
    complete: false,
  };
}

/**
 * A Crawlee `BaseHttpClient` that sends each hop with undici's `request` through the policy's
 * transport: its dispatcher (proxy, TLS), its signer, and — what it is for — undici's HTTP cache
 * and deduplication of identical GETs in flight, then `decompress`. The adapter uses it in place
 * of got-scraping when `cache` is on. It follows no redirect (the polite client walks them) and
 * takes string or Buffer bodies.
 * @example
 * new PoliteHttpClient({ options, inner: new TransportHttpClient(adapterDispatcher(policy.dispatcher, store)), … });
 */
export class TransportHttpClient implements BaseHttpClient {
  readonly #dispatcher: TransportDispatcher;

  constructor(dispatcher: TransportDispatcher) {
    this.#dispatcher = dispatcher;
  }

  async #send(request: HttpRequest<keyof ResponseTypes>): Promise<Answer> {
    const mark = { sent: false };
    const answer = await requestThrough(this.#dispatcher, new URL(String(request.url)), {
      method: request.method ?? 'GET',
      headers: plainHeaders(request.headers),
      body: plainBody(request),
      signal: request.signal,
      mark,
    });
    return Object.assign(answer, { fromStore: !mark.sent });
  }

  async sendRequest<TResponseType extends keyof ResponseTypes = 'text'>(
    request: HttpRequest<TResponseType>,
  ): Promise<HttpResponse<TResponseType>> {
    const answer = await this.#send(request);
    const buffer = Buffer.from(await answer.body.arrayBuffer());
    return {
      ...responseData(request, answer),
      complete: true,
      body: typedBody(buffer, request) as ResponseTypes[TResponseType],
      request,
    };
  }

  async stream(request: HttpRequest): Promise<StreamingHttpResponse> {
    const answer = await this.#send(request);
    const length = Number(answer.headers['content-length']);
    const total = Number.isSafeInteger(length) && length >= 0 ? length : undefined;
    let transferred = 0;
    let ended = false;
    // Counts what the crawler reads (got's downloadProgress); errors and destroy go both ways.
    const counter = new Transform({
      transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
        transferred += chunk.length;
        done(null, chunk);
      },
      flush(done: TransformCallback) {
        ended = true;
        done();
      },
    });
    const stream: Readable = pipeline(answer.body, counter, () => undefined);
    const response = {
      ...responseData(request, answer),
      stream,
      request,
      get downloadProgress() {
        const percent = total === undefined || total === 0 ? (ended ? 1 : 0) : transferred / total;
        return { percent, transferred, ...(total === undefined ? {} : { total }) };
      },
      get uploadProgress() {
        return { percent: 1, transferred: 0 };
      },
    };
    stream.once('end', () => {
      response.complete = true;
    });
    return response;
  }
}
