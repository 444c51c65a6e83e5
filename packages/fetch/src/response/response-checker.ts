import type { Response } from 'undici';
import type { RobotsDirectives } from '@polite-crawler/robots-tag';
import type { UsageCategory, UsagePreferences } from '@polite-crawler/robots-txt';
import { RobotsNoIndexError, RobotsUsageError } from '../errors/errors.js';
import type { TapRecord } from '../transport/response-tap.js';
import type { RobotsPolicy } from '../policy/robots-policy.js';
import { pageRobots } from './page-robots.js';
import type { PoliteResponse } from '../fetch/polite-fetch-types.js';

/**
 * @example
 * const settings: ResponseCheckSettings = { policy, noindex: 'annotate', rejectUsage: [] };
 */
export interface ResponseCheckSettings {
  readonly policy: RobotsPolicy;
  readonly noindex: 'annotate' | 'reject';
  /** The usage categories whose `disallowed` pages reject (`usage` option). */
  readonly rejectUsage: readonly UsageCategory[];
}

/**
 * Attaches to a final response (the original one, its body unread) the robots directives and
 * usage preferences for this crawler ({@link pageRobots}, from the header lines and `<head>`
 * metas the tap recorded). A page refused by `noindex` or `usage` rejects with its body cancelled.
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
  // Each field line apart, as the tap recorded them (fetch's Headers join repeated lines).
  const headers = tap.headers ?? response.headers;
  const { directives: robots, usage } = pageRobots(settings.policy, {
    url,
    headers,
    metas: tap.meta,
  });
  // `noindex` already says so when `unavailable_after` has passed (one source of truth).
  if (settings.noindex === 'reject' && robots.noindex) {
    return discard(
      response,
      new RobotsNoIndexError({ url: response.url, status: response.status, directives: robots }),
    );
  }
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
