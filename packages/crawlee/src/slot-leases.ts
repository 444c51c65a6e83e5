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
  /** Hops inside a navigation waiting for a slot of an origin (oldest first): offered granted slots. */
  readonly #hops = new Map<string, Array<(ticket: OriginTicket) => boolean>>();
  #steal: (origin: string) => OriginTicket | undefined = () => undefined;
  readonly #byRequest = new WeakMap<
    object,
    { readonly key: string; readonly ticket: OriginTicket }
  >();
  /** The policy as the HTTP client sees it: `schedule` uses a lent slot when there is one. */
  readonly policy: RobotsPolicy;

  constructor(policy: RobotsPolicy) {
    this.policy = leasingView(policy, {
      take: (url) => this.#take(url),
      steal: (origin) => this.#steal(origin),
      wait: (origin, accept) => this.#wait(origin, accept),
    });
  }

  /**
   * Where a hop inside a navigation takes a slot granted for a request the crawler has not
   * taken yet (the manager's ready requests): the hop's request is already running, and would
   * otherwise wait for a slot held for a request that may need its crawler task.
   */
  stealFrom(steal: (origin: string) => OriginTicket | undefined): void {
    this.#steal = steal;
  }

  /**
   * Offers a slot granted to the manager to the oldest hop of `origin` waiting inside a
   * navigation; `false` when there is none (the slot stays the manager's).
   */
  offer(origin: string, ticket: OriginTicket): boolean {
    const waiting = this.#hops.get(origin);
    while (waiting !== undefined && waiting.length > 0) {
      const accept = waiting.shift()!;
      if (waiting.length === 0) this.#hops.delete(origin);
      if (accept(ticket)) return true;
    }
    return false;
  }

  /** Registers a waiting hop; returns the function that unregisters it. */
  #wait(origin: string, accept: (ticket: OriginTicket) => boolean): () => void {
    const list = this.#hops.get(origin);
    if (list === undefined) this.#hops.set(origin, [accept]);
    else list.push(accept);
    return () => {
      const current = this.#hops.get(origin);
      const at = current?.indexOf(accept) ?? -1;
      if (current === undefined || at === -1) return;
      current.splice(at, 1);
      if (current.length === 0) this.#hops.delete(origin);
    };
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

interface LeaseAccess {
  /** The slot lent for exactly this URL, if any. */
  take(url: string | URL): OriginTicket | undefined;
  /** A slot granted for a request of `origin` that the crawler has not taken yet, if any. */
  steal(origin: string): OriginTicket | undefined;
  /** Waits for a slot granted to the manager for `origin`; returns the unregister function. */
  wait(origin: string, accept: (ticket: OriginTicket) => boolean): () => void;
}

function originOf(url: string | URL): string | undefined {
  try {
    return new URL(String(url)).origin;
  } catch {
    return undefined;
  }
}

/**
 * `policy` with `schedule` running a task in a lent slot when one is waiting for its URL.
 * Otherwise (a redirect hop, a `sendRequest`) the task waits in the policy's queue for a slot of
 * its own, but takes a slot granted to the manager for the same origin if one is there or comes
 * first: a hop belongs to a request already running, and must never wait for a slot held for a
 * request that waits for a crawler task. Everything else is the policy's.
 */
function leasingView(policy: RobotsPolicy, leases: LeaseAccess): RobotsPolicy {
  const schedule = <T>(
    url: string | URL,
    task: (signal: AbortSignal) => Promise<T>,
    options?: CheckOptions,
  ): Promise<T> => {
    const lent = leases.take(url);
    if (lent !== undefined) return lent.run(task, options?.signal);
    const origin = originOf(url);
    if (origin === undefined) return policy.schedule(url, task, options);
    const ready = leases.steal(origin);
    if (ready !== undefined) return ready.run(task, options?.signal);
    return new Promise<T>((resolve, reject) => {
      let started = false;
      const mine = new AbortController();
      const signal =
        options?.signal === undefined
          ? mine.signal
          : AbortSignal.any([mine.signal, options.signal]);
      const leave = leases.wait(origin, (ticket) => {
        if (started) return false;
        started = true;
        mine.abort(new DOMException('a granted slot came first', 'AbortError'));
        ticket.run(task, options?.signal).then(resolve, reject);
        return true;
      });
      policy
        .schedule(
          url,
          (slot) => {
            started = true;
            leave();
            return task(slot);
          },
          { signal },
        )
        .then(
          (value) => {
            leave();
            resolve(value);
          },
          (error: unknown) => {
            leave();
            // Lost the race to a granted slot: that one settles the promise.
            if (mine.signal.aborted && options?.signal?.aborted !== true) return;
            reject(error instanceof Error ? error : new Error(String(error)));
          },
        );
    });
  };
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
    schedule,
    noteResponse: (url, status, headers) => policy.noteResponse(url, status, headers),
    directives: (lines, metaRules) => policy.directives(lines, metaRules),
    forget: (origin) => policy.forget(origin),
    close: () => policy.close(),
  };
}
