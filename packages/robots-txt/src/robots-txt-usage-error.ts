const BRAND = Symbol.for('@polite-crawler/robots-txt/RobotsTxtUsageError');

/**
 * Every `reason` a {@link RobotsTxtUsageError} can carry.
 * @example
 * ROBOTS_TXT_USAGE_REASONS.includes('invalid-url'); // true
 */
export const ROBOTS_TXT_USAGE_REASONS = Object.freeze([
  'invalid-agent',
  'invalid-purpose',
  'invalid-url',
  'invalid-body',
  'invalid-option',
  'invalid-field',
] as const);

/**
 * What the caller got wrong.
 * @example
 * if (error.reason === 'invalid-agent') console.error('use a product token such as ExampleBot');
 */
export type RobotsTxtUsageReason = (typeof ROBOTS_TXT_USAGE_REASONS)[number];

/**
 * Options of the {@link RobotsTxtUsageError} constructor.
 * @example
 * new RobotsTxtUsageError('Invalid URL …', { reason: 'invalid-url', value: 'example.com/a' });
 */
export interface RobotsTxtUsageErrorOptions {
  readonly reason: RobotsTxtUsageReason;
  /** The offending value, as passed. */
  readonly value: unknown;
  /** For `invalid-option`: the option's name. */
  readonly option?: string;
  readonly cause?: unknown;
}

/**
 * Thrown only for programmer errors: an agent that is not a valid product token, an
 * invalid purpose token, a URL that cannot be parsed or is neither absolute nor a
 * `/`-path, a body that is neither a string nor bytes, a `Content-Usage` input of no known
 * shape (`invalid-field`), or an invalid option. Never thrown
 * because of what a robots.txt file contains.
 * @example
 * try {
 *   robots.isAllowed('https://example.com/', 'Example Bot');
 * } catch (error) {
 *   if (isRobotsTxtUsageError(error)) console.error(error.reason, error.value);
 * }
 */
export class RobotsTxtUsageError extends Error {
  override readonly name = 'RobotsTxtUsageError' as const;
  readonly code = 'ERR_ROBOTS_TXT_USAGE' as const;
  readonly reason: RobotsTxtUsageReason;
  readonly value: unknown;
  readonly option: string | undefined;

  constructor(message: string, options: RobotsTxtUsageErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = options.reason;
    this.value = options.value;
    this.option = options.option;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/**
 * True for a {@link RobotsTxtUsageError}, also when it comes from another copy of this
 * package (the check uses a `Symbol.for` brand, not `instanceof`).
 * @example
 * if (isRobotsTxtUsageError(error) && error.reason === 'invalid-url') showHelp();
 */
export function isRobotsTxtUsageError(x: unknown): x is RobotsTxtUsageError {
  return typeof x === 'object' && x !== null && (x as { [BRAND]?: unknown })[BRAND] === true;
}
