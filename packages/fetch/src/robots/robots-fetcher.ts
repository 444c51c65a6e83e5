import type { Readable } from 'node:stream';
import { request } from 'undici';
import type { Dispatcher } from 'undici';
import { refusalIn } from '../transport/dispatcher-guard.js';
import { decodedBody, readCapped } from '../transport/body-reader.js';
import { ACCEPT_ENCODING } from '../transport/content-decoders.js';
import { parseRetryAfter } from '../pacing/retry-after.js';
import { REDIRECT_STATUSES } from '../redirects/redirect-rule.js';
import { onAbort, raceSignal } from '../time/signals.js';
import type { Clock } from '../time/clock.js';
import type {
  RobotsFailureKind,
  RobotsFetchFailure,
  RobotsFetchRecord,
  RobotsGoodCopy,
  RobotsStatus,
} from './robots-store.js';

/**
 * What {@link fetchRobotsTxt} needs; all validated by the policy factory.
 * @example
 * fetchRobotsTxt(url, { userAgent, dispatcher, headersTimeout: 10_000, bodyTimeout: 10_000, timeout: 30_000, maxBytes: 512_000, maxRedirects: 5, treat429AsUnreachable: true, clock } satisfies RobotsFetchSettings);
 */
export interface RobotsFetchSettings {
  readonly userAgent: string;
  readonly dispatcher: Dispatcher;
  readonly headersTimeout: number;
  readonly bodyTimeout: number;
  /** Overall time, on `clock`. */
  readonly timeout: number;
  readonly maxBytes: number;
  readonly maxRedirects: number;
  readonly treat429AsUnreachable: boolean;
  readonly clock: Clock;
}

/** The validators of a cached copy, for a conditional request. */
type RobotsValidators = Pick<RobotsGoodCopy, 'etag' | 'lastModified'>;

/**
 * The outcome of one robots.txt fetch: a pure value, never an exception.
 * @example
 * const outcome: RobotsFetchOutcome = await fetchRobotsTxt(url, settings);
 */
export interface RobotsFetchOutcome extends Omit<RobotsFetchRecord, 'fetchedAt'> {
  /** A conditional request was answered 304: the cached copy is still good. */
  readonly notModified: boolean;
  /**
   * The body read (decompressed), for a 2xx: at most `maxBytes`, plus the byte after them when
   * there is one (the parser looks at it to tell whether the last line is complete).
   */
  readonly body?: Uint8Array;
  readonly truncated: boolean;
  readonly etag?: string;
  readonly lastModified?: string;
  /** Freshness from `Cache-Control` in ms (`no-cache`/`no-store` → 0), when given. */
  readonly maxAge?: number;
  /** The `Age` a cache in between reported, in ms: the part of `maxAge` already used up. */
  readonly age?: number;
}

/**
 * What an HTTP status means for robots.txt (RFC 9309 §2.3.1): 2xx → `ok`; 4xx → `unavailable`
 * (429 → `unreachable` unless configured otherwise); 5xx and anything else → `unreachable`;
 * 3xx that is not a followable redirect → `unavailable`.
 * @example
 * statusOutcome(503, true); // 'unreachable'
 */
