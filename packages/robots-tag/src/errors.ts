/** Every error code this package throws; each is documented in the package README. */
export const ROBOTS_TAG_ERROR_CODES = Object.freeze([
  'ERR_ROBOTS_TAG_INVALID_OPTION',
  'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
] as const);

export type RobotsTagErrorCode = (typeof ROBOTS_TAG_ERROR_CODES)[number];

const BRAND = Symbol.for('@polite-crawler/robots-tag.RobotsTagUsageError');

/**
 * A programmer error: an option or argument that cannot be used. Parsing never throws on
 * content — only on this.
 *
 * @example
 * ```ts
 * try {
 *   createMetaScanner({ maxHeadBytes: -1 });
 * } catch (error) {
 *   if (isRobotsTagUsageError(error)) console.error(error.code, error.argument);
 * }
 * ```
 */
export class RobotsTagUsageError extends Error {
  override readonly name = 'RobotsTagUsageError' as const;
  readonly code: RobotsTagErrorCode;
  /** The option or argument at fault, e.g. `maxHeadBytes`, `productToken`. */
  readonly argument: string;
  /** The rejected value. */
  readonly value: unknown;

  constructor(
    code: RobotsTagErrorCode,
    argument: string,
    value: unknown,
    why: string,
    options?: { cause?: unknown },
  ) {
    super(
      `invalid ${code === 'ERR_ROBOTS_TAG_INVALID_OPTION' ? 'option' : 'argument'}: ${argument} (${why})`,
      options,
    );
    this.code = code;
    this.argument = argument;
    this.value = value;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** Throws a {@link RobotsTagUsageError} naming `options` unless it is an object or `undefined`. */
export function checkOptionsObject(options: unknown): void {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_OPTION',
      'options',
      options,
      'expected an object',
    );
  }
}

/** `value` when it is a positive integer; else throws a {@link RobotsTagUsageError} naming `option`. */
export function positiveIntegerOption(option: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_OPTION',
      option,
      value,
      `expected a positive integer, got ${String(value)}`,
    );
  }
  return value;
}

/**
 * Whether `error` is a {@link RobotsTagUsageError}, also when it comes from another copy of
 * this package (the class is branded with `Symbol.for`).
 *
 * @example
 * ```ts
 * if (isRobotsTagUsageError(error)) console.error(error.argument);
 * ```
 */
export function isRobotsTagUsageError(error: unknown): error is RobotsTagUsageError {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[BRAND] === true
  );
}
