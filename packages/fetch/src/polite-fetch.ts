import { Headers, fetch as undiciFetch } from 'undici';
import type { Dispatcher, RequestInit, Response } from 'undici';
import {
  RobotsInvalidOptionError,
  RobotsRedirectError,
  RobotsTooManyRedirectsError,
} from './errors.js';
import { tapResponse } from './response-tap.js';
import type { TapRecord } from './response-tap.js';
import { resolvePageOptions } from './options.js';
import { isRedirectStatus, nextHop } from './page-redirects.js';
import type { Hop } from './page-redirects.js';
import { createRobotsPolicy, toHttpUrl } from './policy.js';
import { checkResponse } from './response-checker.js';
import type {
  PoliteFetch,
  PoliteFetchOptions,
  PoliteRequestInit,
  PoliteRequestInput,
  PoliteResponse,
  RobotsPolicy,
  RobotsPolicyOptions,
} from './types.js';

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

async function prepare(
  input: PoliteRequestInput,
  init: PoliteRequestInit,
  userAgent: string,
): Promise<Prepared> {
  const request =
    typeof input === 'string' || input instanceof URL ? undefined : (input as RequestLike);
  const url = toHttpUrl(request === undefined ? (input as string | URL) : request.url);
  const given = init.headers ?? request?.headers;
  let headers: Hop['headers'];
  if (given === undefined) {
    headers = { 'user-agent': userAgent };
  } else {
    headers = new Headers(given as ConstructorParameters<typeof Headers>[0]);
    // The identity robots.txt was checked for is the identity the site sees.
    headers.set('user-agent', userAgent);
  }
  let body: RequestInit['body'] = init.body;
  if (
    body === undefined &&
    request !== undefined &&
    request.body !== null &&
    request.body !== undefined
  ) {
    body = new Uint8Array(await request.arrayBuffer());
  }
  const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
  const redirect =
    init.redirect ?? (request?.redirect as 'follow' | 'manual' | 'error' | undefined) ?? 'follow';
  const signal = init.signal ?? request?.signal ?? undefined;
  return {
    hop: { url, method, headers, body: body ?? null },
    init,
    redirect,
    signal,
    dispatcher: init.dispatcher,
  };
}

function withoutHash(url: URL): string {
  if (url.hash === '') return url.href;
  const copy = new URL(url);
  copy.hash = '';
  return copy.href;
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
    if ((options as { userAgent?: unknown }).userAgent !== undefined) {
      throw new RobotsInvalidOptionError(
        'policy',
        'RobotsPolicy',
        'either a policy or policy options (userAgent, …), not both',
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
  };
  const tapSettings = {
    productToken: policy.productToken,
    scanMeta: page.scanMeta,
    maxHeadBytes: page.maxHeadBytes,
  };

  const fetchHop = async (
    prepared: Prepared,
    hop: Hop,
  ): Promise<{ response: Response; tap: TapRecord }> => {
    let tap: TapRecord = { headers: undefined, meta: undefined };
    const response = await policy.schedule(
      hop.url,
      // The caller's own signal goes to undici, so that it also aborts the body later.
      async () => {
        const tapped = tapResponse(prepared.dispatcher ?? policy.dispatcher, tapSettings);
        tap = tapped.record;
        const { dispatcher } = tapped;
        const init: RequestInit = {
          ...prepared.init,
          method: hop.method,
          headers: hop.headers,
          body: hop.body,
          redirect: 'manual',
          signal: prepared.signal ?? null,
          dispatcher,
        };
        if (isStream(hop.body)) (init as { duplex?: string }).duplex = 'half';
        const answer = await undiciFetch(hop.url, init);
        policy.noteResponse(hop.url, answer.status, tap.headers ?? answer.headers);
        return answer;
      },
      prepared.signal === undefined ? {} : { signal: prepared.signal },
    );
    return { response, tap };
  };

  const politeFetch = async (
    input: PoliteRequestInput,
    init: PoliteRequestInit = {},
  ): Promise<PoliteResponse> => {
    const prepared = await prepare(input, init, policy.userAgent);
    const { signal } = prepared;
    const requested = prepared.hop.url.href;
    const redirects: string[] = [];
    let hop = prepared.hop;
    for (;;) {
      await policy.assertAllowed(hop.url, {
        ...(signal === undefined ? {} : { signal }),
        ...(redirects.length === 0 ? {} : { redirectedFrom: requested }),
      });
      const { response, tap } = await fetchHop(prepared, hop);
      const location = response.headers.get('location');
      if (
        prepared.redirect !== 'manual' &&
        isRedirectStatus(response.status) &&
        location !== null
      ) {
        await response.body?.cancel().catch(() => {});
        if (prepared.redirect === 'error') {
          throw new RobotsRedirectError({
            url: hop.url.href,
            reason: 'redirect-mode-error',
            location,
            status: response.status,
          });
        }
        if (redirects.length >= page.maxRedirects) {
          throw new RobotsTooManyRedirectsError({
            url: requested,
            redirects,
            maxRedirects: page.maxRedirects,
          });
        }
        hop = nextHop(hop, response.status, location);
        redirects.push(hop.url.href);
        continue;
      }
      return checkResponse(
        response,
        tap,
        { url: withoutHash(hop.url), redirected: redirects.length > 0 },
        checkSettings,
      );
    }
  };

  return Object.assign(politeFetch, {
    policy,
    close: (): Promise<void> => (owned ? policy.close() : Promise.resolve()),
  });
}
