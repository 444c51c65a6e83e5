import type { ImagePreviewSize } from './types.js';

/** How a known rule's value is read. */
type RuleKind = 'flag' | 'integer' | 'image-preview' | 'date';

const RULE_KINDS: ReadonlyMap<string, RuleKind> = new Map<string, RuleKind>([
  ['all', 'flag'],
  ['none', 'flag'],
  ['index', 'flag'],
  ['follow', 'flag'],
  ['noindex', 'flag'],
  ['nofollow', 'flag'],
  ['nosnippet', 'flag'],
  ['noarchive', 'flag'],
  ['nocache', 'flag'],
  ['noimageindex', 'flag'],
  ['notranslate', 'flag'],
  ['indexifembedded', 'flag'],
  ['max-snippet', 'integer'],
  ['max-video-preview', 'integer'],
  ['max-image-preview', 'image-preview'],
  ['unavailable_after', 'date'],
]);

/**
 * The rule names this package gives a meaning to (lower-case). Any other rule is kept with
 * `known: false` and ignored.
 *
 * @example
 * ```ts
 * KNOWN_ROBOTS_RULES.includes('noindex'); // true
 * ```
 */
export const KNOWN_ROBOTS_RULES: readonly string[] = Object.freeze([...RULE_KINDS.keys()]);

/** Whether `name` (lower-case) is a known rule. */
export function isKnownRule(name: string): boolean {
  return RULE_KINDS.has(name);
}

/**
 * A product token as this package accepts it: `*`, or letters, digits, `_` and `-`
 * (RFC 9309's identifier, plus digits, which real crawler names use).
 */
export function isProductToken(text: string): boolean {
  return /^(?:\*|[A-Za-z0-9_-]+)$/.test(text);
}

/** `max-snippet` / `max-video-preview`: an integer ≥ -1 (-1 = no limit), else `undefined`. */
export function parseLimitValue(value: string | undefined): number | undefined {
  if (value === undefined || !/^\s*[+-]?\d{1,15}\s*$/.test(value)) return undefined;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) && n >= -1 ? (Object.is(n, -0) ? 0 : n) : undefined;
}

const IMAGE_SIZES: readonly ImagePreviewSize[] = ['none', 'standard', 'large'];

/** `max-image-preview`: `none` | `standard` | `large` (any case), else `undefined`. */
export function parseImagePreviewValue(value: string | undefined): ImagePreviewSize | undefined {
  const v = value?.trim().toLowerCase();
  return IMAGE_SIZES.find((size) => size === v);
}

/** Rank of an image preview size: smaller is more restrictive. */
export function imagePreviewRank(size: ImagePreviewSize): number {
  return IMAGE_SIZES.indexOf(size);
}

/** Rule kind for validation messages; `undefined` for unknown rules. */
export function ruleKind(name: string): RuleKind | undefined {
  return RULE_KINDS.get(name);
}
