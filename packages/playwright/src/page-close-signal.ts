import { setMaxListeners } from 'node:events';
import type { Page, Request } from 'playwright-core';

/**
 * The page a browser request was made for, or `undefined` (a service worker's has no frame).
 * @example
 * const page = pageOfRequest(route.request());
 */
export function pageOfRequest(request: Request): Page | undefined {
  try {
    return request.frame().page();
  } catch {
    return undefined;
  }
}

/**
 * Hands out one signal per page, aborted when the page closes: a request still waiting for
 * robots.txt or its pacing slot is then dropped, never sent (it would only hold the slot from
 * the requests of pages still open).
 * @example
 * const signalOf = pageCloseSignals();
 * await policy.schedule(url, task, { signal: signalOf(page) });
 */
export function pageCloseSignals(): (page: Page) => AbortSignal {
  const signals = new WeakMap<Page, AbortSignal>();
  return (page) => {
    let signal = signals.get(page);
    if (signal === undefined) {
      const controller = new AbortController();
      // An `AbortError`, as for any cancelled request.
      const abort = (): void =>
        controller.abort(
          new DOMException('the page closed before this request was sent', 'AbortError'),
        );
      signal = controller.signal;
      // One listener per request of the page still waiting (each removed as it leaves): a page
      // with many images would otherwise set off Node's warning about a leak.
      setMaxListeners(0, signal);
      signals.set(page, signal);
      if (page.isClosed()) abort();
      else page.once('close', abort);
    }
    return signal;
  };
}
