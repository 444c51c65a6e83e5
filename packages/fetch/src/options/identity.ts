import { isValidProductToken, isValidPurposeToken } from '@polite-crawler/robots-txt';
import { RobotsInvalidOptionError } from '../errors/errors.js';
import type { OptionSpec } from './option-spec.js';

/** Longest `userAgent` accepted, in characters. */
const MAX_USER_AGENT_LENGTH = 1_024;
// Field-value per RFC 9110 §5.5: visible ASCII, spaces and tabs (obs-text is refused too).
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/;

/**
 * The product token a User-Agent names when it names exactly one product: the part before
 * `/` of its only product (comments in parentheses are ignored). `undefined` when ambiguous
 * (`Mozilla/5.0 (…) ExampleBot/1.0`), browser-compatible (`Mozilla/5.0 (compatible; ExampleBot/1.0)`,
 * where the crawler is named inside the comment) or not a valid token.
 * @example
 * deriveProductToken('ExampleBot/1.0 (+https://example.com/bot)'); // 'ExampleBot'
 */
export function deriveProductToken(userAgent: string): string | undefined {
  let depth = 0;
  let outside = '';
  for (const char of userAgent) {
    if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0) outside += char;
  }
  const products = outside.split(/[ \t]+/).filter((part) => part.length > 0);
  if (products.length !== 1) return undefined;
  const name = products[0]!.split('/')[0]!;
  // `Mozilla/5.0 (compatible; ExampleBot/1.0; …)` names the crawler inside the comment.
  if (name.toLowerCase() === 'mozilla') return undefined;
  return isValidProductToken(name) ? name : undefined;
}

type TokenRule = readonly [isToken: (token: string) => boolean, expected: string];
const PRODUCT: TokenRule = [
  isValidProductToken,
  'a product token of letters, "_" and "-" (RFC 9309 §2.2.1)',
];
const PURPOSE: TokenRule = [
  isValidPurposeToken,
  'a purpose token of letters, digits, "_" and "-" (draft-illyes-rep-purpose)',
];

/** `value` when it is a valid token found in `userAgent`, case-insensitively. */
function tokenIn(
  name: string,
  value: unknown,
  userAgent: unknown,
  [isToken, expected]: TokenRule,
): string {
  if (typeof value !== 'string' || !isToken(value)) {
    throw new RobotsInvalidOptionError(name, value, expected);
  }
  if (!(userAgent as string).toLowerCase().includes(value.toLowerCase())) {
    throw new RobotsInvalidOptionError(name, value, 'a case-insensitive substring of userAgent');
  }
  return value;
}

/**
 * The crawler's identity options, read in this order (`productToken` and `purpose` must appear
 * in the `userAgent` read before them). Part of the option table.
 * @example
 * IDENTITY_OPTIONS.productToken.read('productToken', undefined, { userAgent: 'ExampleBot/1.0 (+https://example.com/bot)' }); // 'ExampleBot'
 */
export const IDENTITY_OPTIONS = {
  userAgent: {
    read: (name, value) => {
      if (
        typeof value === 'string' &&
        value.length <= MAX_USER_AGENT_LENGTH &&
        HEADER_VALUE.test(value)
      ) {
        return value;
      }
      throw new RobotsInvalidOptionError(
        name,
        value,
        `a non-empty header value of at most ${MAX_USER_AGENT_LENGTH} visible ASCII characters`,
      );
    },
  },
  productToken: {
    read: (name, value, earlier) => {
      if (value !== undefined) return tokenIn(name, value, earlier['userAgent'], PRODUCT);
      const derived = deriveProductToken(earlier['userAgent'] as string);
      if (derived !== undefined) return derived;
      throw new RobotsInvalidOptionError(
        name,
        value,
        'required when userAgent does not name exactly one product (e.g. "ExampleBot/1.0 (+https://…)")',
      );
    },
  },
  purpose: {
    read: (name, value, earlier) =>
      value === undefined ? undefined : tokenIn(name, value, earlier['userAgent'], PURPOSE),
  },
} as const satisfies Readonly<Record<string, OptionSpec>>;
