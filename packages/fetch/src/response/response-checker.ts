import type { Response } from 'undici';
import { directivesFor, parseRobotsTagHeaders, rulesFreshness } from '@polite-crawler/robots-tag';
import type {
  DirectivesOptions,
  RobotsDirectives,
  RobotsTagRules,
} from '@polite-crawler/robots-tag';
import type { UsageCategory, UsagePreferences } from '@polite-crawler/robots-txt';
import { RobotsNoIndexError, RobotsUsageError } from '../errors/errors.js';
import type { TapRecord } from '../transport/response-tap.js';
import type { Clock } from '../time/clock.js';
import type { HeaderInput } from '../policy/robots-policy.js';
import { headerLines } from './header-input.js';
import type { PoliteResponse } from '../fetch/polite-fetch-types.js';

/**
 * @example
 * const settings: ResponseCheckSettings = { productToken: 'ExampleBot', none, noindex: 'annotate', clock: systemClock, metaDirectives: new WeakMap() };
 */
export interface ResponseCheckSettings {
  readonly productToken: string;
  /** The directives of a response that says nothing (shared, frozen). */
  readonly none: RobotsDirectives;
  readonly noindex: 'annotate' | 'reject';
  /** The usage categories whose `disallowed` pages reject (`usage` option). */
  readonly rejectUsage: readonly UsageCategory[];
  /**
   * The usage preferences of a final response (the policy's `usage`); `headers` is
   * `undefined` when the response has no `Content-Usage` field (robots.txt's alone).
   */
  readonly usageOf: (url: URL, headers: HeaderInput | undefined) => UsagePreferences;
  readonly clock: Clock;
  /**
   * The directives of pages whose only robots rules are their metas, by the scanner's rules
   * object: a scanner factory hands out the same frozen rules for a meta it has seen before,
   * so a site's repeated robots meta is turned into directives once.
   */
  readonly metaDirectives: WeakMap<RobotsTagRules, RobotsDirectives>;
}

/**
 * The directives of meta rules alone, remembered while the rules object lives. Only for a
 * response that declares no freshness (`when` then holds the instant alone): directives with
 * a freshness belong to their response.
 */
function directivesOfMeta(
  meta: RobotsTagRules,
  settings: ResponseCheckSettings,
  when: DirectivesOptions,
): RobotsDirectives {
  if (when.freshness !== undefined) return directivesFor(meta, settings.productToken, when);
  let directives = settings.metaDirectives.get(meta);
  if (directives === undefined) {
    directives = directivesFor(meta, settings.productToken, when);
    // A Date can be changed even inside a frozen object, and whether `unavailable_after` has
    // passed depends on the instant: directives holding one are not shared.
    if (directives.unavailableAfter === undefined) settings.metaDirectives.set(meta, directives);
  }
  return directives;
}

/**
 * Attaches to a final response (the original one, its body unread) the robots directives for
 * this crawler, from its header lines and the robots metas the tap found in `<head>`, and its
 * usage preferences. A page refused by `noindex` or `usage` rejects with its body cancelled.
 * @example
 * const polite = await checkResponse(response, finalUrl, record, false, settings);
 * polite.robots.noindex;
 */
export function checkResponse(
  response: Response,
  url: URL,
  tap: TapRecord,
  redirected: boolean,
  settings: ResponseCheckSettings,
): PoliteResponse | Promise<never> {
  const { headers: raw, meta } = tap;
  const noMeta = meta === undefined || meta.rules.length === 0;
  const now = settings.clock.now();
  // The freshness the response declares (Cache-Control / Expires) travels with its rules. The
  // tap's record tells when there is none to read (most responses: no field looked up).
  const freshness =
    raw !== undefined && raw['cache-control'] === undefined && raw.expires === undefined
      ? undefined
      : rulesFreshness(response.headers, now);
  const when: DirectivesOptions =
    freshness === undefined || freshness.source === 'none' ? { now } : { now, freshness };
  const none =
    when.freshness === undefined ? settings.none : directivesFor([], settings.productToken, when);
  // The common case: the tap saw no header lines to parse (then no array is built). Else each
  // line apart from the tap's record; fetch's Headers (no record) join repeated lines with `, `.
  const source = raw ?? response.headers;
  const lines =
    raw !== undefined && raw['robots-tag'] === undefined && raw['x-robots-tag'] === undefined
      ? undefined
      : [...headerLines(source, 'robots-tag'), ...headerLines(source, 'x-robots-tag')];
  const headerRules =
    lines !== undefined && lines.length > 0 ? parseRobotsTagHeaders(lines) : undefined;
  let robots: RobotsDirectives;
  if (headerRules === undefined) {
    robots = noMeta ? none : directivesOfMeta(meta, settings, when);
  } else {
    const rules = meta === undefined ? headerRules : [headerRules, meta];
    robots = directivesFor(rules, settings.productToken, when);
  }
  // `noindex` already says so when `unavailable_after` has passed (one source of truth).
  if (settings.noindex === 'reject' && robots.noindex) {
    return discard(
      response,
      new RobotsNoIndexError({ url: response.url, status: response.status, directives: robots }),
    );
  }
  // The final hop's URL, parsed already (the response's is the same without its fragment, which
  // robots.txt never matches on).
  const usage = settings.usageOf(
    url,
    raw !== undefined && raw['content-usage'] === undefined ? undefined : response.headers,
  );
  if (settings.rejectUsage.length > 0) {
    const categories = settings.rejectUsage.filter((category) => usage[category] === 'disallowed');
    if (categories.length > 0) {
      return discard(
        response,
        new RobotsUsageError({ url: response.url, status: response.status, categories, usage }),
      );
    }
  }
  // Plain own properties: defining them with a descriptor goes through the runtime on every
  // response, an assignment takes the same transition from an inline cache.
  (response as Response & { robots: RobotsDirectives }).robots = robots;
  (response as Response & { usage: UsagePreferences }).usage = usage;
  if (redirected) Object.defineProperty(response, 'redirected', { value: true, enumerable: true });
  return response as Response & PoliteResponse;
}

/** Rejects with `error` once the response's body is cancelled (its bytes are never read). */
function discard(response: Response, error: Error): Promise<never> {
  const cancelled = response.body?.cancel() ?? Promise.resolve();
  return cancelled.catch(() => undefined).then(() => Promise.reject(error));
}
