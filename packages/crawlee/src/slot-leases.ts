import type { CheckOptions, RobotsPolicy } from '@polite-crawler/fetch';
import type { OriginTicket } from './origin-ticket.js';

/**
 * The pacing slots the request manager obtained for the requests it handed to the crawler,
 * waiting to be used by the HTTP client. A slot is lent for one exact URL (the request's) and
 * used by the first request for that URL the client sends; one never used is given back when
 * the crawler is done with its request.
 * @example
 * leases.lend(request, ticket);            // the manager, handing `request` out
 * await leases.policy.schedule(url, task); // the HTTP client: runs in the lent slot
 * leases.settle(request);                  // the manager, when the request is handled or reclaimed
 */
export class SlotLeases {
  readonly #byUrl = new Map<string, OriginTicket[]>();
  readonly #byRequest = new WeakMap<
    object,
    { readonly key: string; readonly ticket: OriginTicket }
  >();
  /** The policy as the HTTP client sees it: `schedule` uses a lent slot when there is one. */
  readonly policy: RobotsPolicy;

  constructor(policy: RobotsPolicy) {
    this.policy = leasingView(policy, (url) => this.#take(url));
  }

  /** Lends `ticket`'s granted slot to the next request sent for `request.url`. */
  lend(request: { readonly url: string }, ticket: OriginTicket): void {
    const key = keyOf(request.url);
    const list = this.#byUrl.get(key);
    if (list === undefined) this.#byUrl.set(key, [ticket]);
    else list.push(ticket);
    this.#byRequest.set(request, { key, ticket });
  }

  /** Gives back the slot lent for `request` if it was not used (a no-op otherwise). */
  settle(request: object): void {
    const lent = this.#byRequest.get(request);
    if (lent === undefined) return;
    this.#byRequest.delete(request);
    const { key, ticket } = lent;
    const list = this.#byUrl.get(key);
    const at = list?.indexOf(ticket) ?? -1;
    if (list !== undefined && at !== -1) {
      list.splice(at, 1);
      if (list.length === 0) this.#byUrl.delete(key);
    }
    // Releasing a slot that was used (and so already given back) is a no-op.
    ticket.release();
  }

  /** Slots lent and not yet used. */
  get size(): number {
    let size = 0;
    for (const list of this.#byUrl.values()) size += list.length;
    return size;
  }

  #take(url: string | URL): OriginTicket | undefined {
    const key = keyOf(url);
    const list = this.#byUrl.get(key);
    const ticket = list?.shift();
    if (list !== undefined && list.length === 0) this.#byUrl.delete(key);
    return ticket;
  }
}

function keyOf(url: string | URL): string {
  try {
    return new URL(String(url)).href;
  } catch {
    return String(url);
  }
}

/**
 * `policy` with `schedule` running a task in a lent slot when one is waiting for its URL, and
 * in a slot of its own otherwise. Everything else is the policy's.
 */
function leasingView(
  policy: RobotsPolicy,
  take: (url: string | URL) => OriginTicket | undefined,
): RobotsPolicy {
  return {
    get userAgent() {
      return policy.userAgent;
    },
    get productToken() {
      return policy.productToken;
    },
    get purpose() {
      return policy.purpose;
    },
    get dispatcher() {
      return policy.dispatcher;
    },
    get clock() {
      return policy.clock;
    },
    check: (url, options) => policy.check(url, options),
    assertAllowed: (url, options) => policy.assertAllowed(url, options),
    explain: (url, options) => policy.explain(url, options),
    peek: (url) => policy.peek(url),
    prefetch: (origins, options) => policy.prefetch(origins, options),
    schedule<T>(
      url: string | URL,
      task: (signal: AbortSignal) => Promise<T>,
      options?: CheckOptions,
    ): Promise<T> {
      const ticket = take(url);
      return ticket === undefined
        ? policy.schedule(url, task, options)
        : ticket.run(task, options?.signal);
    },
    noteResponse: (url, status, headers) => policy.noteResponse(url, status, headers),
    directives: (lines, metaRules) => policy.directives(lines, metaRules),
    forget: (origin) => policy.forget(origin),
    close: () => policy.close(),
  };
}
