import { Headers, fetch as undiciFetch } from 'undici';
import type { Dispatcher, HeadersInit, RequestInit, Response } from 'undici';
import { RobotsInvalidOptionError } from '../errors/errors.js';
import type { PoliteFetchOptions } from '../options/option-types.js';
import { resolvePageOptions } from '../options/options.js';
import { toHttpUrl } from '../policy/policy.js';
import { policyFromOptions } from '../policy/policy-from-options.js';
import type { HeaderInput, HopSlot, RobotsPolicy } from '../policy/robots-policy.js';
import { walkRedirects } from '../redirects/redirect-walker.js';
import type { RedirectWalk, WalkHop } from '../redirects/redirect-walker.js';
import type { RedirectHop } from '../redirects/redirect-rule.js';
import { checkResponse } from '../response/response-checker.js';
import { upperCaseMethod } from '../transport/request-method.js';
import { pageDispatcher, transportDispatcher } from '../transport/compose-transport.js';
import { tapInterceptor, tapSettings } from '../transport/response-tap.js';
import { holdSlot, responseTimeoutIn } from '../transport/slot-handler.js';
import type { ResponseLimit, SlotWatch } from '../transport/slot-handler.js';
import { carryMark } from '../transport/network-mark.js';
import type { NetworkMark } from '../transport/network-mark.js';
import { dispatcherOption, refusalIn, refuseUndrivable } from '../transport/dispatcher-guard.js';
import { requestMembers } from './request-members.js';
import type { TapRecord, TapSettings } from '../transport/response-tap.js';
import type {
  PoliteFetch,
  PoliteRequestInit,
  PoliteRequestInput,
  PoliteResponse,
} from './polite-fetch-types.js';

type Body = NonNullable<RequestInit['body']>;

/** A Request, undici's or the global one (the members read are the same). */
type RequestLike = globalThis.Request;

const NO_INIT: PoliteRequestInit = Object.freeze({});
/** The tap record of a call before its first hop is sent (shared, never written). */
const NOTHING_TAPPED: TapRecord = Object.freeze({ headers: undefined, meta: undefined });

/** `input` as a Request, when it is one (anything else goes to toHttpUrl, which names it). */
function requestOf(input: PoliteRequestInput): RequestLike | undefined {
  return typeof input === 'string' ||
    input instanceof URL ||
    typeof input !== 'object' ||
    input === null ||
    typeof (input as { url?: unknown }).url !== 'string'
    ? undefined
    : (input as RequestLike);
}

/** The request headers of a call: `init`'s or the Request's, with the policy's User-Agent. */
function callHeaders(
  request: RequestLike | undefined,
  init: PoliteRequestInit,
  shared: Shared,
): Headers | HeadersInit {
  const given = init.headers ?? request?.headers;
  if (given === undefined) return shared.defaultHeaders;
  // A global Headers is iterable: undici's copies it as any list of pairs.
  const headers = new Headers(given as HeadersInit);
  // The identity robots.txt was checked for is the identity the site sees.
  headers.set('user-agent', shared.policy.userAgent);
  return headers;
}

/** The Request whose body a call sends, to read before its first hop (none when `init.body` is given). */
function unreadBody(
  request: RequestLike | undefined,
  init: PoliteRequestInit,
): RequestLike | undefined {
  return init.body === undefined && request?.body !== null && request?.body !== undefined
    ? request
    : undefined;
}

function isStream(body: Body | null): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body instanceof ReadableStream || Symbol.asyncIterator in body)
  );
}

/** Whether a request body can be sent again on a 307/308 hop: everything but streams. */
function isReplayableBody(body: Body | null): boolean {
  if (body === null || typeof body === 'string') return true;
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return true;
  return body instanceof URLSearchParams || body instanceof FormData || body instanceof Blob;
}

/**
 * A dispatcher's refusal, as the guard made it, or the hop's response timeout, in place of
 * fetch's `TypeError` around it.
 */
function unwrapHopError(error: unknown): never {
  throw refusalIn(error) ?? responseTimeoutIn(error) ?? error;
}

