import type { BrowserContext, Page, Response, Route } from 'playwright-core';
import { adapterDispatcher, robotsPolicyOption } from '@polite-crawler/fetch/internal';
import { readNavigationRobots } from './navigation-robots.js';
import { resolveGateOptions } from './resolve-options.js';
import type { ResolvedGateOptions } from './resolve-options.js';
import { createRouteHandler } from './route-handler.js';
import type { RouteHandlerDeps } from './route-handler.js';
import type { NavigationRobots, PlaywrightGate, PlaywrightGateOptions } from './types.js';

const ALL_URLS = '**/*';

/** A page has `mainFrame`; a browser context does not. */
function isPage(target: BrowserContext | Page): target is Page {
  return typeof (target as Partial<Page>).mainFrame === 'function';
}

/**
 * Creates a gate that routes a browser's requests through a robots policy. Attach it to a
 * browser context (covers popups and every page) or to a page: every request is then checked,
 * hop by hop, before anything is sent (a refused one is aborted with
 * `net::ERR_BLOCKED_BY_CLIENT`) and paced (README: "How a request goes through the gate").
 * @example
 * const policy = createRobotsPolicy({ userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' });
 * const gate = createPlaywrightGate({ policy });
 * const context = await browser.newContext({ userAgent: policy.userAgent, serviceWorkers: 'block' });
 * await gate.attach(context);
 * const page = await context.newPage();
 * const response = await page.goto('https://example.com/');
 * if (response && (await gate.robots(response)).directives.noindex) console.log('not for the index');
 */
export function createPlaywrightGate(options: PlaywrightGateOptions): PlaywrightGate {
  const resolved = resolveGateOptions(options);
  return gateOver(resolved, {
    served: new WeakMap(),
    deniedNavigations: new WeakMap(),
    // One chain per gate: its views (`withPolicy`) share its cache and deduplication.
    transport:
      resolved.cache.store === false
        ? undefined
        : adapterDispatcher(resolved.policy.dispatcher, resolved.cache.store),
  });
}

/** What a gate and the gates made from it with `withPolicy` share. */
type GateRecords = Pick<RouteHandlerDeps, 'served' | 'deniedNavigations' | 'transport'>;

function gateOver(resolved: ResolvedGateOptions, records: GateRecords): PlaywrightGate {
  const { served, deniedNavigations } = records;
  const handlers = new WeakMap<BrowserContext | Page, (route: Route) => Promise<void>>();

  return {
    policy: resolved.policy,

    async attach(target) {
      if (handlers.has(target)) return;
      const context = isPage(target) ? target.context() : target;
      const handler = createRouteHandler({ options: resolved, api: context.request, ...records });
      handlers.set(target, handler);
      await target.route(ALL_URLS, handler);
    },

    async detach(target) {
      const handler = handlers.get(target);
      if (handler === undefined) return;
      handlers.delete(target);
      await target.unroute(ALL_URLS, handler);
    },

    async robots(response: Response): Promise<NavigationRobots> {
      return readNavigationRobots(response, resolved, served.get(response.request()));
    },

    deniedNavigation(page) {
      return deniedNavigations.get(page);
    },

    withPolicy(view) {
      return gateOver({ ...resolved, policy: robotsPolicyOption('view', view) }, records);
    },
  };
}
