import {
  Token,
  parseDictionary,
  serializeBareItem,
  serializeInnerList,
  type Dictionary,
  type Item,
  type Parameters,
} from 'structured-headers';
import { UNKNOWN_USAGE } from './combine-usage.js';
import type {
  UsageCategory,
  UsageLabel,
  UsagePreference,
  UsagePreferences,
  UsageSource,
} from './content-usage-types.js';
import { ROBOTS_TAG_DEFAULTS } from './defaults.js';
import { RobotsTagUsageError } from './errors.js';
import type { HeaderEntry, HeadersLike } from './types.js';

/**
 * What {@link parseContentUsage} reads: one field value, the values of several field lines
 * in order, a fetch `Headers` (or anything with `get`), or `[name, value]` /
 * `{ name, value }` entries of which those named `content-usage` (any case) are read.
 */
export type ContentUsageInput = string | readonly string[] | HeadersLike | Iterable<HeaderEntry>;

/** Options of {@link parseContentUsage}. */
export interface ContentUsageOptions {
  /**
   * Characters of the combined field value that are parsed; a longer value is not parsed at
   * all (a cut Dictionary could say something else) and gives every preference `unknown`.
   * Values below 8192 are raised to 8192; a value that is not a positive integer throws.
   * @default 16384
   */
  readonly maxFieldBytes?: number;
}

const FIELD = 'content-usage';
const SOURCE: UsageSource = Object.freeze({ kind: 'content-usage-field' });
const CATEGORIES: ReadonlyMap<string, UsageCategory> = new Map<string, UsageCategory>([
  ['train-ai', 'train-ai'],
  ['search', 'search'],
]);
const NONE: readonly never[] = Object.freeze([]);
const NO_PARAMETERS: Parameters = new Map();
const ONE_SOURCE: readonly UsageSource[] = Object.freeze([SOURCE]);

function invalidArgument(value: unknown): RobotsTagUsageError {
  return new RobotsTagUsageError(
    'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
    'fieldLines',
    value,
    'expected a field value, an array of values, a Headers object or [name, value] entries',
  );
}

/** The field's lines, in order. */
function fieldLinesOf(input: ContentUsageInput): string[] {
  if (typeof input === 'string') return [input];
  if (typeof input !== 'object' || input === null) throw invalidArgument(input);
  if (typeof (input as Partial<HeadersLike>).get === 'function') {
    const value: unknown = (input as HeadersLike).get(FIELD);
    return typeof value === 'string' ? [value] : [];
  }
  if (!(Symbol.iterator in input)) throw invalidArgument(input);
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
  if (options === undefined) return ROBOTS_TAG_DEFAULTS.maxFieldBytes;
  if (typeof options !== 'object' || options === null)
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_OPTION',
      'options',
      options,
      'expected an object',
    );
  const value = options.maxFieldBytes;
  if (value === undefined) return ROBOTS_TAG_DEFAULTS.maxFieldBytes;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_OPTION',
      'maxFieldBytes',
      value,
      `expected a positive integer, got ${String(value)}`,
    );
  return Math.max(value, ROBOTS_TAG_DEFAULTS.minFieldBytes);
}

/** `structured-headers`' Dictionary, or `undefined` when the value fails to parse. */
function parse(value: string): Dictionary | undefined {
  // RFC 9651 §4.2 step 1: the bytes must be ASCII (a field reaches JavaScript one character
  // per octet).
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(value)) return undefined;
  try {
    return parseDictionary(value);
  } catch {
    return undefined;
  }
}

/**
 * Reads the `Content-Usage` response field (draft-ietf-aipref-attach-05 §2) into usage
 * preferences, as vocab §6.5 processes it. All field lines are first combined into one
 * value as HTTP combines them (RFC 9651 §4.2: joined with `, `), then parsed once as a
 * Structured Fields Dictionary with `structured-headers`: so a key repeated on a later line
 * wins, even when it is more permissive. Only the Tokens `y` / `n` of `train-ai` and `search`
 * count; any other value is `unknown`, and a value that fails to parse makes every category
 * `unknown`. Parameters are ignored; other keys are kept raw in `extensions`. Never throws
 * on content; throws {@link RobotsTagUsageError} for an input or option of the wrong type.
 *
 * @example
 * ```ts
 * parseContentUsage('train-ai=n')['train-ai']; // 'disallowed'
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
  const dictionary = parse(value);
  if (dictionary === undefined) return UNKNOWN_USAGE;
  const found: Record<UsageCategory, UsagePreference> = {
    'train-ai': 'unknown',
    search: 'unknown',
  };
  const extensions: UsageLabel[] = [];
  for (const [key, member] of dictionary) {
    const [bare] = member;
    const category = CATEGORIES.get(key);
    if (category === undefined) {
      const raw = Array.isArray(bare)
        ? serializeInnerList([bare as Item[], NO_PARAMETERS])
        : serializeBareItem(bare);
      extensions.push(Object.freeze({ label: key, value: raw, source: SOURCE }));
      continue;
    }
    if (bare instanceof Token) {
      const token = bare.toString();
      if (token === 'y') found[category] = 'allowed';
      else if (token === 'n') found[category] = 'disallowed';
    }
  }
  const sourcesOf = (c: UsageCategory): readonly UsageSource[] =>
    found[c] === 'unknown' ? NONE : ONE_SOURCE;
  return Object.freeze({
    'train-ai': found['train-ai'],
    search: found.search,
    sources: Object.freeze({ 'train-ai': sourcesOf('train-ai'), search: sourcesOf('search') }),
    extensions: extensions.length === 0 ? NONE : Object.freeze(extensions),
  });
}
