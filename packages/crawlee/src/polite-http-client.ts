import type {
  BaseHttpClient,
  BaseHttpResponseData,
  HttpRequest,
  HttpResponse,
  RedirectHandler,
  ResponseTypes,
  StreamingHttpResponse,
} from '@crawlee/core';
import { finished } from 'node:stream';
import { isRobotsDeniedError } from '@polite-crawler/fetch';
import type { Clock, RobotsDeniedError } from '@polite-crawler/fetch';
import { walkRedirects } from '@polite-crawler/fetch/internal';
import { rawHeaderPairs } from '@polite-crawler/robots-tag';
import type { ResolvedCrawleeOptions } from './resolve-options.js';
import { isFromStore } from './transport-http-client.js';

/**
 * Where the adapter's pre-navigation hook puts the crawler's `Request` in the HTTP request
 * options, so the client knows whose response it is. Removed before the inner client sees them.
 * @example
 * preNavigationHooks: [({ request }, gotOptions) => { gotOptions[CRAWLEE_REQUEST] = request; }]
 */
export const CRAWLEE_REQUEST: unique symbol = Symbol.for('polite-crawler.crawlee.request');

/** What the client learnt about the response of one crawler request. */
export interface HttpNavigation {
  readonly url: string;
  readonly redirects: readonly string[];
  /** Header field lines, one entry per line, as received. */
  readonly headers: readonly (readonly [string, string])[];
}

/** Where the client records and reports. */
export interface PoliteHttpClientDeps {
  readonly options: ResolvedCrawleeOptions;
  readonly inner: BaseHttpClient;
  /**
   * `inner` sends through the policy's transport (a `TransportHttpClient`): it signs each
   * hop itself and takes the walk's signal (got keeps its own timeout).
   */
  readonly transport?: boolean;
  readonly navigations: WeakMap<object, HttpNavigation>;
  /** A redirect hop was refused (the crawler request, when known, is already marked `noRetry`). */
  readonly onRedirectDenied: (
    request: object | undefined,
    error: RobotsDeniedError,
  ) => Promise<void>;
}

type AnyRequest = HttpRequest<keyof ResponseTypes>;
type Headers = NonNullable<HttpRequest['headers']>;

function headerPairs(response: BaseHttpResponseData): Array<[string, string]> {
  const raw = (response as { rawHeaders?: unknown }).rawHeaders;
  if (Array.isArray(raw) && raw.every((part) => typeof part === 'string'))
    return rawHeaderPairs(raw);
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined) continue;
    for (const line of Array.isArray(value) ? value : [value]) pairs.push([name, line]);
  }
  return pairs;
}

/** `headers` without the named ones (lower-case names), compared case-insensitively. */
function withoutHeaders(headers: Headers, names: readonly string[]): Headers {
  const out: Headers = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!names.includes(name.toLowerCase())) out[name] = value;
  }
  return out;
}

/** The fields a signature sets (a request's own are replaced). */
const SIGNATURE_FIELDS = ['signature', 'signature-input', 'signature-agent'];

