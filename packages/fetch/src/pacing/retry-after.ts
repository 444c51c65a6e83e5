/** An HTTP-date (RFC 9110 §5.6.7) in ms, or `undefined` when `value` is not one. */
function parseHttpDate(value: string): number | undefined {
  const trimmed = value.trim();
  // An HTTP-date always names a GMT time; Date.parse accepts all three formats.
  if (!/GMT$/i.test(trimmed) || trimmed.length > 64) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : at;
}

/**
 * Milliseconds a `Retry-After` value asks to wait (RFC 9110 §10.2.3): delta-seconds, or an
 * HTTP-date. An HTTP-date is measured against the response's own `Date` header when it has a
 * valid one (both are the server's clock, so a crawler whose clock is off still waits as long as
 * the server meant), else against `now`. `undefined` when absent or unparseable; never negative.
 * @example
 * parseRetryAfter('120', Date.now()); // 120000
 * parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', Date.now(), 'Sun, 06 Nov 1994 08:48:37 GMT'); // 60000
 */
export function parseRetryAfter(
  value: string | undefined,
  now: number,
  date?: string,
): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed) * 1_000;
  const at = parseHttpDate(trimmed);
  if (at === undefined) return undefined;
  const sent = date === undefined ? undefined : parseHttpDate(date);
  return Math.max(0, at - (sent ?? now));
}
