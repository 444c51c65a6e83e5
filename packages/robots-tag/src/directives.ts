import { checkOptionsObject, RobotsTagUsageError } from './errors.js';
import {
  imagePreviewRank,
  isProductToken,
  parseImagePreviewValue,
  parseLimitValue,
} from './known-rules.js';
import { parseRobotsDate } from './robots-date.js';
import type {
  DirectivesOptions,
  ImagePreviewSize,
  RobotsDirectives,
  RobotsTagRule,
  RobotsTagRules,
} from './types.js';

/**
 * What one crawler may do with a page: the rules for its product token and for everyone (`*`,
 * and `robots` metas) united, from any number of sources (headers and metas). Negative rules
 * add up; where values conflict the most restrictive wins — the smallest `max-snippet` /
 * `max-video-preview` (with `-1`, "no limit", the least restrictive), the smallest
 * `max-image-preview` (`none` < `standard` < `large`), the earliest `unavailable_after`.
 * `none` = `noindex` + `nofollow`; `nocache` = `noarchive`; `all`, `index`, `follow` add
 * nothing; `nosnippet` and `max-snippet: 0` mean the same, so each sets the other. Unknown
 * rules and known rules with unusable values are listed in `rules` but carry no meaning.
 * The token is compared case-insensitively and must be a product token (letters, digits, `_`,
 * `-`) or `*` (only the rules for everyone); anything else throws {@link RobotsTagUsageError}.
 * With `options.now`, an `unavailable_after` date that has passed makes `noindex` true
 * (`noindexReason: 'unavailable_after'`); `options.freshness` is carried as `freshness`.
 *
 * @example
 * ```ts
 * const header = parseRobotsTagHeaders('googlebot: noindex, *;max-snippet=50');
 * const meta = scanRobotsMeta('<meta name="robots" content="max-snippet:20">');
 * const d = directivesFor([header, meta], 'Googlebot');
 * d.noindex; // true
 * d.maxSnippet; // 20
 * const expired = directivesFor(parseRobotsTagHeaders('unavailable_after: 2010-06-25'), 'x', { now: Date.now() });
 * expired.noindex; // true (expired.noindexReason: 'unavailable_after')
 * ```
 */
export function directivesFor(
  rules: RobotsTagRules | readonly RobotsTagRules[],
  productToken: string,
  options?: DirectivesOptions,
): RobotsDirectives {
  if (typeof productToken !== 'string' || !isProductToken(productToken)) {
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
      'productToken',
      productToken,
      `"${String(productToken)}" is not a product token (letters, digits, "_" and "-", e.g. ExampleBot)`,
    );
  }
  checkOptionsObject(options);
  const now = options?.now === undefined ? undefined : instant(options.now, 'now');
  const freshness = options?.freshness;
  const token = productToken.toLowerCase();
  const sources: readonly unknown[] = Array.isArray(rules) ? rules : [rules];
  const applicable: RobotsTagRule[] = [];
  for (const source of sources) {
    const list = (source as Partial<RobotsTagRules> | null)?.rules;
    if (!Array.isArray(list)) {
      throw new RobotsTagUsageError(
        'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
        'rules',
        source,
        'expected the result of parseRobotsTagHeaders / scanRobotsMeta, or an array of them',
      );
    }
    for (const rule of list as readonly RobotsTagRule[]) {
      if (rule.token === '*' || rule.token === token) applicable.push(rule);
    }
  }

  let noindex = false;
  let nofollow = false;
  let nosnippet = false;
  let noarchive = false;
  let noimageindex = false;
  let notranslate = false;
  let indexIfEmbedded = false;
  let maxSnippet: number | undefined;
  let maxImagePreview: ImagePreviewSize | undefined;
  let maxVideoPreview: number | undefined;
  let unavailableAfter: Date | undefined;

  for (const rule of applicable) {
    if (!rule.known) continue;
    switch (rule.name) {
      case 'none':
        noindex = true;
        nofollow = true;
        break;
      case 'noindex':
        noindex = true;
        break;
      case 'nofollow':
        nofollow = true;
        break;
      case 'nosnippet':
        nosnippet = true;
        break;
      case 'noarchive':
      case 'nocache':
        noarchive = true;
        break;
      case 'noimageindex':
        noimageindex = true;
        break;
      case 'notranslate':
        notranslate = true;
        break;
      case 'indexifembedded':
        indexIfEmbedded = true;
        break;
      case 'max-snippet':
        maxSnippet = stricterLimit(maxSnippet, parseLimitValue(rule.value));
        break;
      case 'max-video-preview':
        maxVideoPreview = stricterLimit(maxVideoPreview, parseLimitValue(rule.value));
        break;
      case 'max-image-preview': {
        const size = parseImagePreviewValue(rule.value);
        if (
          size !== undefined &&
          (maxImagePreview === undefined ||
            imagePreviewRank(size) < imagePreviewRank(maxImagePreview))
        ) {
          maxImagePreview = size;
        }
        break;
      }
      case 'unavailable_after': {
        const date = rule.value === undefined ? undefined : parseRobotsDate(rule.value);
        if (date !== undefined && (unavailableAfter === undefined || date < unavailableAfter))
          unavailableAfter = date;
        break;
      }
      default:
        break; // all, index, follow: nothing to restrict
    }
  }
  if (nosnippet) maxSnippet = 0;
  else if (maxSnippet === 0) nosnippet = true;
  const noindexReason = noindex
    ? 'rule'
    : unavailableAfter !== undefined && now !== undefined && now > unavailableAfter.getTime()
      ? 'unavailable_after'
      : undefined;

  return Object.freeze({
    noindex: noindexReason !== undefined,
    ...(noindexReason === undefined ? {} : { noindexReason }),
    nofollow,
    nosnippet,
    noarchive,
    noimageindex,
    notranslate,
    indexIfEmbedded,
    ...(maxSnippet === undefined ? {} : { maxSnippet }),
    ...(maxImagePreview === undefined ? {} : { maxImagePreview }),
    ...(maxVideoPreview === undefined ? {} : { maxVideoPreview }),
    ...(unavailableAfter === undefined ? {} : { unavailableAfter }),
    ...(freshness === undefined ? {} : { freshness }),
    rules: Object.freeze(applicable),
  });
}

/** The more restrictive of two limits where -1 means "no limit". */
function stricterLimit(current: number | undefined, next: number | undefined): number | undefined {
  if (next === undefined) return current;
  if (current === undefined || current === -1) return next;
  if (next === -1) return current;
  return Math.min(current, next);
}

/**
 * Whether the page's `unavailable_after` date has passed at `at` (a `Date` or epoch
 * milliseconds): strictly after the date. `false` when no date applies. Time is passed in,
 * never read from the clock.
 *
 * @example
 * ```ts
 * const d = directivesFor(parseRobotsTagHeaders('unavailable_after: 2010-06-25'), 'ExampleBot');
 * isUnavailable(d, Date.now()); // true
 * ```
 */
export function isUnavailable(directives: RobotsDirectives, at: Date | number): boolean {
  const ms = instant(at, 'at');
  const after = directives.unavailableAfter;
  return after !== undefined && ms > after.getTime();
}

/** Epoch milliseconds of a `Date` or a number; throws naming `argument` for anything else. */
function instant(at: Date | number, argument: string): number {
  const ms = at instanceof Date ? at.getTime() : at;
  if (typeof ms !== 'number' || Number.isNaN(ms)) {
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
      argument,
      at,
      'expected a valid Date or epoch milliseconds',
    );
  }
  return ms;
}
