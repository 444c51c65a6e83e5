import {
  REDIRECT_STATUSES,
  RobotsDeniedError,
  RobotsTooManyRedirectsError,
  nextRedirectHop,
} from '@polite-crawler/fetch';
import type { APIRequestContext, APIResponse, Page, Request, Route } from 'playwright-core';
import type { CheckOptions, Decision } from '@polite-crawler/fetch';
import { pageCloseSignals, pageOfRequest } from './page-close-signal.js';
import type { ResolvedGateOptions } from './resolve-options.js';
import type { GateEvent } from './types.js';

/** What the gate handed to the browser for one request: kept for {@link PlaywrightGate.robots}. */
export interface ServedRecord {
  readonly finalUrl: string;
  readonly redirects: readonly string[];
  /** The final response's header lines, one entry per field line, as received. */
  readonly headers: readonly (readonly [string, string])[];
  readonly status: number;
}

/** Where the route handler reports to. */
export interface RouteHandlerDeps {
  readonly options: ResolvedGateOptions;
  /** The browser context's request API: shares its cookies, proxy and TLS settings. */
  readonly api: APIRequestContext;
  readonly served: WeakMap<Request, ServedRecord>;
  readonly deniedNavigations: WeakMap<Page, RobotsDeniedError>;
}

/** One request of a redirect chain, as the gate sends it. */
interface Hop {
  readonly url: string;
  readonly method: string;
  /** Lower-case header names; never `cookie` or `host` (the browser context adds them per URL). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | undefined;
}

/** Headers the browser context adds itself, per hop: never copied from the first request. */
const CONTEXT_HEADERS = ['cookie', 'host', 'content-length', 'connection'];

function isHttpUrl(url: string): boolean {
  return url.startsWith('http://') || url.startsWith('https://');
}

function locationOf(response: APIResponse): string | undefined {
  const line = response.headersArray().find((header) => header.name.toLowerCase() === 'location');
  return line?.value;
}

async function firstHop(request: Request, options: ResolvedGateOptions): Promise<Hop> {
  const headers: Record<string, string> = { ...(await request.allHeaders()) };
  for (const name of CONTEXT_HEADERS) delete headers[name];
  if (options.userAgent === 'policy') headers['user-agent'] = options.policy.userAgent;
  return {
    url: request.url(),
    method: request.method(),
    headers,
    body: request.postDataBuffer() ?? undefined,
  };
}

/**
 * Creates the `route` handler of a gate. For each browser request it checks the URL against
 * robots.txt, sends it (in the origin's pacing slot) without following redirects, checks every
 * `Location` before requesting it, and fulfils the browser's request with the final response
 * only. A refused URL or hop is aborted with `blockedbyclient` before anything is sent to it.
 * @example
 * await context.route('**\/*', createRouteHandler({ options, api: context.request, served, deniedNavigations }));
 */
export function createRouteHandler(deps: RouteHandlerDeps): (route: Route) => Promise<void> {
  const { options, api, served, deniedNavigations } = deps;
  const { policy } = options;

  const emit = (event: GateEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // an observer must not break the browser's request
    }
  };

  const pageClosed = pageCloseSignals();

  /**
   * `untilClosed`: aborts when the request's page closes (the request is then dropped). A paced
   * hop was admitted before its wait for the slot; once it has the slot, the rules in force
   * then must still allow it (the copy that admitted it may have expired while it waited), or
   * the denying decision is returned instead of a response.
   */
  const send = async (
    hop: Hop,
    paced: boolean,
    untilClosed: CheckOptions,
  ): Promise<APIResponse | Decision> => {
    const request = (signal?: AbortSignal): Promise<APIResponse> =>
      api.fetch(hop.url, {
        method: hop.method,
        headers: { ...hop.headers },
        ...(hop.body === undefined ? {} : { data: hop.body }),
        maxRedirects: 0,
        failOnStatusCode: false,
        ...(signal === undefined ? {} : { signal }),
      });
    const noted = (response: APIResponse): APIResponse => {
      policy.noteResponse(
        hop.url,
        response.status(),
        response.headersArray().map((header) => [header.name, header.value] as const),
      );
      return response;
    };
    // Noted inside the slot: a Retry-After pauses the origin before the next request takes it.
    if (!paced) return noted(await request(untilClosed.signal));
    return await policy.schedule(
      hop.url,
      async (signal) => {
        const now = policy.peek(hop.url) ?? (await policy.check(hop.url, { signal }));
        return now.allowed ? noted(await request(signal)) : now;
      },
      untilClosed,
    );
  };

  return async (route: Route): Promise<void> => {
    const request = route.request();
    const url = request.url();
    if (!isHttpUrl(url)) {
      await route.fallback();
      return;
    }
    const isNavigation = request.isNavigationRequest();
    const base = { url, resourceType: request.resourceType(), isNavigation };
    const paced = options.pace === 'all' || isNavigation;
    const owner = pageOfRequest(request);
    // The page whose main frame this request navigates, if it is such a navigation.
    const page =
      isNavigation && owner !== undefined && request.frame().parentFrame() === null
        ? owner
        : undefined;
    const untilClosed: CheckOptions = owner === undefined ? {} : { signal: pageClosed(owner) };

    const refuse = async (error: RobotsDeniedError): Promise<void> => {
      if (page !== undefined) deniedNavigations.set(page, error);
      emit({ type: 'request-denied', ...base, error });
      await route.abort('blockedbyclient').catch(() => undefined); // the page may be gone
    };
    const fail = async (error: unknown): Promise<void> => {
      emit({ type: 'request-failed', ...base, error });
      await route.abort('failed').catch(() => undefined);
    };

    try {
      const decision = await policy.check(url, untilClosed);
      if (!decision.allowed) return await refuse(RobotsDeniedError.fromDecision(decision));

      let hop = await firstHop(request, options);
      const redirects: string[] = [];
      for (;;) {
        const response = await send(hop, paced, untilClosed);
        if ('allowed' in response) {
          const original = redirects.length === 0 ? undefined : url;
          return await refuse(RobotsDeniedError.fromDecision(response, original));
        }
        const status = response.status();
        const location = REDIRECT_STATUSES.has(status) ? locationOf(response) : undefined;
        if (location === undefined) {
          const headers = response
            .headersArray()
            .map((header) => [header.name, header.value] as const);
          served.set(request, { finalUrl: hop.url, redirects, headers, status });
          if (page !== undefined) deniedNavigations.delete(page);
          await route.fulfill({ response });
          emit({ type: 'request-served', ...base, finalUrl: hop.url, status, redirects });
          return;
        }
        await response.dispose();
        if (redirects.length >= options.maxRedirects) {
          return await fail(
            new RobotsTooManyRedirectsError({
              url,
              redirects: [...redirects],
              maxRedirects: options.maxRedirects,
            }),
          );
        }
        // A bad Location throws a RobotsRedirectError: the request fails (catch below).
        // The body is a Buffer, always replayable.
        const next = nextRedirectHop(
          { url: new URL(hop.url), method: hop.method, replayableBody: true },
          status,
          location,
        );
        const target = next.url;
        const hopDecision = await policy.check(target, untilClosed);
        if (!hopDecision.allowed)
          return await refuse(RobotsDeniedError.fromDecision(hopDecision, url));
        redirects.push(target.href);
        const headers = { ...hop.headers };
        for (const name of next.dropHeaders) delete headers[name];
        hop = {
          url: target.href,
          method: next.method,
          headers,
          body: next.keepBody ? hop.body : undefined,
        };
      }
    } catch (error) {
      await fail(error);
    }
  };
}
