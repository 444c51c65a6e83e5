import { RequestState } from '@crawlee/core';
import type {
  AddRequestsBatchedOptions,
  AddRequestsBatchedResult,
  Dictionary,
  IRequestManager,
  Request,
  RequestQueueOperationInfo,
  RequestQueueOperationOptions,
  RequestsLike,
  Source,
} from '@crawlee/core';

import { isRobotsDeniedError } from '@polite-crawler/fetch';
import type { Decision } from '@polite-crawler/fetch';
import { originOf } from './origin-ticket.js';
import type { OriginTicket } from './origin-ticket.js';

/** How the manager asks the policy and reports a skip. */
export interface SkipGate {
  /** The decision for an http(s) URL about to be fetched. */
  decide(url: string): Promise<Decision>;
  /** The decision from the cache only, when robots.txt is known: used when requests are added. */
  peek(url: string): Decision | undefined;
  /** Reports a skipped URL (Crawlee's `onSkippedRequest` with reason `robotsTxt`, the adapter's event). */
  skipped(url: string, decision: Decision, stage: 'queue' | 'fetch'): Promise<void>;
}

/** How the manager obtains a request's pacing slot and lends it to the client that sends it. */
export interface RequestPacer {
  /** Queues for a pacing slot of `url`'s origin. */
  ticket(url: string): OriginTicket;
  /** The crawler is about to get `request`: its HTTP request is sent in `ticket`'s slot. */
  lend(request: Request, ticket: OriginTicket): void;
  /** The crawler is done with `request` (handled or reclaimed): a slot it did not use goes back. */
  settle(request: Request): void;
  /** Offers a granted slot to a waiting hop of a running request; `true` when it took it. */
  offer(origin: string, ticket: OriginTicket): boolean;
  /** Requests held waiting for their origin, at most; past it the manager pulls no more. */
  readonly maxWaitingRequests: number;
}

/** A request pulled from the queue, waiting for its origin since `since` (wall clock, as locks). */
interface Waiting {
  readonly request: Request;
  readonly since: number;
}

/** An origin's line: the requests pulled for it, behind its one place in the policy's queue. */
type Line = Waiting[];

/** A request for the crawler, with its granted slot until that is handed out or given back. */
interface Ready {
  readonly request: Request;
  ticket: OriginTicket | undefined;
}

/** Crawlee locks a fetched request for `requestLockSecs` (at least 60 s): held ones go back well before. */
const DEFAULT_LOCK_SECS = 60;

/**
 * An `IRequestManager` in front of the crawler's queue (or list, or both) that never hands the
 * crawler a request robots.txt refuses (it is marked handled as `SKIPPED` and reported; see the
 * README's "robots.txt skips"), and hands out a request only once its origin grants it a pacing
 * slot, so the wait is never inside Crawlee's timeouts (the README's "pacing"). An origin has one
 * place in the policy's queue at a time; the requests pulled behind it wait in its line, up to
 * `maxWaitingRequests` in all, and go back to the queue after half of its lock. The inner
 * manager is opened on first use, so that the crawler options can be built synchronously.
 * @example
 * new CheerioCrawler({ requestManager: new PoliteRequestManager(() => RequestQueue.open(), gate, pacer) });
 */
export class PoliteRequestManager implements IRequestManager {
  readonly #open: () => Promise<IRequestManager>;
  readonly #gate: SkipGate;
  readonly #pacer: RequestPacer;
  readonly #lines = new Map<string, Line>();
  readonly #ready: Ready[] = [];
  /** Requests pulled and not handed out yet (in lines or ready). */
  #held = 0;
  #inner: IRequestManager | undefined;
  #opening: Promise<IRequestManager> | undefined;
  /** Set by Crawlee's constructor on `crawler.requestQueue`; applied to the inner queue. */
  #tuning: Record<string, number> = {};

  constructor(open: () => Promise<IRequestManager>, gate: SkipGate, pacer: RequestPacer) {
    this.#open = open;
    this.#gate = gate;
    this.#pacer = pacer;
  }

  /** Requests pulled from the queue that wait for their origin's slot or for the crawler. */
  get waitingCount(): number {
    return this.#held;
  }

  /**
   * Crawlee treats a queue named `default` as purgeable between runs and would replace this
   * manager with a plain queue on a second `run()`: this one has no name.
   */
  get name(): undefined {
    return undefined;
  }

  get internalTimeoutMillis(): number | undefined {
    return this.#tuning.internalTimeoutMillis;
  }

  set internalTimeoutMillis(value: number) {
    this.#tune('internalTimeoutMillis', value);
  }

  get requestLockSecs(): number | undefined {
    return this.#tuning.requestLockSecs;
  }

