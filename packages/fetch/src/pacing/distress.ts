/**
 * What counts as a server in distress (the crawler best practices ask crawlers to back off on
 * HTTP's 5xx signals): the statuses below, a 429 or 503 only when no `Retry-After` says when to
 * come back, and transport failures that mean the server did not answer in time or dropped
 * the connection. Pure: no I/O, no clock.
 */

/** Statuses that are distress whatever their headers say. */
const DISTRESS_STATUSES: ReadonlySet<number> = new Set([408, 500, 502, 504]);
/** Statuses that are distress unless a `Retry-After` says when to come back. */
const SLOW_DOWN_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/**
 * Whether a response status is a distress outcome. `retryAfter`: the response carries a
 * `Retry-After` the policy honoured (on a 429 or 503, the only statuses it is read on): then
 * the pause it asks for decides the wait, not the back-off. A 408 is distress either way (the
 * server gave up waiting for the request); so are a 500, 502 and 504, whose `Retry-After` is
 * not read.
 * @example
 * isDistressStatus(503); // true
 * isDistressStatus(503, true); // false: the Retry-After pause wins
 */
export function isDistressStatus(status: number, retryAfter = false): boolean {
  return DISTRESS_STATUSES.has(status) || (!retryAfter && SLOW_DOWN_STATUSES.has(status));
}

/**
 * Why a transport failure is distress: the server did not answer in time (`timeout`), or it
 * refused or dropped the connection (`connection`).
 * @example
 * const cause: DistressFailure = 'timeout';
 */
export type DistressFailure = 'timeout' | 'connection';

// Error codes of Node's sockets, undici and got (Crawlee's HTTP client).
const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const CONNECTION_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
]);
// Playwright's request API reports failures as messages only ("connect ECONNREFUSED …",
// "socket hang up", "Timeout 30000ms exceeded").
const TIMEOUT_TEXT = /\b(?:ETIMEDOUT|ESOCKETTIMEDOUT)\b|\bTimeout \d+ms exceeded\b/;
const CONNECTION_TEXT =
  /\b(?:ECONNREFUSED|ECONNRESET|ECONNABORTED|EPIPE|EHOSTUNREACH|ENETUNREACH)\b|\bsocket hang up\b/;
/** How deep the `cause` chain is followed (fetch wraps undici's error in a `TypeError`). */
const MAX_CAUSES = 5;

/**
 * Whether a request's failure is distress, and which kind; `undefined` for anything else: an
 * abort by the caller, a refusal by robots.txt, a DNS or TLS failure (the server was never
 * reached: backing off would not relieve it), a programming error. A `TimeoutError` (the
 * caller's `AbortSignal.timeout`, got's and Playwright's timeouts) is a timeout.
 * @example
 * distressOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })); // 'connection'
 */
export function distressOf(error: unknown): DistressFailure | undefined {
  let current = error;
  for (let depth = 0; depth <= MAX_CAUSES; depth += 1) {
    if (typeof current !== 'object' || current === null) return undefined;
    const { code, name, message } = current as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
    };
    if (typeof code === 'string') {
      if (TIMEOUT_CODES.has(code)) return 'timeout';
      if (CONNECTION_CODES.has(code)) return 'connection';
    }
    if (name === 'TimeoutError') return 'timeout';
    if (name === 'AbortError') return undefined;
    if (typeof message === 'string') {
      if (TIMEOUT_TEXT.test(message)) return 'timeout';
      if (CONNECTION_TEXT.test(message)) return 'connection';
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
