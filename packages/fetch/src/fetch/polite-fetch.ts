import { Headers, fetch as undiciFetch } from 'undici';
import type { Dispatcher, RequestInit, Response } from 'undici';
import {
  RobotsInvalidOptionError,
  RobotsRedirectError,
  RobotsTooManyRedirectsError,
} from '../errors/errors.js';
import { tapResponse, tapSettings } from '../transport/response-tap.js';
import type { TapRecord } from '../transport/response-tap.js';
import { policyOptionBesidePolicy, resolvePageOptions } from '../options/options.js';
import { isRedirectStatus, nextHop } from '../redirects/page-redirects.js';
import type { Hop } from '../redirects/page-redirects.js';
import { createRobotsPolicy, politeGate, toHttpUrl } from '../policy/policy.js';
import { checkResponse } from '../response/response-checker.js';
import { fetchRequestHeaders, initSendsDirectly, sendDirect } from '../transport/direct-fetch.js';
import { upperCaseMethod } from '../transport/request-method.js';
import type {
  PoliteFetch,
  PoliteRequestInit,
  PoliteRequestInput,
  PoliteResponse,
} from './polite-fetch-types.js';
import type { PoliteFetchOptions, RobotsPolicyOptions } from '../options/option-types.js';
import type { RobotsPolicy } from '../policy/robots-policy.js';

const POLICY_METHODS = ['check', 'assertAllowed', 'schedule', 'noteResponse', 'close'] as const;

function isPolicy(value: unknown): value is RobotsPolicy {
  return (
    typeof value === 'object' &&
    value !== null &&
    POLICY_METHODS.every(
      (name) => typeof (value as Record<string, unknown>)[name] === 'function',
    ) &&
    typeof (value as RobotsPolicy).productToken === 'string'
  );
}

interface Prepared {
  readonly hop: Hop;
  readonly init: RequestInit;
  readonly redirect: 'follow' | 'manual' | 'error';
  readonly signal: AbortSignal | undefined;
  readonly dispatcher: Dispatcher | undefined;
  /** Nothing but the wrapper's own init members: bodiless GET/HEAD hops skip undici's fetch. */
  readonly direct: boolean;
}

type RequestLike = {
  readonly url: string;
  readonly method: string;
  readonly headers: Iterable<[string, string]>;
  readonly body: unknown;
  readonly signal?: AbortSignal;
  readonly redirect?: string;
  arrayBuffer(): Promise<ArrayBuffer>;
};

const NO_INIT: PoliteRequestInit = Object.freeze({});

/**
 * The first hop of a call. Synchronous unless the input is a Request whose body must be read
 * (one promise less on every ordinary call).
 */
function prepare(
  input: PoliteRequestInput,
  init: PoliteRequestInit,
  userAgent: string,
  defaultHeaders: Hop['headers'],
): Prepared | Promise<Prepared> {
  // Anything but a string, a URL or a Request-like object goes to toHttpUrl, which names it.
  const request =
    typeof input === 'string' ||
    input instanceof URL ||
    typeof input !== 'object' ||
    input === null ||
    typeof (input as { url?: unknown }).url !== 'string'
      ? undefined
      : (input as RequestLike);
  const url = toHttpUrl(request === undefined ? (input as string | URL) : request.url);
  const given = init.headers ?? request?.headers;
  let headers: Hop['headers'];
  if (given === undefined) {
    // Shared and frozen: fetch and nextHop only read it.
    headers = defaultHeaders;
  } else {
    headers = new Headers(given as ConstructorParameters<typeof Headers>[0]);
    // The identity robots.txt was checked for is the identity the site sees.
    headers.set('user-agent', userAgent);
  }
  const method = upperCaseMethod(init.method ?? request?.method ?? 'GET');
  const redirect =
    init.redirect ?? (request?.redirect as 'follow' | 'manual' | 'error' | undefined) ?? 'follow';
  const signal = init.signal ?? request?.signal ?? undefined;
  const prepared: Prepared = {
    hop: { url, method, headers, body: init.body ?? null },
    init,
    redirect,
    signal,
    dispatcher: init.dispatcher,
    direct: request === undefined && initSendsDirectly(init),
  };
  if (
    init.body === undefined &&
    request !== undefined &&
    request.body !== null &&
    request.body !== undefined
  ) {
    return Promise.resolve(request.arrayBuffer()).then((buffer) => ({
      ...prepared,
      hop: { ...prepared.hop, body: new Uint8Array(buffer) },
    }));
  }
  return prepared;
}

