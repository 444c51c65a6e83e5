/**
 * How robots.txt was obtained (RFC 9309 §2.3.1):
 * - `ok`: a 2xx body was read and parsed; its rules apply.
 * - `unavailable`: 4xx (except 429 by default) or too many redirects; everything is allowed.
 * - `unreachable`: 5xx, 429, network/TLS/DNS failure or timeout; everything is disallowed
 *   (unless a good copy from the last 30 days is still served: see {@link Decision.stale}).
 * @example
 * if (explanation.robotsTxt.status === ('unreachable' satisfies RobotsStatus)) retryLater();
 */
export type RobotsStatus = 'ok' | 'unavailable' | 'unreachable';

/**
 * Why a robots.txt fetch was not a plain success.
 * @example
 * if (explanation.robotsTxt.latest.failure?.kind === ('dns' satisfies RobotsFailureKind)) checkHostName();
 */
export type RobotsFailureKind =
  | 'http-status' // a status mapped to unavailable/unreachable
  | 'too-many-redirects'
  | 'redirect-loop'
  | 'invalid-redirect' // missing/unparseable Location, or a non-http(s) target
  | 'dns'
  | 'connect' // refused, unreachable host
  | 'reset' // connection reset or closed mid-response
  | 'tls'
  | 'timeout' // headers, body or overall timeout
  | 'network'; // any other transport failure

/**
 * @example
 * const failure: RobotsFetchFailure | undefined = explanation.robotsTxt.latest.failure;
 */
export interface RobotsFetchFailure {
  readonly kind: RobotsFailureKind;
  /** Human-readable detail, e.g. the underlying error message or `HTTP 503`. */
  readonly message: string;
  /** The underlying error code, when there was one (`ECONNREFUSED`, `ENOTFOUND`, ...). */
  readonly code?: string;
}

/**
 * The outcome of the latest robots.txt fetch attempt for one origin. JSON-serialisable.
 * @example
 * const { status, httpStatus }: RobotsFetchRecord = explanation.robotsTxt.latest;
 */
export interface RobotsFetchRecord {
  readonly status: RobotsStatus;
  /** Final HTTP status, when a response was received. */
  readonly httpStatus?: number;
  /** The `Location` targets followed, in order (absolute URLs). */
  readonly redirects: readonly string[];
  /** When the attempt finished (clock ms). */
  readonly fetchedAt: number;
  readonly failure?: RobotsFetchFailure;
  /** A `Retry-After` on a 429/5xx answer, in ms, before capping. */
  readonly retryAfterMs?: number;
}

/**
 * The last successfully fetched (2xx) robots.txt of an origin. JSON-serialisable.
 * @example
 * const text = Buffer.from(stored.good!.body, 'base64').toString('utf8');
 */
export interface RobotsGoodCopy {
  /** The bytes read (at most the byte limit), base64-encoded. */
  readonly body: string;
  readonly bytes: number;
  /** Whether the body was cut at the byte limit. */
  readonly truncated: boolean;
  readonly httpStatus: number;
  readonly redirects: readonly string[];
  /** When it was fetched or last revalidated with a 304 (clock ms). */
  readonly fetchedAt: number;
  readonly etag?: string;
  readonly lastModified?: string;
  /** Its `Cache-Control: max-age` (ms), kept: a 304 without one keeps it (RFC 9111 §4.3.4). */
  readonly maxAge?: number;
}

/**
 * What a {@link RobotsStore} holds for one origin: plain JSON, so that a shared store (Redis)
 * can hold it too.
 * @example
 * const entry: StoredRobots | undefined = await store.get('https://example.com');
 */
export interface StoredRobots {
  readonly version: 1;
  /** `scheme://authority/robots.txt` of the origin. */
  readonly robotsUrl: string;
  readonly latest: RobotsFetchRecord;
  /** The last 2xx copy, kept to be served while the origin is unreachable (up to `staleIfUnreachable`). */
  readonly good?: RobotsGoodCopy;
  /** When this entry must be refreshed (clock ms). */
  readonly expiresAt: number;
}

/**
 * Where robots.txt outcomes are kept between requests; async, so that a shared store can back
 * a fleet of crawlers (the policy keeps a bounded LRU of parsed entries in front of it).
 * @example
 * const store: RobotsStore = createMemoryRobotsStore({ maxOrigins: 50_000 });
 */
export interface RobotsStore {
  get(origin: string): Promise<StoredRobots | undefined>;
  set(origin: string, entry: StoredRobots): Promise<void>;
  delete(origin: string): Promise<void>;
  /**
   * Optional, for stores shared by several processes, so that one of them fetches robots.txt
   * for `origin` and the others read its result (see {@link RobotsFetchClaim}). Called when
   * this process is about to fetch; rejects on `signal` abort. A dead process's claim expires.
   */
  claimFetch?(origin: string, signal?: AbortSignal): Promise<RobotsFetchClaim>;
}

/**
 * The answer of {@link RobotsStore.claimFetch}: `fetch: true`, fetch robots.txt, `set` the
 * outcome, then `release()`; `fetch: false`, another process stored a new entry: `get` it.
 * @example
 * const claim: RobotsFetchClaim = await store.claimFetch!(origin);
 * if (claim.fetch) try { await fetchAndStore(); } finally { await claim.release(); }
 */
export type RobotsFetchClaim =
  { readonly fetch: true; release(): Promise<void> } | { readonly fetch: false };
