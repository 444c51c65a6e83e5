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

import type { Decision } from '@polite-crawler/fetch';

/** How the manager asks the policy and reports a skip. */
export interface SkipGate {
  /**
   * The decision for a URL about to be fetched (resolving robots.txt if needed), or `undefined`
   * when robots.txt does not apply (not an http(s) URL).
   */
  decide(url: string): Promise<Decision | undefined>;
  /** The decision from the cache only, when robots.txt is known: used when requests are added. */
  peek(url: string): Decision | undefined;
  /** Reports a skipped URL (Crawlee's `onSkippedRequest` with reason `robotsTxt`, the adapter's event). */
  skipped(url: string, decision: Decision, stage: 'queue' | 'fetch'): Promise<void>;
}

type SourceLike = Source | string;

function urlOf(source: SourceLike): string | undefined {
  return typeof source === 'string' ? source : source.url;
}

function skipsNavigation(source: SourceLike): boolean {
  return typeof source !== 'string' && source.skipNavigation === true;
}

function isAsyncIterable(value: RequestsLike): value is AsyncIterable<SourceLike> {
  return typeof (value as Partial<AsyncIterable<SourceLike>>)[Symbol.asyncIterator] === 'function';
}

/**
 * An `IRequestManager` in front of the crawler's queue (or list, or both) that never hands the
 * crawler a request robots.txt refuses. Such a request is marked handled with state `SKIPPED`,
 * never retried, and reported through Crawlee's `onSkippedRequest` with reason `robotsTxt`; it
 * never reaches the crawler's statistics (neither finished nor failed). Requests whose origin's
 * robots.txt is already cached and disallows them are dropped when they are added
 * (`crawler.addRequests`, `enqueueLinks`); the others are decided when their turn comes.
 *
 * The inner manager is opened on first use, so that the crawler options can be built
 * synchronously.
 * @example
 * new CheerioCrawler({ requestManager: new PoliteRequestManager(() => RequestQueue.open(), gate) });
 */
export class PoliteRequestManager implements IRequestManager {
  readonly #open: () => Promise<IRequestManager>;
  readonly #gate: SkipGate;
  #inner: IRequestManager | undefined;
  #opening: Promise<IRequestManager> | undefined;
  /** Set by Crawlee's constructor on `crawler.requestQueue`; applied to the inner queue. */
  #tuning: Record<string, number> = {};

  constructor(open: () => Promise<IRequestManager>, gate: SkipGate) {
    this.#open = open;
    this.#gate = gate;
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
    return (await this.inner()).isFinished();
  }

  async isEmpty(): Promise<boolean> {
    return (await this.inner()).isEmpty();
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
    for (;;) {
      const request = await inner.fetchNextRequest<T>();
      if (request === null || request.skipNavigation) return request;
      const decision = await this.#gate.decide(request.url);
      if (decision === undefined || decision.allowed) return request;
      request.state = RequestState.SKIPPED;
      request.noRetry = true;
      await inner.markRequestHandled(request);
      await this.#gate.skipped(request.url, decision, 'fetch');
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Request> {
    for (;;) {
      const request = await this.fetchNextRequest();
      if (request === null) return;
      yield request;
    }
  }

  async markRequestHandled(request: Request): Promise<RequestQueueOperationInfo | void | null> {
    return (await this.inner()).markRequestHandled(request);
  }

  async reclaimRequest(
    request: Request,
    options?: RequestQueueOperationOptions,
  ): Promise<RequestQueueOperationInfo | null> {
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
    const refused = (source: SourceLike): boolean => {
      const url = urlOf(source);
      if (url === undefined || skipsNavigation(source)) return false;
      let decision: Decision | undefined;
      try {
        decision = this.#gate.peek(url);
      } catch {
        return false; // not an http(s) URL: the crawler deals with it
      }
      // Only a rule drops a request here: "unreachable" may be transient, it is decided later.
      if (decision?.reason !== 'disallowed') return false;
      dropped.push([url, decision]);
      return true;
    };
    // Filtered as the queue consumes them: a large iterable is never materialised here.
    let filtered: RequestsLike;
    if (Array.isArray(requests)) {
      filtered = (requests as SourceLike[]).filter((source) => !refused(source));
    } else if (isAsyncIterable(requests)) {
      filtered = (async function* filter() {
        for await (const source of requests) if (!refused(source)) yield source;
      })();
    } else {
      const sync = requests;
      filtered = (function* filter() {
        for (const source of sync) if (!refused(source)) yield source;
      })();
    }
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
