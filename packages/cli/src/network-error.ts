import type { RobotsFetchFailure } from '@polite-crawler/fetch';

/**
 * A short, human reason for a failed request: `connection refused`, `timed out`,
 * `host not found`, … — never a stack trace.
 *
 * @example
 * ```ts
 * try { await fetch(url); } catch (error) { console.error(describeNetworkError(error)); }
 * ```
 */
export function describeNetworkError(error: unknown): string {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8) {
    chain.push(current);
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  for (const item of chain) {
    if (typeof item !== 'object' || item === null) continue;
    const name = 'name' in item ? item.name : undefined;
    if (name === 'TimeoutError') return 'timed out';
    const code = 'code' in item ? item.code : undefined;
    const phrase = typeof code === 'string' ? CODE_PHRASES[code] : undefined;
    if (phrase !== undefined) return phrase;
  }
  const last = chain.at(-1);
  if (last instanceof Error && last.message !== '') return last.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * A duration in seconds for messages: `10 s`, `0.2 s`.
 *
 * @example
 * ```ts
 * formatSeconds(200); // '0.2 s'
 * ```
 */
export function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

const CODE_PHRASES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  UND_ERR_SOCKET: 'connection reset',
  EPIPE: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found',
  ETIMEDOUT: 'timed out',
  UND_ERR_CONNECT_TIMEOUT: 'timed out',
  UND_ERR_HEADERS_TIMEOUT: 'timed out',
  UND_ERR_BODY_TIMEOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

const KIND_PHRASES: Partial<Record<RobotsFetchFailure['kind'], string>> = {
  dns: 'host not found',
  connect: 'connection failed',
  reset: 'connection reset',
  timeout: 'timed out',
  'too-many-redirects': 'too many redirects',
  'redirect-loop': 'redirect loop',
};

/**
 * A short phrase for why robots.txt could not be fetched: `connection refused`,
 * `host not found`, `HTTP 503`, `TLS failure: …`.
 *
 * @example
 * ```ts
 * describeFailure({ kind: 'connect', message: 'connect ECONNREFUSED 127.0.0.1:9', code: 'ECONNREFUSED' });
 * // 'connection refused'
 * ```
 */
export function describeFailure(failure: RobotsFetchFailure): string {
  const byCode = failure.code === undefined ? undefined : CODE_PHRASES[failure.code];
  if (byCode !== undefined) return byCode;
  if (failure.kind === 'tls') return `TLS failure: ${failure.message}`;
  return KIND_PHRASES[failure.kind] ?? failure.message;
}
