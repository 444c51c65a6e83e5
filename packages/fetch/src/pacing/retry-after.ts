/**
 * Milliseconds a `Retry-After` value asks to wait (RFC 9110 §10.2.3): delta-seconds, or an
 * HTTP-date relative to `now`. `undefined` when absent or unparseable; never negative.
 * @example
 * parseRetryAfter('120', Date.now()); // 120000
 */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d{1,10}$/.test(trimmed)) return Number(trimmed) * 1_000;
  // An HTTP-date always names a weekday and a GMT time; Date.parse accepts all three formats.
  if (!/GMT$/i.test(trimmed) || trimmed.length > 64) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
