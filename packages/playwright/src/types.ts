import type {
  HttpCacheStore,
  RobotsDeniedError,
  RobotsOfPage,
  RobotsPolicy,
} from '@polite-crawler/fetch';
import type { BrowserContext, Page, Response } from 'playwright-core';

/**
 * Options of {@link createPlaywrightGate}. Every default is in `DEFAULTS`.
 * @example
 * const gate = createPlaywrightGate({ policy, metas: 'served' });
 */
export interface PlaywrightGateOptions {
  /** The shared policy: one robots.txt cache and one pacing per origin for every adapter. */
  readonly policy: RobotsPolicy;
  /**
   * Redirect hops followed for one browser request; each target is checked against its own
   * origin's robots.txt before it is requested. One more aborts the request.
   * @default 20
   */
  readonly maxRedirects?: number;
  /**
   * `'policy'` sends the policy's User-Agent (the one robots.txt was matched against) with every
   * gated request; `'browser'` keeps the browser's.
   * @default 'policy'
   */
  readonly userAgent?: 'policy' | 'browser';
  /**
   * `'all'`: every request (documents and subresources) waits for its origin's pacing slot.
   * `'documents'`: only navigations do; subresources are still gated hop by hop.
   * @default 'all'
   */
  readonly pace?: 'all' | 'documents';
  /**
   * Which robots metas {@link PlaywrightGate.robots} reads: `'served'` (the HTML as sent),
   * `'rendered'` (the live DOM's `<head>`, after scripts ran), or `'both'` (a `noindex` in
   * either counts).
   * @default 'both'
   */
  readonly metas?: 'served' | 'rendered' | 'both';
  /**
   * Bytes of a served HTML body read looking for robots metas in `<head>`.
   * @default 262144
   */
  readonly maxHeadBytes?: number;
  /** Called synchronously once per gated request outcome; exceptions are swallowed. */
  /**
   * HTTP caching (RFC 9111) of the browser's requests with undici's own cache, as
   * `@polite-crawler/fetch`'s `cache`: `true` is a bounded in-memory store (`MEMORY_CACHE_LIMITS`:
   * 1,024 responses, 64 MiB, 4 MiB a response), or pass an undici cache store (`SqliteCacheStore`
   * for a crawl that restarts). A fresh copy is served without a request, a stale one revalidated
   * (a 304 gives the browser the stored body with status 200), identical GETs in flight at once
   * are sent once. The browser's own HTTP cache does not apply to routed requests (Playwright
   * turns it off while a route is set), so without this option every page and subresource is
   * fetched every time. With it, hops are sent with undici through the policy's `dispatcher`
   * (the browser's cookies go along) instead of the context's request API: the context's `proxy`,
   * `ignoreHTTPSErrors` and client certificates do not apply (give the policy a dispatcher that
   * does). Off by default for that reason.
   * @default false
   */
  readonly cache?: boolean | HttpCacheStore;
  readonly onEvent?: (event: GateEvent) => void;
}

/** What the gate knows about the request it is reporting. */
interface GateEventBase {
  /** The URL the browser asked for. */
  readonly url: string;
  /** Playwright's resource type: `document`, `image`, `script`, `fetch`, ... */
  readonly resourceType: string;
  readonly isNavigation: boolean;
}

/**
 * A request or one of its redirect hops was refused by robots.txt; nothing was sent to it.
 * @example
 * onEvent: (e) => e.type === 'request-denied' && console.log(e.url, e.error.reason, e.error.line)
 */
export interface GateDeniedEvent extends GateEventBase {
  readonly type: 'request-denied';
  /** `reason` is `disallowed`, `unreachable` or `redirect-disallowed` (then `error.url` is the hop). */
  readonly error: RobotsDeniedError;
}

/**
 * A request failed (network error, too many redirects, bad `Location`), or its page closed
 * while it waited (an `AbortError`: never sent).
 * @example
 * onEvent: (e) => e.type === 'request-failed' && console.warn(e.url, e.error)
 */
export interface GateFailedEvent extends GateEventBase {
  readonly type: 'request-failed';
  readonly error: unknown;
}

/**
 * A request was answered: every hop allowed and requested; the final response was handed to the browser.
 * @example
 * onEvent: (e) => e.type === 'request-served' && console.log(e.url, '→', e.finalUrl, e.status)
 */
export interface GateServedEvent extends GateEventBase {
  readonly type: 'request-served';
  /** The URL of the response handed to the browser (differs from `url` after redirects). */
  readonly finalUrl: string;
  readonly status: number;
  /** Redirect targets followed, in order. */
  readonly redirects: readonly string[];
}

/**
 * One state object per gated request outcome; new fields may be added.
 * @example
 * const events: GateEvent[] = [];
 * createPlaywrightGate({ policy, onEvent: (event) => events.push(event) });
 */
export type GateEvent = GateDeniedEvent | GateFailedEvent | GateServedEvent;

/**
 * The robots directives of one navigation, and where its response really came from.
 * @example
 * const { directives, url }: NavigationRobots = await gate.robots(response);
 */
export interface NavigationRobots extends RobotsOfPage {
  /**
   * The final URL of the navigation (the last redirect target). The one place it is known:
   * `page.url()` and `response.url()` stay on the first URL (README: "URLs after a redirect").
   */
  readonly url: string;
  /** Redirect targets followed, in order (empty without redirects or without the gate). */
  readonly redirects: readonly string[];
  /** HTTP status of the response. */
  readonly status: number;
}

/**
 * Gates a browser's requests with a {@link RobotsPolicy} (see {@link createPlaywrightGate}).
 * @example
 * const gate: PlaywrightGate = createPlaywrightGate({ policy });
 * await gate.attach(context);
 */
export interface PlaywrightGate {
  readonly policy: RobotsPolicy;
  /**
   * Routes every request of a browser context (all its pages, popups and workers) or of one page
   * through the gate. Attaching twice to the same target is a no-op.
   */
  attach(target: BrowserContext | Page): Promise<void>;
  /** Removes the gate's route from a target it was attached to. */
  detach(target: BrowserContext | Page): Promise<void>;
  /** The directives of a navigation: its header lines, one by one, and `<head>` metas (`metas`). */
  robots(response: Response): Promise<NavigationRobots>;
  /**
   * The refusal of the page's latest main-frame navigation, if the gate refused it (the URL or a
   * redirect hop); cleared when a later navigation of that page is served.
   */
  deniedNavigation(page: Page): RobotsDeniedError | undefined;
  /**
   * The same gate (options, served responses, refusals) sending through `view`, a view of its
   * policy that decides how each hop takes its pacing slot (the Crawlee adapter's hands a
   * navigation the slot its request manager obtained). Attached on its own: the route added
   * last answers first. Throws `RobotsInvalidOptionError` if `view` is not a policy.
   * @example
   * const paced = gate.withPolicy(leases.policy);
   * await paced.attach(page.context());
   */
  withPolicy(view: RobotsPolicy): PlaywrightGate;
}
