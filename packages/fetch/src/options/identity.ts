import { isValidProductToken } from '@polite-crawler/robots-txt';
import { RobotsInvalidOptionError } from '../errors/errors.js';

/** Longest `userAgent` accepted, in characters. */
const MAX_USER_AGENT_LENGTH = 1_024;
// Field-value per RFC 9110 §5.5: visible ASCII, spaces and tabs (obs-text is refused too).
const HEADER_VALUE = /^[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?$/;
const PURPOSE_TOKEN = /^[A-Za-z0-9_-]+$/;

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

/**
 * The crawler's identity options, read in this order (`productToken` and `purpose` must appear
 * in the `userAgent` read before them). Part of the option table.
 * @example
 * IDENTITY_OPTIONS.productToken.read('productToken', undefined, { userAgent: 'ExampleBot/1.0' }); // 'ExampleBot'
 */
export const IDENTITY_OPTIONS = {
  userAgent: {
    read: (name: string, value: unknown): string => {
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
    read: (name: string, value: unknown, earlier: Readonly<Record<string, unknown>>): string => {
      const userAgent = earlier['userAgent'] as string;
      if (value === undefined) {
        const derived = deriveProductToken(userAgent);
        if (derived !== undefined) return derived;
        throw new RobotsInvalidOptionError(
          name,
          value,
          'required when userAgent does not name exactly one product (e.g. "ExampleBot/1.0 (+https://…)")',
        );
      }
      if (typeof value !== 'string' || !isValidProductToken(value)) {
        throw new RobotsInvalidOptionError(
          name,
          value,
          'a product token of letters, "_" and "-" (RFC 9309 §2.2.1)',
        );
      }
      if (!userAgent.toLowerCase().includes(value.toLowerCase())) {
        throw new RobotsInvalidOptionError(
          name,
          value,
          'a case-insensitive substring of userAgent',
        );
      }
      return value;
    },
  },
  purpose: {
    read: (
      name: string,
      value: unknown,
      earlier: Readonly<Record<string, unknown>>,
    ): string | undefined => {
      if (value === undefined) return undefined;
      if (typeof value !== 'string' || !PURPOSE_TOKEN.test(value)) {
        throw new RobotsInvalidOptionError(
          name,
          value,
          'a purpose token of letters, digits, "_" and "-"',
        );
      }
      if (!(earlier['userAgent'] as string).toLowerCase().includes(value.toLowerCase())) {
        throw new RobotsInvalidOptionError(
          name,
          value,
          'a substring of userAgent (draft-illyes-rep-purpose)',
        );
      }
      return value;
    },
  },
} as const;