  set requestLockSecs(value: number) {
    this.#tune('requestLockSecs', value);
  }

  #tune(key: string, value: number): void {
    this.#tuning[key] = value;
    if (this.#inner !== undefined && key in this.#inner)
      (this.#inner as unknown as Record<string, number>)[key] = value;
  }

  /** The queue (or list/queue tandem) this manager guards, opened on first use. */
  async inner(): Promise<IRequestManager> {
    if (this.#inner !== undefined) return this.#inner;
    this.#opening ??= this.#open().then((inner) => {
      this.#inner = inner;
      for (const [key, value] of Object.entries(this.#tuning)) this.#tune(key, value);
      return inner;
    });
    return this.#opening;
  }

  async isFinished(): Promise<boolean> {
    const inner = await this.inner();
    await this.#giveBackOld(inner);
    return this.#held === 0 && inner.isFinished();
  }

  /** Whether the crawler has nothing to take now (waiting requests keep it unfinished). */
  async isEmpty(): Promise<boolean> {
    const inner = await this.inner();
    await this.#giveBackOld(inner);
    if (this.#ready.length > 0) return false;
    if (this.#held >= this.#pacer.maxWaitingRequests) return true;
    return inner.isEmpty();
  }

  async handledCount(): Promise<number> {
    return (await this.inner()).handledCount();
  }

  getTotalCount(): number {
    return this.#inner?.getTotalCount() ?? 0;
  }

  getPendingCount(): number {
    return this.#inner?.getPendingCount() ?? 0;
  }

  async fetchNextRequest<T extends Dictionary = Dictionary>(): Promise<Request<T> | null> {
    const inner = await this.inner();
    const pacer = this.#pacer;
    for (;;) {
      const ready = this.#ready.shift();
      if (ready !== undefined) {
        this.#held -= 1;
        if (ready.ticket !== undefined) pacer.lend(ready.request, ready.ticket);
        return ready.request;
      }
      if (this.#held >= pacer.maxWaitingRequests) return null;
      const request = await inner.fetchNextRequest<T>();
      if (request === null || request.skipNavigation) return request;
      // Not an http(s) URL: robots.txt and pacing do not apply.
      const origin = originOf(request.url);
      if (origin === undefined) return request;
      const decision = await this.#gate.decide(request.url);
      if (!decision.allowed) {
        request.state = RequestState.SKIPPED;
        request.noRetry = true;
        await inner.markRequestHandled(request);
        await this.#gate.skipped(request.url, decision, 'fetch');
        continue;
      }
      const line = this.#lines.get(origin);
      if (line !== undefined) {
        // Behind the origin's place in the queue.
        line.push({ request, since: Date.now() });
        this.#held += 1;
        continue;
      }
      // The origin's line exists from now on, so that requests of the same origin pulled by
      // other crawler tasks while this one looks at its ticket queue behind it.
      const ticket = pacer.ticket(request.url);
      const mine: Line = [{ request, since: Date.now() }];
      this.#lines.set(origin, mine);
      this.#held += 1;
      // Lets a free slot be granted (that takes microtasks) before looking.
      await new Promise((resolve) => setImmediate(resolve));
      if (ticket.granted && mine[0]?.request === request) {
        mine.shift();
        this.#held -= 1;
        this.#queueNext(origin, mine);
        pacer.lend(request, ticket);
        return request;
      }
      // Not now: the request waits here, and the crawler gets one of a ready origin meanwhile.
      this.#await(origin, mine, ticket);
    }
  }

  /** Watches `origin`'s place in the queue: when granted, its first waiting request is ready. */
  #await(origin: string, line: Line, ticket: OriginTicket): void {
    ticket.ready.then(
      () => {
        // A running request's redirect hop goes first: it holds a crawler task already.
        if (line.length > 0 && this.#pacer.offer(origin, ticket)) {
          this.#queueNext(origin, line);
          return;
        }
        const first = line.shift();
        if (first === undefined) {
          // Everything waiting went back to the queue meanwhile.
          this.#lines.delete(origin);
          ticket.release();
          return;
        }
        const ready: Ready = { request: first.request, ticket };
        this.#ready.push(ready);
        // A crawler that stops taking requests (stopped, `maxRequestsPerCrawl` reached) must not
        // keep the origin's slot from everything else that shares the policy: a granted slot not
        // taken within half of the queue's lock goes back (the request is then paced by the HTTP
        // client, if it is ever taken).
        setTimeout(() => {
          if (ready.ticket === undefined || !this.#ready.includes(ready)) return;
          ready.ticket.release();
          ready.ticket = undefined;
        }, this.#holdMillis()).unref();
        this.#queueNext(origin, line);
      },
      (error: unknown) => {
        const refused = isRobotsDeniedError(error)
          ? line.findIndex(({ request }) => request.url === ticket.url)
          : -1;
        if (refused !== -1) {
          // The rules in force after the wait refuse the URL the slot was asked for: its request
          // goes to the crawler without a slot (the HTTP client's gate refuses and reports it);
          // the rest of the line asks again.
          const [{ request }] = line.splice(refused, 1) as [Waiting];
          this.#ready.push({ request, ticket: undefined });
          this.#queueNext(origin, line);
          return;
        }
        // The wait failed (the policy closed): nothing left to wait for; the HTTP client reports it.
        this.#lines.delete(origin);
        this.#ready.push(...line.splice(0).map(({ request }) => ({ request, ticket: undefined })));
      },
    );
  }

  /** The origin's place in the queue goes to the first request of its line; no line without one. */
  #queueNext(origin: string, line: Line): void {
    const next = line[0];
    if (next === undefined) this.#lines.delete(origin);
    else this.#await(origin, line, this.#pacer.ticket(next.request.url));
  }

  /** Takes a slot granted to a ready request of `origin` for a hop; the request goes back in line. */
  stealReady(origin: string): OriginTicket | undefined {
    const at = this.#ready.findIndex(
      (ready) => ready.ticket !== undefined && originOf(ready.request.url) === origin,
    );
    const ready = this.#ready[at];
    if (ready?.ticket === undefined) return undefined;
    const { ticket } = ready;
    this.#ready.splice(at, 1);
    const line = this.#lines.get(origin);
    const waiting: Waiting = { request: ready.request, since: Date.now() };
    if (line !== undefined) {
      line.unshift(waiting);
    } else {
      const fresh: Line = [waiting];
      this.#lines.set(origin, fresh);
      this.#queueNext(origin, fresh);
    }
    return ticket;
  }

  /** How long a request (or a granted slot) is held for the crawler: half of the queue's lock. */
  #holdMillis(): number {
    return ((this.#tuning.requestLockSecs ?? DEFAULT_LOCK_SECS) * 1_000) / 2;
  }

  /** Gives requests held for half of their lock back to the queue: no lock runs out here. */
  async #giveBackOld(inner: IRequestManager): Promise<void> {
    if (this.#held === 0) return;
    const oldest = Date.now() - this.#holdMillis();
    const back: Request[] = [];
    for (const line of this.#lines.values()) {
      while (line[0] !== undefined && line[0].since <= oldest) back.push(line.shift()!.request);
    }
    this.#held -= back.length;
    for (const request of back) await inner.reclaimRequest(request);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Request> {
    for (;;) {
      const request = await this.fetchNextRequest();
      if (request === null) return;
      yield request;
    }
  }

  async markRequestHandled(request: Request): Promise<RequestQueueOperationInfo | void | null> {
    this.#pacer.settle(request);
    return (await this.inner()).markRequestHandled(request);
  }

  async reclaimRequest(
    request: Request,
    options?: RequestQueueOperationOptions,
  ): Promise<RequestQueueOperationInfo | null> {
    this.#pacer.settle(request);
    return (await this.inner()).reclaimRequest(request, options);
  }

  async addRequest(
    requestLike: Source,
    options?: RequestQueueOperationOptions,
  ): Promise<RequestQueueOperationInfo> {
    return (await this.inner()).addRequest(requestLike, options);
  }

  async addRequestsBatched(
    requests: RequestsLike,
    options?: AddRequestsBatchedOptions,
  ): Promise<AddRequestsBatchedResult> {
    const inner = await this.inner();
    const dropped: Array<[string, Decision]> = [];
    const refused = (source: Source | string): boolean => {
      const { url, skipNavigation } = typeof source === 'string' ? { url: source } : source;
      // Not an http(s) URL: the crawler deals with it.
      if (url === undefined || skipNavigation === true || originOf(url) === undefined) return false;
      const decision = this.#gate.peek(url);
      // Only a rule drops a request here: "unreachable" may be transient, it is decided later.
      if (decision?.reason !== 'disallowed') return false;
      dropped.push([url, decision]);
      return true;
    };
    // Filtered as the queue consumes them (Crawlee reads any iterable with `for await`): a large
    // iterable is never materialised here.
    const filtered = (async function* filter() {
      for await (const source of requests) if (!refused(source)) yield source;
    })();
    const result = await inner.addRequestsBatched(filtered, options);
    const report = async (): Promise<void> => {
      for (const [url, decision] of dropped.splice(0))
        await this.#gate.skipped(url, decision, 'queue');
    };
    await report();
    // Requests past the first batch are added in the background: report their skips as they go.
    void result.waitForAllRequestsToBeAdded.then(report, () => undefined);
    return result;
  }
}