function locationOf(response: BaseHttpResponseData): string | undefined {
  const value = response.headers.location;
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A Crawlee `BaseHttpClient` that puts a robots policy in front of another one (by default
 * got-scraping's): each hop is sent through the policy's redirect walker, so every `Location` is
 * checked against its own origin's robots.txt before it is requested, and Crawlee's redirect
 * handler is called so session cookies follow. A refused URL rejects with `RobotsDeniedError`.
 * @example
 * new CheerioCrawler({ httpClient: new PoliteHttpClient({ options, inner: new GotScrapingHttpClient(), navigations, onRedirectDenied }) });
 */
export class PoliteHttpClient implements BaseHttpClient {
  readonly #deps: PoliteHttpClientDeps;

  constructor(deps: PoliteHttpClientDeps) {
    this.#deps = deps;
  }

  async sendRequest<TResponseType extends keyof ResponseTypes = 'text'>(
    request: HttpRequest<TResponseType>,
  ): Promise<HttpResponse<TResponseType>> {
    const { inner } = this.#deps;
    const send = (hop: AnyRequest) => inner.sendRequest(hop as HttpRequest<TResponseType>);
    // got has read the whole body: the request is over.
    return this.#walk(
      request,
      send,
      () => undefined,
      (_response, release) => release(),
    );
  }

  async stream(request: HttpRequest, onRedirect?: RedirectHandler): Promise<StreamingHttpResponse> {
    const { inner } = this.#deps;
    return this.#walk(
      request,
      (hop) => inner.stream(hop as HttpRequest),
      (response) => response.stream.destroy(),
      // The slot is held until the body has been read, destroyed or has failed.
      (response, release) => finished(response.stream, release),
      onRedirect,
    );
  }

  async #walk<R extends BaseHttpResponseData>(
    request: AnyRequest,
    send: (hop: AnyRequest) => Promise<R>,
    discard: (response: R) => void,
    untilOver: (response: R, release: () => void) => void,
    onRedirect?: RedirectHandler,
  ): Promise<R> {
    const { options, navigations, onRedirectDenied, transport = false } = this.#deps;
    const { policy } = options;
    const { [CRAWLEE_REQUEST]: owner, ...plain } = request as AnyRequest & {
      [CRAWLEE_REQUEST]?: { noRetry: boolean };
    };
    const { body: _body, ...withoutBody } = plain;
    // Crawlee passes no signal, only its navigation timeout: once that has passed it has given
    // up on the request, which must then not go on waiting for its slot and be sent later.
    const timeout = plain.signal === undefined ? deadline(plain.timeout, policy.clock) : undefined;
    const signal = plain.signal ?? timeout?.signal;
    let headers: Headers = plain.headers ?? {};
    let body = plain.body;
    try {
      const { response, url, redirects, slot } = await walkRedirects<R>(policy, {
        url: new URL(String(plain.url)),
        method: plain.method ?? 'GET',
        replayableBody: body === undefined || typeof body === 'string' || Buffer.isBuffer(body),
        maxRedirects: options.maxRedirects,
        signal,
        send: async (hop) => {
          if (hop.redirect !== undefined && !hop.redirect.keepBody) body = undefined;
          if (options.userAgent === 'policy') {
            headers = {
              ...withoutHeaders(headers, ['user-agent']),
              'user-agent': policy.userAgent,
            };
          }
          // With the policy's `signature`, each hop is signed for its own URL as it is sent (the
          // transport's dispatcher signs what it sends).
          const signature = transport ? undefined : await policy.signer?.headersFor(hop.url);
          return send({
            ...withoutBody,
            ...(transport && signal !== undefined ? { signal } : {}),
            url: hop.url.href,
            method: hop.method as NonNullable<AnyRequest['method']>,
            headers:
              signature === undefined
                ? headers
                : { ...withoutHeaders(headers, SIGNATURE_FIELDS), ...signature },
            ...(body === undefined ? {} : { body }),
            followRedirect: false,
          });
        },
        statusOf: (response) => response.statusCode,
        fromStore: isFromStore,
        locationOf,
        headersOf: headerPairs,
        discard,
        redirectTarget: (response, next) => {
          // Crawlee's handler moves session cookies over to the new URL (and may change it).
          const updated: { url?: string | URL; headers: Headers } = {
            url: next.url,
            headers: withoutHeaders(headers, next.dropHeaders),
          };
          onRedirect?.(response, updated);
          headers = updated.headers;
          return new URL(String(updated.url ?? next.url));
        },
      });
      untilOver(response, () => slot.release());
      response.redirectUrls = redirects.map((target) => new URL(target));
      if (owner !== undefined) {
        navigations.set(owner, { url: url.href, redirects, headers: headerPairs(response) });
      }
      return response;
    } catch (error) {
      if (isRobotsDeniedError(error)) {
        // Refused by robots.txt: retrying cannot help.
        if (owner !== undefined) owner.noRetry = true;
        if (error.reason === 'redirect-disallowed') await onRedirectDenied(owner, error);
      }
      throw error;
    } finally {
      timeout?.cancel();
    }
  }
}

/**
 * A signal that aborts with a `TimeoutError` once got's whole-request timeout (`timeout.request`,
 * ms) has passed on the policy's clock (the one its waits run on); `cancel` ends the timer.
 */
function deadline(
  timeout: unknown,
  clock: Clock,
): { readonly signal: AbortSignal; cancel(): void } | undefined {
  const ms = (timeout as { request?: unknown } | undefined)?.request;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) return undefined;
  const timer = new AbortController();
  const expired = new AbortController();
  clock.sleep(ms, timer.signal).then(
    () => expired.abort(new DOMException(`the ${ms} ms request timeout passed`, 'TimeoutError')),
    () => undefined, // cancelled: the request is over
  );
  return { signal: expired.signal, cancel: () => timer.abort() };
}
