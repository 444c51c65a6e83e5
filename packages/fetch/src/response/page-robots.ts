import { directivesFor, parseRobotsTagHeaders, rulesFreshness } from '@polite-crawler/robots-tag';
import type { RobotsDirectives, RobotsTagRules } from '@polite-crawler/robots-tag';
import { combineUsage, parseContentUsage } from '@polite-crawler/robots-txt';
import type { UsagePreferences } from '@polite-crawler/robots-txt';
import type { HeaderInput, RobotsPolicy } from '../policy/robots-policy.js';
import { headerFields } from './header-input.js';

/**
 * A page as its response delivered it, for {@link pageRobots}.
 * @example
 * const page: PageInput = { url: response.url, headers: rawHeaderPairs(rawHeaders), metas };
 */
export interface PageInput {
  /**
   * The page's final URL (after redirects): robots.txt's `Content-Usage` for it joins the
   * response's. A URL that is not http(s) has no robots.txt: the field alone counts.
   */
  readonly url: string | URL;
  /**
   * The response's header field lines. Give each line apart where the transport keeps them
   * (undici's header records, `[name, value]` pairs): fetch's `Headers` join repeated lines.
   */
  readonly headers: HeaderInput;
  /** The robots metas of the page's `<head>` (`scanRobotsMeta`), if it was read. */
  readonly metas?: RobotsTagRules | undefined;
  /** The instant the directives are for, epoch ms. @default the policy's `clock.now()` */
  readonly now?: number;
}

/**
 * What a page says to this crawler: its robots directives and its usage preferences.
 * @example
 * const { directives, usage }: RobotsOfPage = pageRobots(policy, page);
 */
export interface RobotsOfPage {
  /** Robots-Tag / X-Robots-Tag field lines and robots metas, for the policy's product token. */
  readonly directives: RobotsDirectives;
  /** robots.txt's `Content-Usage` for the URL combined with the response's `Content-Usage`. */
  readonly usage: UsagePreferences;
}

/**
 * The directives of metas alone (a page without Robots-Tag lines or declared freshness), by the
 * rules object: a meta scanner factory hands out one frozen rules object for a meta it has seen
 * before, so a site's repeated robots meta is turned into directives once per product token.
 */
const metaDirectives = new WeakMap<
  RobotsTagRules,
  { token: string; directives: RobotsDirectives }
>();

/** The fields a page's robots are read from. */
const PAGE_FIELDS = [
  'robots-tag',
  'x-robots-tag',
  'cache-control',
  'expires',
  'content-usage',
] as const;
type PageFields = Partial<Record<(typeof PAGE_FIELDS)[number], string[]>>;

/**
 * The one place a page's directives and usage preferences are computed, for the polite fetch
 * (`response.robots`, `response.usage`) and the Crawlee and Playwright adapters alike: its
 * `Robots-Tag` / `X-Robots-Tag` lines and `<head>` robots metas read for the policy's product
 * token at `now` (a passed `unavailable_after` is `noindex`; the freshness the response declares
 * travels with them), and its `Content-Usage` combined with robots.txt's for the URL (the copy
 * in memory: the one the request was admitted under).
 * @example
 * const { directives, usage } = pageRobots(policy, { url, headers: [['x-robots-tag', 'noindex']] });
 * directives.noindex; // true
 */
export function pageRobots(policy: RobotsPolicy, page: PageInput): RobotsOfPage {
  const { url, headers } = page;
  // One walk of the headers for every field read here (a page is read on every response).
  const fields = headerFields(headers, PAGE_FIELDS);
  const usageLines = fields['content-usage'];
  return {
    directives: directivesOfFields(
      policy.productToken,
      headers,
      fields,
      page.metas,
      page.now ?? policy.clock.now(),
    ),
    usage: isHttpUrl(url)
      ? policy.usage(url, usageLines)
      : combineUsage(parseContentUsage(usageLines ?? [])),
  };
}

/**
 * The directives for `productToken` of field values (strings: no freshness to read) or whole
 * headers, plus metas, at `now`. The one computation behind {@link pageRobots} and
 * `policy.directives`.
 * @example
 * readDirectives('ExampleBot', ['noindex'], undefined, Date.now()).noindex; // true
 */
export function readDirectives(
  productToken: string,
  headers: string | readonly string[] | HeaderInput,
  metas: RobotsTagRules | undefined,
  now: number,
): RobotsDirectives {
  if (typeof headers === 'string' || isLineList(headers)) {
    const lines = typeof headers === 'string' ? [headers] : headers;
    return directivesOfFields(productToken, undefined, { 'robots-tag': [...lines] }, metas, now);
  }
  return directivesOfFields(productToken, headers, headerFields(headers, PAGE_FIELDS), metas, now);
}

/** {@link readDirectives} of fields already read; `headers` (to read freshness from) if any. */
function directivesOfFields(
  productToken: string,
  headers: HeaderInput | undefined,
  fields: PageFields,
  metas: RobotsTagRules | undefined,
  now: number,
): RobotsDirectives {
  const robotsTag = fields['robots-tag'];
  const xRobotsTag = fields['x-robots-tag'];
  const lines =
    robotsTag === undefined
      ? xRobotsTag
      : xRobotsTag === undefined
        ? robotsTag
        : [...robotsTag, ...xRobotsTag];
  // The freshness the response declares (Cache-Control / Expires) travels with its rules.
  const freshness =
    headers === undefined || (fields['cache-control'] === undefined && fields.expires === undefined)
      ? undefined
      : rulesFreshness(headers, now);
  const when =
    freshness === undefined || freshness.source === 'none' ? { now } : { now, freshness };
  if (lines !== undefined && lines.length > 0) {
    const headerRules = parseRobotsTagHeaders(lines);
    return directivesFor(
      metas === undefined ? headerRules : [headerRules, metas],
      productToken,
      when,
    );
  }
  if (when.freshness !== undefined) return directivesFor(metas ?? [], productToken, when);
  // Most pages: no robots rules at all. Their directives are the same for every page.
  if (metas === undefined) {
    if (saidNothing?.token !== productToken)
      saidNothing = { token: productToken, directives: directivesFor([], productToken, when) };
    return saidNothing.directives;
  }
  const known = metaDirectives.get(metas);
  if (known?.token === productToken) return known.directives;
  const directives = directivesFor(metas, productToken, when);
  // A Date can be changed even inside a frozen object, and whether `unavailable_after` has passed
  // depends on the instant: directives holding one are not shared.
  if (directives.unavailableAfter === undefined)
    metaDirectives.set(metas, { token: productToken, directives });
  return directives;
}

/** The directives of a page that says nothing, for the last product token asked (frozen). */
let saidNothing: { token: string; directives: RobotsDirectives } | undefined;

/** Whether `url` is an absolute http(s) URL (one that has a robots.txt). */
function isHttpUrl(url: string | URL): boolean {
  if (url instanceof URL) return url.protocol === 'http:' || url.protocol === 'https:';
  return /^https?:/i.test(url) && URL.canParse(url);
}

/** Whether `headers` is a list of field values (strings), not of `[name, value]` pairs. */
function isLineList(headers: readonly string[] | HeaderInput): headers is readonly string[] {
  return Array.isArray(headers) && headers.every((line) => typeof line === 'string');
}