/** What every call of one polite fetch shares (made once, in the factory). */
interface Shared {
  readonly policy: RobotsPolicy;
  /** `responseTimeout` on the policy's clock: the limit of a hop of a call without a signal. */
  readonly responseLimit: ResponseLimit;
  readonly maxRedirects: number;
  readonly tapConfig: TapSettings;
  /** The dispatcher of pages: the policy's, behind the HTTP cache when it is on. */
  readonly pages: Dispatcher;
  /** The HTTP cache is on: each hop carries a mark that says whether it reached the network. */
  readonly cached: boolean;
  /** The page dispatcher over a call's own `dispatcher` (signed and cached as the policy's). */
  pagesOver(dispatcher: Dispatcher): Dispatcher;
  /** The request headers of a call that gives none (frozen: cheaper for undici). */
  readonly defaultHeaders: HeadersInit;
}

/**
 * One call of a polite fetch, as the redirect walker drives it: the request's state across its
 * hops, and the walk's callbacks as methods (one object per call, no closures made per call).
 */
class Call implements RedirectWalk<Response> {
  readonly url: URL;
  readonly method: string;
  readonly replayableBody: boolean;
  readonly maxRedirects: number;
  readonly redirect: 'follow' | 'manual' | 'error';
  readonly signal: AbortSignal | undefined;
  /** What the tap saw of the latest hop's response (nothing before the first). */
  tap: TapRecord = NOTHING_TAPPED;
  /** Whether the latest hop got past the HTTP cache (none: no cache). */
  #mark: NetworkMark | undefined;
  /** What each hop's slot handler watches: the response limit, and whether the cache answered. */
  readonly #watch: SlotWatch;
  /**
   * The members every hop is sent with: the Request's, `init`'s laid over them (fetch's rule),
   * less those each hop sets itself.
   */
  readonly #members: RequestInit;
  readonly #dispatcher: Dispatcher;
  readonly #shared: Shared;
  #headers: Headers | HeadersInit;
  #body: Body | null;

