import { isRobotsDeniedError } from '@polite-crawler/fetch';
import type { RobotsDeniedError } from '@polite-crawler/fetch';
import { walkRedirects } from '@polite-crawler/fetch/internal';
import type { APIRequestContext, Page, Request, Route } from 'playwright-core';
import { pageCloseSignals, pageOfRequest } from './page-close-signal.js';
import type { ResolvedGateOptions } from './resolve-options.js';
import { apiAnswer, transportAnswer } from './transport-answer.js';
import type { HopAnswer, TransportDispatcher } from './transport-answer.js';
import type { GateEvent } from './types.js';

/** What the gate handed to the browser for one request: kept for {@link PlaywrightGate.robots}. */
export interface ServedRecord {
  readonly finalUrl: string;
  readonly redirects: readonly string[];
  /** The final response's header lines, one entry per field line, as received. */
  readonly headers: readonly (readonly [string, string])[];
}

/** Where the route handler reports to. */
export interface RouteHandlerDeps {
  readonly options: ResolvedGateOptions;
  /** The browser context's request API: shares its cookies, proxy and TLS settings. */
  readonly api: APIRequestContext;
  readonly served: WeakMap<Request, ServedRecord>;
  readonly deniedNavigations: WeakMap<Page, RobotsDeniedError>;
  /** With `cache` on: the policy's transport (undici's cache), in place of `api`. */
  readonly transport: TransportDispatcher | undefined;
}

/** Headers the browser context adds itself, per hop: never copied from the first request. */
const CONTEXT_HEADERS = ['cookie', 'host', 'content-length', 'connection'];
/** Headers undici computes itself (the browser's cookies go along as they are). */
const TRANSPORT_HEADERS = ['host', 'content-length', 'connection', 'transfer-encoding'];

function locationOf(answer: HopAnswer): string | undefined {
  return answer.headers.find(([name]) => name.toLowerCase() === 'location')?.[1];
}

/** The browser request's headers (lower-case names) as the gate sends them on its first hop. */
async function firstHeaders(
  request: Request,
  options: ResolvedGateOptions,
  viaTransport: boolean,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = { ...(await request.allHeaders()) };
  for (const name of viaTransport ? TRANSPORT_HEADERS : CONTEXT_HEADERS) delete headers[name];
  if (options.userAgent === 'policy') headers['user-agent'] = options.policy.userAgent;
  return headers;
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
  const { options, api, served, deniedNavigations, transport } = deps;
  const { policy } = options;

  const emit = (event: GateEvent): void => {
    try {
      options.onEvent?.(event);
    } catch {
      // an observer must not break the browser's request
    }
  };

  const pageClosed = pageCloseSignals();

  return async (route: Route): Promise<void> => {
    const request = route.request();
    const url = request.url();
    if (!url.startsWith('http://') && !url.startsWith('https://')) {
      await route.fallback();
      return;
    }
    const isNavigation = request.isNavigationRequest();
    const base = { url, resourceType: request.resourceType(), isNavigation };
    const owner = pageOfRequest(request);
    // The page whose main frame this request navigates, if it is such a navigation.
    const mainFrame = isNavigation && owner !== undefined && request.frame().parentFrame() === null;
    const page = mainFrame ? owner : undefined;
    // Aborts when the request's page closes (the request is then dropped).
    const signal = owner === undefined ? undefined : pageClosed(owner);

    try {
      let headers: Record<string, string> | undefined;
      let body = request.postDataBuffer() ?? undefined;
      const walk = await walkRedirects<HopAnswer>(policy, {
        url: new URL(url),
        method: request.method(),
        // The body is a Buffer, always replayable.
        replayableBody: true,
        maxRedirects: options.maxRedirects,
        signal,
        paced: options.pace === 'all' || isNavigation,
        send: async (next) => {
          headers ??= await firstHeaders(request, options, transport !== undefined);
          for (const name of next.redirect?.dropHeaders ?? []) delete headers[name];
          if (next.redirect?.keepBody === false) body = undefined;
          const hop = { method: next.method, headers, body, signal };
          // The transport's dispatcher signs what it sends. `api.fetch` is Playwright's own HTTP
          // client, not undici: with the policy's `signature`, each hop is signed here for its
          // own URL as it is sent.
          if (transport !== undefined) return transportAnswer(transport, next.url, hop);
          const signature = await policy.signer?.headersFor(next.url);
          return apiAnswer(api, next.url, { ...hop, headers: { ...headers, ...signature } });
        },
        statusOf: (answer) => answer.status,
        fromStore: (answer) => answer.fromStore,
        locationOf,
        headersOf: (answer) => answer.headers,
        discard: (answer) => answer.discard(),
      });
      const { response, redirects } = walk;
      try {
        await response.read();
      } catch (error) {
        // The body failed (a reset, a timeout): the origin backs off as for a failed request.
        walk.slot.noteFailure(error);
        throw error;
      } finally {
        // The whole body is in (or failed): the hop is over.
        walk.slot.release();
      }
      const finalUrl = walk.url.href;
      served.set(request, { finalUrl, redirects, headers: response.headers });
      if (page !== undefined) deniedNavigations.delete(page);
      await response.fulfil(route);
      emit({ type: 'request-served', ...base, finalUrl, status: response.status, redirects });
    } catch (error) {
      const denied = isRobotsDeniedError(error);
      if (denied && page !== undefined) deniedNavigations.set(page, error);
      emit(
        denied
          ? { type: 'request-denied', ...base, error }
          : { type: 'request-failed', ...base, error },
      );
      // The page may be gone.
      await route.abort(denied ? 'blockedbyclient' : 'failed').catch(() => undefined);
    }
  };
}
