/**
 * A short, human reason for a failed request: `connection refused`, `timed out after 10 s`,
 * `host not found`, … — never a stack trace.
 *
 * @example
 * ```ts
 * try { await fetch(url); } catch (error) { console.error(describeNetworkError(error)); }
 * ```
 */
export function describeNetworkError(error: unknown, timeoutMs?: number): string {
  const chain: unknown[] = [];
  let current: unknown = error;
  while (current !== undefined && current !== null && chain.length < 8) {
    chain.push(current);
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  for (const item of chain) {
    if (typeof item !== 'object' || item === null) continue;
    const name = 'name' in item ? item.name : undefined;
    if (name === 'TimeoutError') {
      return timeoutMs === undefined ? 'timed out' : `timed out after ${formatSeconds(timeoutMs)}`;
    }
    const code = 'code' in item ? item.code : undefined;
    switch (code) {
      case 'ECONNREFUSED':
        return 'connection refused';
      case 'ECONNRESET':
      case 'UND_ERR_SOCKET':
        return 'connection reset';
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return 'host not found';
      case 'ETIMEDOUT':
      case 'UND_ERR_CONNECT_TIMEOUT':
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return 'timed out';
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
        return 'host unreachable';
      default:
        break;
    }
  }
  const last = chain.at(-1);
  if (last instanceof Error && last.message !== '') return last.message;
  return error instanceof Error ? error.message : String(error);
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
