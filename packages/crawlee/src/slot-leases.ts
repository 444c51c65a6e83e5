import type { EnterOptions, HopSlot, RobotsPolicy } from '@polite-crawler/fetch';
import { originOf } from './origin-ticket.js';
import type { OriginTicket } from './origin-ticket.js';

/**
 * The pacing slots the request manager obtained for the requests it handed to the crawler,
 * waiting to be used by the HTTP client. A slot is lent for one exact URL (the request's) and
 * used by the first request for that URL the client sends; one never used is given back when
 * the crawler is done with its request.
 * @example
 * leases.lend(request, ticket);              // the manager, handing `request` out
 * const slot = await leases.policy.enter(url); // the HTTP client's first hop: the lent slot
 * leases.settle(request);                    // the manager, when the request is handled or reclaimed
 */
export class SlotLeases {
  readonly #byUrl = new Map<string, OriginTicket[]>();
  /** Hops inside a navigation waiting for a slot of an origin (oldest first): offered granted slots. */
  readonly #hops = new Map<string, Array<(ticket: OriginTicket) => boolean>>();
  readonly #steal: (origin: string) => OriginTicket | undefined;
  readonly #byRequest = new WeakMap<object, { key: string; ticket: OriginTicket }>();
  readonly #policy: RobotsPolicy;
  /** The policy as the HTTP client sees it: `enter` hands out a lent slot when there is one. */
  readonly policy: RobotsPolicy;

  /** `steal`: where a hop takes a slot granted to a request the crawler has not taken (`#enter`). */
  constructor(
    policy: RobotsPolicy,
    steal: (origin: string) => OriginTicket | undefined = () => undefined,
  ) {
    this.#policy = policy;
    this.#steal = steal;
    this.policy = withEnter(policy, (url, options) => this.#enter(url, options));
  }

  /** Offers a slot granted to the manager to the oldest hop of `origin` waiting; `false` if none. */
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
    // A slot handed to the HTTP client is the client's to give back: then this is a no-op.
    ticket.release();
  }

  /** Slots lent and not yet used. */
  get size(): number {
    let size = 0;
    for (const list of this.#byUrl.values()) size += list.length;
    return size;
  }

  /**
   * The view's `enter`: the first hop of a request takes the slot lent for it. Any other hop (a
   * redirect, a `sendRequest`) enters the policy, but takes a slot granted to the manager for
   * its origin if one is there or comes first: it belongs to a request already running, and must
   * never wait for a slot held for a request that waits for a crawler task.
   */
  #enter(url: string | URL, options?: EnterOptions): Promise<HopSlot> {
    if (options?.paced === false) return this.#policy.enter(url, options);
    const lent = options?.redirectedFrom === undefined ? this.#take(url) : undefined;
    if (lent !== undefined) return inTicket(this.#policy, url, lent, options);
    const origin = originOf(url);
    if (origin === undefined) return this.#policy.enter(url, options);
    const ready = this.#steal(origin);
    if (ready !== undefined) return inTicket(this.#policy, url, ready, options);
    const mine = new AbortController();
    const signal =
      options?.signal === undefined ? mine.signal : AbortSignal.any([mine.signal, options.signal]);
    const own = this.#policy.enter(url, { ...options, signal });
    return new Promise<HopSlot>((resolve, reject) => {
      let settled = false;
      const leave = this.#wait(origin, (ticket) => {
        if (settled) return false;
        settled = true;
        mine.abort(new DOMException('a granted slot came first', 'AbortError'));
        inTicket(this.#policy, url, ticket, options).then(resolve, reject);
        return true;
      });
      own.then(
        (slot) => {
          leave();
          // A granted slot was offered first: this one is not needed.
          if (settled) slot.release();
          else resolve(slot);
          settled = true;
        },
        (error: unknown) => {
          leave();
          // Lost the race to a granted slot: that one settles the promise.
          if (!settled) reject(error instanceof Error ? error : new Error(String(error)));
          settled = true;
        },
      );
    });
  }

  #take(url: string | URL): OriginTicket | undefined {
    const key = keyOf(url);
    const list = this.#byUrl.get(key);
    const ticket = list?.shift();
    if (list !== undefined && list.length === 0) this.#byUrl.delete(key);
    return ticket;
  }
}

/** The URL as sent: a fragment never reaches the server (a browser drops it from the request). */
function keyOf(url: string | URL): string {
  try {
    const parsed = new URL(String(url));
    parsed.hash = '';
    return parsed.href;
  } catch {
    return String(url);
  }
}

/**
 * The hop at `url` in `ticket`'s slot. A slot granted for exactly this URL is the policy's whole
 * answer (admitted, paced, re-checked); one granted for another URL of the origin carries only
 * the pacing: the hop is admitted by the policy, unpaced, before it goes out.
 */
async function inTicket(
  policy: RobotsPolicy,
  url: string | URL,
  ticket: OriginTicket,
  options: EnterOptions | undefined,
): Promise<HopSlot> {
  const paced = ticket.claim();
  if (paced === undefined) return policy.enter(url, options);
  if (keyOf(paced.url) === keyOf(url) && options?.redirectedFrom === undefined) {
    // Granted when the request was handed to the crawler, sent only now: the origin's next
    // start counts from now.
    paced.sent();
    return paced;
  }
  let admitted: HopSlot;
  try {
    admitted = await policy.enter(url, { ...options, paced: false });
  } catch (error) {
    paced.release();
    throw error;
  }
  paced.sent();
  return {
    url: admitted.url,
    noteResponse: (status, headers) => paced.noteResponse(status, headers),
    noteFailure: (error) => paced.noteFailure(error),
    sent: () => {},
    release: () => {
      admitted.release();
      paced.release();
    },
  };
}

/** `policy` with its own `enter` replaced; everything else is the policy's (methods bound to it). */
function withEnter(policy: RobotsPolicy, enter: RobotsPolicy['enter']): RobotsPolicy {
  return new Proxy(policy, {
    get(target, key) {
      if (key === 'enter') return enter;
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}