function isStream(body: RequestInit['body']): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    (body instanceof ReadableStream || Symbol.asyncIterator in body)
  );
}

/**
 * Wraps fetch once: every request (and every redirect hop) is checked against its origin's
 * robots.txt and refused with a {@link RobotsDeniedError} before anything is sent when
 * disallowed, waits for its origin's pacing slot, and resolves to a Response that carries
 * the `Robots-Tag` / robots-meta directives for this crawler (`response.robots`).
 * Throws {@link RobotsInvalidOptionError} naming the first invalid option.
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
  let policy: RobotsPolicy;
  let owned: boolean;
  const shared: unknown = (options as { policy?: unknown }).policy;
  if (shared !== undefined) {
    if (!isPolicy(shared))
      throw new RobotsInvalidOptionError(
        'policy',
        shared,
        'a RobotsPolicy from createRobotsPolicy',
      );
    const besides = policyOptionBesidePolicy(options);
    if (besides !== undefined) {
      throw new RobotsInvalidOptionError(
        'policy',
        'RobotsPolicy',
        `either a policy or policy options (${besides}, …), not both: the policy has its own`,
      );
    }
    policy = shared;
    owned = false;
  } else {
    policy = createRobotsPolicy(options as RobotsPolicyOptions);
    owned = true;
  }
  const none = policy.directives([]);
  Object.freeze(none.rules);
  const checkSettings = {
    productToken: policy.productToken,
    none: Object.freeze(none),
    noindex: page.noindex,
    clock: policy.clock,
    metaDirectives: new WeakMap(),
  };
  const tapConfig = tapSettings({
    productToken: policy.productToken,
    scanMeta: page.scanMeta,
    maxHeadBytes: page.maxHeadBytes,
  });

  const gate = politeGate(policy);
  const defaultHeaders: Hop['headers'] = Object.freeze({ 'user-agent': policy.userAgent });

  /** undici's init for one hop, through a fresh tap that records into `record`. */
  const hopInit = (prepared: Prepared, hop: Hop, record: TapRecord): RequestInit => {
    const dispatcher = tapResponse(prepared.dispatcher ?? policy.dispatcher, tapConfig, record);
    if (
      prepared.init === NO_INIT &&
      hop.method === 'GET' &&
      hop.body === null &&
      prepared.signal === undefined
    ) {
      // A bare GET: only what differs from fetch's defaults (undici converts and checks every
      // member it is given, each on a path of its own).
      return { headers: hop.headers, redirect: 'manual', dispatcher };
    }
    const init: RequestInit = {
      ...prepared.init,
      method: hop.method,
      headers: hop.headers,
      body: hop.body,
      redirect: 'manual',
      // The caller's own signal goes to undici, so that it also aborts the body later.
      signal: prepared.signal ?? null,
      dispatcher,
    };
    if (isStream(hop.body)) (init as { duplex?: string }).duplex = 'half';
    return init;
  };

  /** The request headers of a bare hop on the direct transport, made once per scheme. */
  const directDefaults = {
    http: fetchRequestHeaders(defaultHeaders as Record<string, string>, false),
    https: fetchRequestHeaders(defaultHeaders as Record<string, string>, true),
  };

  /**
   * Sends one hop: a bodiless GET or HEAD with nothing else asked of fetch goes straight to the
   * dispatcher (see direct-fetch.ts), anything else through undici's fetch.
   */
  const send = (prepared: Prepared, hop: Hop, tap: TapRecord): Promise<Response> => {
    const { url, method } = hop;
    if (
      prepared.direct &&
      hop.body === null &&
      (method === 'GET' || method === 'HEAD') &&
      url.username === '' &&
      url.password === ''
    ) {
      const https = url.protocol === 'https:';
      const headers =
        hop.headers === defaultHeaders
          ? https
            ? directDefaults.https
            : directDefaults.http
          : fetchRequestHeaders(hop.headers as Headers, https);
      return sendDirect(
        prepared.dispatcher ?? policy.dispatcher,
        { url, method, headers, signal: prepared.signal },
        tapConfig,
        tap,
      );
    }
    return undiciFetch(url.href, hopInit(prepared, hop, tap));
  };

  /**
   * One hop run by `policy.schedule`: for a caller signal (whose handling `schedule` owns) and
   * for policies from elsewhere. Admitted before its wait for the slot; once it has the slot,
   * the rules in force then must still allow it (the copy that admitted it may have expired
   * while it waited).
   */
  const scheduledHop = (
    prepared: Prepared,
    hop: Hop,
    tap: TapRecord,
    redirectedFrom: string | undefined,
  ): Promise<Response> =>
    policy.schedule(
      hop.url,
      async (signal) => {
        if (policy.peek(hop.url)?.allowed !== true) {
          await policy.assertAllowed(hop.url, {
            signal,
            ...(redirectedFrom === undefined ? {} : { redirectedFrom }),
          });
        }
        const answer = await send(prepared, hop, tap);
        policy.noteResponse(hop.url, answer.status, tap.headers ?? answer.headers);
        return answer;
      },
      prepared.signal === undefined ? {} : { signal: prepared.signal },
    );

  const politeFetch = async (
    input: PoliteRequestInput,
    init?: PoliteRequestInit,
  ): Promise<PoliteResponse> => {
    // `null` is no init, as for fetch.
    const ready = prepare(input, init ?? NO_INIT, policy.userAgent, defaultHeaders);
    const prepared = ready instanceof Promise ? await ready : ready;
    const { signal } = prepared;
    let redirects: string[] | undefined;
    let hop = prepared.hop;
    for (;;) {
      const { url } = hop;
      const redirectedFrom = redirects === undefined ? undefined : prepared.hop.url.href;
      const tap: TapRecord = { headers: undefined, meta: undefined };
      let response: Response;
      if (gate === undefined) {
        await policy.assertAllowed(url, {
          ...(signal === undefined ? {} : { signal }),
          ...(redirectedFrom === undefined ? {} : { redirectedFrom }),
        });
        response = await scheduledHop(prepared, hop, tap, redirectedFrom);
      } else if (signal === undefined) {
        // The hot path: admission and the pacing slot in one step, and the slot given back
        // here (no task closure, and no promise at all when nothing has to be waited for).
        const origin = url.origin;
        const entered = gate.enter(url, origin, redirectedFrom);
        if (entered !== undefined) await entered;
        try {
          response = await send(prepared, hop, tap);
          gate.noteResponse(origin, response.status, tap.headers ?? response.headers);
        } finally {
          gate.release(origin);
        }
      } else {
        const admitted = gate.admit(url, url.origin, signal, redirectedFrom);
        if (admitted !== undefined) await admitted;
        response = await scheduledHop(prepared, hop, tap, redirectedFrom);
      }
      if (prepared.redirect !== 'manual' && isRedirectStatus(response.status)) {
        const location = response.headers.get('location');
        if (location !== null) {
          await response.body?.cancel().catch(() => {});
          if (prepared.redirect === 'error') {
            throw new RobotsRedirectError({
              url: hop.url.href,
              reason: 'redirect-mode-error',
              location,
              status: response.status,
            });
          }
          redirects ??= [];
          if (redirects.length >= page.maxRedirects) {
            throw new RobotsTooManyRedirectsError({
              url: prepared.hop.url.href,
              redirects,
              maxRedirects: page.maxRedirects,
            });
          }
          hop = nextHop(hop, response.status, location);
          redirects.push(hop.url.href);
          continue;
        }
      }
      return checkResponse(response, tap, redirects !== undefined, checkSettings);
    }
  };

  return Object.assign(politeFetch, {
    policy,
    close: (): Promise<void> => (owned ? policy.close() : Promise.resolve()),
  });
}