  constructor(
    url: URL,
    request: RequestLike | undefined,
    init: PoliteRequestInit,
    headers: Headers | HeadersInit,
    body: Body | null,
    shared: Shared,
  ) {
    this.url = url;
    this.method = upperCaseMethod(init.method ?? request?.method ?? 'GET');
    this.replayableBody = isReplayableBody(body);
    this.maxRedirects = shared.maxRedirects;
    this.redirect = init.redirect ?? request?.redirect ?? 'follow';
    // fetch's rule: `init.signal` (even `null`) replaces the Request's.
    this.signal = ('signal' in init ? init.signal : request?.signal) ?? undefined;
    this.#members =
      request === undefined
        ? (init as RequestInit)
        : { ...requestMembers(request, init), ...(init as RequestInit) };
    // A dispatcher given per call is checked as the option is (the policy's was at
    // construction), then signed and cached as the policy's is.
    this.#dispatcher =
      init.dispatcher === undefined
        ? shared.pages
        : shared.pagesOver(dispatcherOption(init.dispatcher));
    this.#shared = shared;
    // A call with a signal has the caller's limit (as with fetch); one without has the policy's.
    this.#watch = {
      fromStore: shared.cached ? () => this.fromStore() : undefined,
      responseLimit: this.signal === undefined ? shared.responseLimit : undefined,
    };
    this.#headers = headers;
    this.#body = body;
  }

  /**
   * One hop through undici's fetch, redirects left to the walker; it holds `slot` to its body's
   * end. A call without a signal is bounded by `responseTimeout` until the hop's response is in
   * (headers, and for HTML its `<head>`); the body after that is the caller's to read.
   */
  send(hop: WalkHop, slot: HopSlot): Promise<Response> {
    const { redirect } = hop;
    if (redirect !== undefined) {
      if (redirect.dropHeaders.length > 0) {
        const next = new Headers(this.#headers);
        for (const name of redirect.dropHeaders) next.delete(name);
        this.#headers = next;
      }
      if (!redirect.keepBody) this.#body = null;
    }
    const tap: TapRecord = { headers: undefined, meta: undefined };
    this.tap = tap;
    const given = this.#dispatcher;
    const { cached } = this.#shared;
    // The guard first (outermost): a dispatcher that throws when handed a request is refused.
    // Without the HTTP cache every response is the origin's: nothing to ask at its headers.
    const guarded = given.compose(
      refuseUndrivable(given),
      tapInterceptor(this.#shared.tapConfig, tap),
      holdSlot(slot, this.#watch),
    );
    let dispatcher = guarded;
    if (cached) {
      const mark: NetworkMark = { sent: false };
      this.#mark = mark;
      dispatcher = guarded.compose(carryMark(mark));
    }
    const body = this.#body;
    // One path for every call: every member of the Request and of init, on every hop.
    const hopInit: RequestInit = {
      ...this.#members,
      method: hop.method,
      headers: this.#headers,
      body,
      redirect: 'manual',
      signal: this.signal ?? null,
      dispatcher,
    };
    if (isStream(body)) (hopInit as { duplex?: string }).duplex = 'half';
    return undiciFetch(hop.url.href, hopInit).catch(unwrapHopError);
  }

  statusOf(response: Response): number {
    return response.status;
  }

  locationOf(response: Response): string | undefined {
    return response.headers.get('location') ?? undefined;
  }

  headersOf(response: Response): HeaderInput {
    return this.tap.headers ?? response.headers;
  }

  fromStore(): boolean {
    return this.#mark !== undefined && !this.#mark.sent;
  }

  discard(response: Response): unknown {
    return response.body?.cancel().catch(() => {});
  }

  redirectTarget(_response: Response, next: RedirectHop): URL {
    // Fetch keeps the fragment when `Location` has none.
    if (next.url.hash === '' && this.url.hash !== '') next.url.hash = this.url.hash;
    return next.url;
  }
}

/**
 * Wraps fetch once: every request (and every redirect hop) is checked against its origin's
 * robots.txt and refused with a {@link RobotsDeniedError} before anything is sent when
 * disallowed, waits for its origin's pacing slot, and resolves to the Response undici's fetch
 * made, carrying the `Robots-Tag` / robots-meta directives for this crawler
 * (`response.robots`). Throws {@link RobotsInvalidOptionError} naming the first invalid option.
 * @example
 * const politeFetch = createPoliteFetch({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
 * const response = await politeFetch('https://example.com/page');
 * if (!response.robots.noindex) index(await response.text());
 */
export function createPoliteFetch(options: PoliteFetchOptions): PoliteFetch {
  if (typeof options !== 'object' || options === null) {
    throw new RobotsInvalidOptionError('options', options, 'an object');
  }
  const page = resolvePageOptions(options);
  const { policy, owned } = policyFromOptions(options);
  const checkSettings = { policy, noindex: page.noindex, rejectUsage: page.rejectUsage };
  const tapConfig = tapSettings({
    productToken: policy.productToken,
    scanMeta: page.scanMeta,
    maxHeadBytes: page.maxHeadBytes,
  });
  // One chain per dispatcher given (so that its calls share one deduplication).
  const chains = new WeakMap<Dispatcher, Dispatcher>();
  const pagesOver = (dispatcher: Dispatcher): Dispatcher => {
    let chain = chains.get(dispatcher);
    if (chain === undefined) {
      chain = pageDispatcher(transportDispatcher(dispatcher, policy.signer), page.cache);
      chains.set(dispatcher, chain);
    }
    return chain;
  };
  const shared: Shared = {
    policy,
    maxRedirects: page.maxRedirects,
    responseLimit: { ms: page.responseTimeout, clock: policy.clock },
    tapConfig,
    pages: pageDispatcher(policy.dispatcher, page.cache),
    cached: page.cache !== false,
    // A call's own dispatcher is signed as the policy's is (and shares the policy's cache).
    pagesOver,
    defaultHeaders: Object.freeze({ 'user-agent': policy.userAgent }),
  };

  const politeFetch = async (
    input: PoliteRequestInput,
    init?: PoliteRequestInit | null,
  ): Promise<PoliteResponse> => {
    // `null` is no init, as for fetch.
    const given = init ?? NO_INIT;
    const request = requestOf(input);
    const url = toHttpUrl(request === undefined ? (input as string | URL) : request.url);
    const headers = callHeaders(request, given, shared);
    // A Request's body is read before the first hop (a 307/308 hop sends it again); a call
    // without one awaits nothing here.
    const unread = unreadBody(request, given);
    const body =
      unread === undefined
        ? ((given.body as Body | null | undefined) ?? null)
        : new Uint8Array(await unread.arrayBuffer());
    const call = new Call(url, request, given, headers, body, shared);
    // The hop's slot is given back when its body ends (or `maxBodyHold` after its headers).
    const walked = await walkRedirects(policy, call);
    return checkResponse(
      walked.response,
      walked.url,
      call.tap,
      walked.redirects.length > 0,
      checkSettings,
    );
  };

  return Object.assign(politeFetch, {
    policy,
    close: (): Promise<void> => (owned ? policy.close() : Promise.resolve()),
  });
}
