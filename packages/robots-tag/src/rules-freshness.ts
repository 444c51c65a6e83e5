import { RobotsTagUsageError } from './errors.js';
import { linesNamed } from './header-input.js';
import { parseRobotsDate } from './robots-date.js';
import { splitOutsideQuotes } from './split-members.js';
import type { HeaderEntry, HeadersLike, HeadersRecord, RobotsTagFreshness } from './types.js';

/** RFC 9111 §1.2.2: a delta-seconds too large to hold is read as 2³¹. */
const MAX_DELTA_SECONDS = 2_147_483_648;

/** The three HTTP-date forms (IMF-fixdate, RFC 850, asctime), by their shape. */
const HTTP_DATE_SHAPE = /^[A-Za-z]{3,9}, \d|^[A-Za-z]{3} [A-Za-z]{3} +\d/;

/**
 * How long rules read from a response stay valid: the freshness the response declares
 * (RFC 9111 §4.2.1), which the draft (draft-illyes-repext-03 §"Caching of values") links the
 * rules' validity to. Pure: the instant is passed in.
 *
 * - `Cache-Control: no-store`, or `no-cache` without field names: valid only now (`freshUntil`
 *   = `now`; recrawl before relying on them again).
 * - `max-age=N` (the first one; `s-maxage` is for shared caches, which a crawler is not): N
 *   seconds; a value that is not a number means already stale.
 * - else `Expires` (the first line): its date minus the response's `Date` (or `now`); an invalid
 *   date (`0`) means already stale.
 * - The response's age (`Age`, or `now` − `Date` when later) is taken off the lifetime.
 * - Neither: `freshUntil` `undefined` — the draft lets a crawler use a heuristic (its recrawl
 *   interval).
 *
 * @example
 * ```ts
 * const f = rulesFreshness({ 'cache-control': 'max-age=3600' }, Date.UTC(2026, 0, 1));
 * f.freshUntil?.toISOString(); // '2026-01-01T01:00:00.000Z'
 * ```
 */
export function rulesFreshness(
  headers: HeadersLike | Iterable<HeaderEntry> | HeadersRecord,
  now: Date | number,
): RobotsTagFreshness {
  const nowMs = now instanceof Date ? now.getTime() : now;
  if (typeof nowMs !== 'number' || !Number.isFinite(nowMs)) {
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
      'now',
      now,
      'expected a valid Date or epoch milliseconds',
    );
  }
  const lines = linesNamed(headers, ['cache-control', 'expires', 'date', 'age'], 'headers');
  const directives = cacheDirectives(lines.get('cache-control') ?? []);
  if (directives.has('no-store')) return fresh(nowMs, 0, 0, 'no-store');
  if (directives.get('no-cache') === undefined && directives.has('no-cache')) {
    return fresh(nowMs, 0, 0, 'no-cache');
  }
  const dateValue = httpDate(lines.get('date')?.[0]);
  const apparentAge =
    dateValue === undefined ? 0 : Math.max(0, Math.floor((nowMs - dateValue) / 1000));
  const age = Math.max(deltaSeconds(lines.get('age')?.[0]) ?? 0, apparentAge);
  if (directives.has('max-age')) {
    return fresh(nowMs, deltaSeconds(directives.get('max-age')) ?? 0, age, 'max-age');
  }
  const expires = lines.get('expires') ?? [];
  if (expires.length > 0) {
    const at = httpDate(expires[0]);
    const lifetime =
      at === undefined ? 0 : Math.max(0, Math.floor((at - (dateValue ?? nowMs)) / 1000));
    return fresh(nowMs, Math.min(lifetime, MAX_DELTA_SECONDS), age, 'expires');
  }
  return Object.freeze({ freshUntil: undefined, lifetimeSeconds: undefined, source: 'none' });
}

function fresh(
  nowMs: number,
  lifetime: number,
  age: number,
  source: RobotsTagFreshness['source'],
): RobotsTagFreshness {
  const left = Math.max(0, lifetime - age);
  return Object.freeze({
    freshUntil: new Date(nowMs + left * 1000),
    lifetimeSeconds: lifetime,
    source,
  });
}

/**
 * The directives of `Cache-Control` field lines, names lower-cased, the first of each name
 * kept, values unquoted (`undefined` when there is none). Commas inside quotes do not split.
 */
function cacheDirectives(lines: readonly string[]): Map<string, string | undefined> {
  const found = new Map<string, string | undefined>();
  for (const line of lines) {
    for (const member of splitOutsideQuotes(line, ',')) {
      const eq = member.indexOf('=');
      const name = (eq === -1 ? member : member.slice(0, eq)).trim().toLowerCase();
      if (name === '' || found.has(name)) continue;
      let value = eq === -1 ? undefined : member.slice(eq + 1).trim();
      if (value !== undefined && value.startsWith('"')) {
        value = value.slice(1, value.endsWith('"') && value.length > 1 ? -1 : undefined);
        value = value.replace(/\\(.)/g, '$1');
      }
      found.set(name, value);
    }
  }
  return found;
}

/** RFC 9111 delta-seconds: digits only; too large → 2³¹; anything else → `undefined`. */
function deltaSeconds(text: string | undefined): number | undefined {
  const t = text?.trim();
  if (t === undefined || !/^\d+$/.test(t)) return undefined;
  return t.length > 10 ? MAX_DELTA_SECONDS : Math.min(Number(t), MAX_DELTA_SECONDS);
}

/** An HTTP-date (any of its three forms), in epoch milliseconds; `undefined` if not one. */
function httpDate(text: string | undefined): number | undefined {
  const t = text?.trim();
  if (t === undefined || !HTTP_DATE_SHAPE.test(t)) return undefined;
  return parseRobotsDate(t)?.getTime();
}
