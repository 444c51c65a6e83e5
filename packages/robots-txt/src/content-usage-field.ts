/**
 * The `Content-Usage` response field (draft-ietf-aipref-attach-05 §2): its field lines, in
 * whatever shape the caller holds them, read as one statement of preference. Pure: a fetch
 * `Headers` is read through its `get` method only.
 */
import type { UsagePreferences, UsageSource } from './content-usage-types.js';
import { PARSE_DEFAULTS } from './parse-defaults.js';
import { RobotsTxtUsageError } from './robots-txt-usage-error.js';
import { CONTENT_USAGE_SYNTAX, UNKNOWN_USAGE, processStatement } from './usage-statement.js';

/**
 * One header: a `[name, value]` pair or a Playwright-style `{ name, value }`; an array value is
 * one element per field line (`Object.entries(res.headersDistinct)`).
 * @example ['content-usage', 'train-ai=n']
 */
export type ContentUsageHeaderEntry =
  | readonly [name: string, value: string | readonly string[]]
  | { readonly name: string; readonly value: string | readonly string[] };

/**
 * What {@link parseContentUsage} reads: one field value, the values of several field lines
 * in order, a fetch `Headers` (or anything with `get`), or header entries of which those
 * named `content-usage` (any case) are read.
 * @example response.headers
 */
export type ContentUsageInput =
  | string
  | readonly string[]
  | { get(name: string): string | null }
  | Iterable<ContentUsageHeaderEntry>;

/**
 * Options of {@link parseContentUsage}.
 * @example { maxFieldBytes: 32_768 }
 */
export interface ContentUsageOptions {
  /**
   * Characters of the combined field value that are parsed; a longer value is not parsed at
   * all (a cut Dictionary could say something else) and gives every preference `unknown`.
   * Values below `PARSE_DEFAULTS.minFieldBytes` (8192) are raised to it; a value that is not a
   * positive integer throws.
   * @default 16384
   */
  readonly maxFieldBytes?: number;
}

const FIELD = 'content-usage';
const SOURCE: UsageSource = Object.freeze({ kind: 'content-usage-field' });

function invalidInput(value: unknown): RobotsTxtUsageError {
  return new RobotsTxtUsageError(
    'Invalid Content-Usage input: expected a field value, an array of values, a Headers object or [name, value] entries',
    { reason: 'invalid-field', value },
  );
}

/** The field's lines, in order. */
function fieldLinesOf(input: ContentUsageInput): string[] {
  if (typeof input === 'string') return [input];
  if (typeof input !== 'object' || input === null) throw invalidInput(input);
  if (typeof (input as { get?: unknown }).get === 'function') {
    const value: unknown = (input as { get(name: string): unknown }).get(FIELD);
    return typeof value === 'string' ? [value] : [];
  }
  if (!(Symbol.iterator in input)) throw invalidInput(input);
  const lines: string[] = [];
  for (const entry of input as Iterable<unknown>) {
    if (typeof entry === 'string') {
      lines.push(entry);
      continue;
    }
    let name: unknown;
    let value: unknown;
    if (Array.isArray(entry)) [name, value] = entry as unknown[];
    else if (typeof entry === 'object' && entry !== null)
      ({ name, value } = entry as { name?: unknown; value?: unknown });
    if (typeof name !== 'string' || name.trim().toLowerCase() !== FIELD) continue;
    if (typeof value === 'string') lines.push(value);
    else if (Array.isArray(value))
      for (const v of value as unknown[]) if (typeof v === 'string') lines.push(v);
  }
  return lines;
}

function resolveMaxChars(options: ContentUsageOptions | undefined): number {
  if (options === undefined) return PARSE_DEFAULTS.maxFieldBytes;
  if (typeof options !== 'object' || options === null)
    throw new RobotsTxtUsageError('Invalid options: expected an object', {
      reason: 'invalid-option',
      value: options,
      option: 'options',
    });
  const value = options.maxFieldBytes;
  if (value === undefined) return PARSE_DEFAULTS.maxFieldBytes;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new RobotsTxtUsageError(
      `Invalid maxFieldBytes: expected a positive integer, got ${String(value)}`,
      { reason: 'invalid-option', value, option: 'maxFieldBytes' },
    );
  return Math.max(value, PARSE_DEFAULTS.minFieldBytes);
}

/**
 * Reads the `Content-Usage` response field (draft-ietf-aipref-attach-05 §2) into usage
 * preferences, as vocab §6.5 processes a statement. All field lines are first combined into
 * one value as HTTP combines them (RFC 9651 §4.2: joined with `, `), then parsed once as a
 * Structured Fields Dictionary (RFC 9651, exactly): so a key repeated on a later line wins,
 * even when it is more permissive. Only the Tokens `y` / `n` of `train-ai`, `ai-use` and
 * `search` count; any other value is `unknown`, and a value that fails to parse makes every
 * category `unknown`. Parameters are ignored; other keys are kept raw in `extensions`. Never
 * throws on content; throws {@link RobotsTxtUsageError} (`invalid-field`, `invalid-option`)
 * for an input or option of the wrong type.
 *
 * @example
 * ```ts
 * parseContentUsage('train-ai=n, ai-use=y')['train-ai']; // 'disallowed'
 * parseContentUsage(['train-ai=n', 'train-ai=y'])['train-ai']; // 'allowed': the later line wins
 * parseContentUsage(response.headers).search; // a fetch Response
 * ```
 */
export function parseContentUsage(
  fieldLines: ContentUsageInput,
  options?: ContentUsageOptions,
): UsagePreferences {
  const maxChars = resolveMaxChars(options);
  const lines = fieldLinesOf(fieldLines);
  if (lines.length === 0) return UNKNOWN_USAGE;
  const value = lines.join(', ');
  if (value.length > maxChars) return UNKNOWN_USAGE;
  return processStatement(value, CONTENT_USAGE_SYNTAX, SOURCE).preferences;
}