export function statusOutcome(status: number, treat429AsUnreachable: boolean): RobotsStatus {
  if (status >= 200 && status <= 299) return 'ok';
  if (status === 429) return treat429AsUnreachable ? 'unreachable' : 'unavailable';
  if (status >= 300 && status <= 499) return 'unavailable';
  return 'unreachable';
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Freshness lifetime from `Cache-Control`, in ms: `max-age` (the smallest, when repeated),
 * 0 for `no-cache` / `no-store`, `undefined` when it says nothing.
 * @example
 * cacheControlMaxAge('public, max-age=600'); // 600000
 */
export function cacheControlMaxAge(value: string | string[] | undefined): number | undefined {
  if (value === undefined) return undefined;
  const directives = (Array.isArray(value) ? value.join(',') : value).toLowerCase().split(',');
  let maxAge: number | undefined;
  for (const raw of directives) {
    const directive = raw.trim();
    if (directive === 'no-cache' || directive === 'no-store') return 0;
    const match = /^max-age\s*=\s*"?(\d{1,12})"?$/.exec(directive);
    if (match !== null) {
      const ms = Number(match[1]) * 1_000;
      maxAge = maxAge === undefined ? ms : Math.min(maxAge, ms);
    }
  }
  return maxAge;
}

/**
 * The `Age` header in ms (RFC 9111 §5.1: a non-negative whole number of seconds; the first
 * line counts), or `undefined` when absent or invalid.
 * @example
 * ageHeader('120'); // 120000
 */
export function ageHeader(value: string | string[] | undefined): number | undefined {
  const raw = first(value)?.trim();
  if (raw === undefined || !/^\d{1,12}$/.test(raw)) return undefined;
  return Number(raw) * 1_000;
}

/** Transport error codes by the failure they mean (TLS codes are told by their shape). */
const FAILURE_KINDS: ReadonlyMap<string, RobotsFailureKind> = new Map(
  Object.entries({
    dns: ['ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EAI_FAIL', 'EAI_NODATA'],
    connect: ['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'EHOSTDOWN'],
    timeout: [
      'UND_ERR_HEADERS_TIMEOUT',
      'UND_ERR_BODY_TIMEOUT',
      'UND_ERR_CONNECT_TIMEOUT',
      'ETIMEDOUT',
    ],
    reset: ['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'],
    network: ['ERR_UNSUPPORTED_CONTENT_ENCODING'],
  }).flatMap(([kind, codes]) => codes.map((code) => [code, kind as RobotsFailureKind] as const)),
);

function failureKind(code: string): RobotsFailureKind | undefined {
  const known = FAILURE_KINDS.get(code);
  if (known !== undefined) return known;
  const tls =
    code.startsWith('ERR_SSL_') ||
    code.startsWith('ERR_TLS_') ||
    code === 'EPROTO' ||
    code.includes('CERT') ||
    code.startsWith('UNABLE_TO_');
  if (tls) return 'tls';
  return code.startsWith('Z_') ? 'network' : undefined;
}

/**
 * Classifies a transport error (walking its `cause` chain) as DNS, connect, reset, TLS,
 * timeout or other network failure.
 * @example
 * classifyNetworkError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })).kind; // 'connect'
 */
export function classifyNetworkError(error: unknown): RobotsFetchFailure {
  let current: unknown = error;
  const message = error instanceof Error ? error.message : String(error);
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    const kind = typeof code === 'string' ? failureKind(code) : undefined;
    if (kind !== undefined) {
      return {
        kind,
        message: current instanceof Error ? current.message : message,
        code: String(code),
      };
    }
    current = (current as { cause?: unknown }).cause;
  }
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string'
    ? { kind: 'network', message, code }
    : { kind: 'network', message };
}

/** Stops reading a stream; undici reports an abort as an `error` event, which nobody needs here. */
function destroyQuietly(stream: Readable): void {
  if (stream.destroyed) return;
  stream.on('error', () => {});
  stream.destroy();
}

class OverallTimeout extends Error {
  readonly code = 'ERR_ROBOTS_FETCH_TIMEOUT';
}

/**
 * Fetches `robotsUrl` the RFC 9309 way (redirects across hosts, a decompressed byte limit) and
 * maps every result to an outcome. Only rejects when `signal` aborts (the policy is closing), or
 * with `RobotsInvalidOptionError` when the dispatcher refuses undici 8's handlers.
 * @example
 * const outcome = await fetchRobotsTxt('https://example.com/robots.txt', settings);
 * if (outcome.status === 'ok') parseRobotsTxt(outcome.body!);
 */
export async function fetchRobotsTxt(
  robotsUrl: string,
  settings: RobotsFetchSettings,
  options: { readonly signal?: AbortSignal; readonly validators?: RobotsValidators } = {},
): Promise<RobotsFetchOutcome> {
  const { signal, validators } = options;
  signal?.throwIfAborted();
  const controller = new AbortController();
  const unsubscribe =
    signal === undefined ? undefined : onAbort(signal, () => controller.abort(signal.reason));
  const timer = new AbortController();
  settings.clock.sleep(settings.timeout, timer.signal).then(
    () =>
      controller.abort(
        new OverallTimeout(`robots.txt fetch took longer than ${settings.timeout} ms`),
      ),
    () => {},
  );
  const redirects: string[] = [];
  try {
    return await fetchChain(robotsUrl, settings, validators, controller.signal, redirects);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    // A dispatcher that cannot be driven is the caller's mistake, not the site's: no verdict.
    const refusal = refusalIn(error);
    if (refusal !== undefined) throw refusal;
    const reason: unknown = controller.signal.reason;
    if (controller.signal.aborted && reason instanceof OverallTimeout) {
      const { message, code } = reason;
      return failed('unreachable', redirects, { kind: 'timeout', message, code });
    }
    return failed('unreachable', redirects, classifyNetworkError(error));
  } finally {
    timer.abort();
    unsubscribe?.();
  }
}

function failed(
  status: RobotsStatus,
  redirects: readonly string[],
  failure: RobotsFetchFailure,
  httpStatus?: number,
): RobotsFetchOutcome {
  const outcome = { status, redirects, failure, notModified: false, truncated: false };
  return httpStatus === undefined ? outcome : { ...outcome, httpStatus };
}

async function fetchChain(
  robotsUrl: string,
  settings: RobotsFetchSettings,
  validators: RobotsValidators | undefined,
  signal: AbortSignal,
  redirects: string[],
): Promise<RobotsFetchOutcome> {
  const headers: Record<string, string> = {
    'user-agent': settings.userAgent,
    accept: 'text/plain, */*;q=0.5',
    'accept-encoding': ACCEPT_ENCODING,
  };
  if (validators?.etag !== undefined) headers['if-none-match'] = validators.etag;
  if (validators?.lastModified !== undefined)
    headers['if-modified-since'] = validators.lastModified;
  const seen = new Set([robotsUrl]);
  let url = new URL(robotsUrl);
  for (;;) {
    // undici 8's `request` drives the dispatcher (undici 7's too) with undici 8's handlers. It
    // settles on abort only once the dispatcher has started the request: one that never calls
    // back would hold the fetch past every timeout, so the signal is raced here as well.
    const response = await raceSignal(
      request(url, {
        dispatcher: settings.dispatcher,
        method: 'GET',
        headers,
        headersTimeout: settings.headersTimeout,
        bodyTimeout: settings.bodyTimeout,
        signal,
      }),
      signal,
    );
    const status = response.statusCode;
    const discard = (): void => {
      response.body.dump({ limit: 65_536, signal }).catch(() => {});
    };
    if (REDIRECT_STATUSES.has(status)) {
      discard();
      const refuse = (kind: RobotsFailureKind, message: string): RobotsFetchOutcome =>
        failed('unavailable', redirects, { kind, message }, status);
      const location = first(response.headers.location);
      const next =
        location !== undefined && URL.canParse(location, url.href)
          ? new URL(location, url)
          : undefined;
      if (next === undefined || (next.protocol !== 'http:' && next.protocol !== 'https:')) {
        const what =
          location === undefined ? 'no Location' : `unusable Location ${JSON.stringify(location)}`;
        return refuse('invalid-redirect', `HTTP ${status} with ${what}`);
      }
      next.hash = '';
      if (seen.has(next.href)) return refuse('redirect-loop', `redirect loop back to ${next.href}`);
      if (redirects.length >= settings.maxRedirects) {
        return refuse('too-many-redirects', `more than ${settings.maxRedirects} redirects`);
      }
      redirects.push(next.href);
      seen.add(next.href);
      url = next;
      continue;
    }
    const etag = first(response.headers.etag);
    const lastModified = first(response.headers['last-modified']);
    const maxAge = cacheControlMaxAge(response.headers['cache-control']);
    const age = ageHeader(response.headers.age);
    const caching = {
      ...(etag === undefined ? {} : { etag }),
      ...(lastModified === undefined ? {} : { lastModified }),
      ...(maxAge === undefined ? {} : { maxAge }),
      ...(age === undefined ? {} : { age }),
    };
    const ok: RobotsFetchOutcome = {
      status: 'ok',
      httpStatus: status,
      redirects,
      notModified: false,
      truncated: false,
      ...caching,
    };
    if (status === 304 && validators !== undefined) {
      discard();
      return { ...ok, notModified: true };
    }
    const outcome = statusOutcome(status, settings.treat429AsUnreachable);
    if (outcome !== 'ok') {
      discard();
      const retryAfterMs =
        outcome === 'unreachable'
          ? parseRetryAfter(
              first(response.headers['retry-after']),
              settings.clock.now(),
              first(response.headers.date),
            )
          : undefined;
      return {
        ...failed(outcome, redirects, { kind: 'http-status', message: `HTTP ${status}` }, status),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        ...(outcome === 'unavailable' ? caching : {}),
      };
    }
    let decoded: Readable | undefined;
    try {
      decoded = decodedBody(response.body, response.headers['content-encoding']);
      // One byte past the limit is kept: the parser looks at it to tell whether the last line
      // within the limit is complete (a rule cut short must not be read as a broader one).
      const { bytes, truncated } = await readCapped(decoded, settings.maxBytes + 1);
      return { ...ok, body: bytes, truncated: truncated || bytes.byteLength > settings.maxBytes };
    } finally {
      if (decoded !== undefined) destroyQuietly(decoded);
      destroyQuietly(response.body);
    }
  }
}
