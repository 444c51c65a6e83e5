import { RobotsTagUsageError } from './errors.js';
import type { HeaderEntry, HeadersLike, HeadersRecord, RobotsTagHeaderInput } from './types.js';

/** One field line to parse, with its header name when the input said it. */
export interface FieldLine {
  readonly value: string;
  readonly field: 'robots-tag' | 'x-robots-tag' | undefined;
}

const NAMES = ['robots-tag', 'x-robots-tag'] as const;

/**
 * Calls `visit(name, value)` for each header of `input`, in input order: `[name, value]` /
 * `{ name, value }` entries (a bare string entry has no name), a Node-style record, or, for a
 * `Headers`-like object that is not iterable, each of `names` read with `get`. The one walk
 * over the accepted header shapes, for the Robots-Tag fields and the caching fields alike.
 */
function eachHeader(
  input: object,
  names: readonly string[],
  visit: (name: unknown, value: unknown) => void,
): void {
  if (Symbol.iterator in input) {
    for (const entry of input as Iterable<unknown>) {
      if (Array.isArray(entry)) visit(entry[0], entry[1]);
      else if (typeof entry === 'object' && entry !== null) {
        const { name, value } = entry as { name?: unknown; value?: unknown };
        visit(name, value);
      } else visit(undefined, entry);
    }
  } else if (typeof (input as Partial<HeadersLike>).get === 'function') {
    for (const name of names) visit(name, (input as HeadersLike).get(name));
  } else {
    for (const [name, value] of Object.entries(input as Record<string, unknown>))
      visit(name, value);
  }
}

/** A header's value as field lines: one string, or one line per string of an array (Node's `headersDistinct`). */
function valuesOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? (value as unknown[]).filter((v) => typeof v === 'string') : [];
}

function throwIfNotObject(
  input: unknown,
  argument: string,
  expected: string,
): asserts input is object {
  if (typeof input !== 'object' || input === null) {
    throw new RobotsTagUsageError('ERR_ROBOTS_TAG_INVALID_ARGUMENT', argument, input, expected);
  }
}

/**
 * Turns every accepted input shape into field lines, in input order. A header's value may be
 * a string or an array of strings in each shape. Entries of other headers and values that are
 * neither are skipped.
 */
export function collectFieldLines(input: RobotsTagHeaderInput): FieldLine[] {
  if (typeof input === 'string') return [{ value: input, field: undefined }];
  throwIfNotObject(
    input,
    'fieldLines',
    'expected a field value, an array of values, a Headers object, [name, value] pairs or a header record',
  );
  const lines: FieldLine[] = [];
  eachHeader(input, NAMES, (name, value) => {
    if (name === undefined) {
      if (typeof value === 'string') lines.push({ value, field: undefined });
      return;
    }
    const field = typeof name === 'string' ? name.trim().toLowerCase() : '';
    if (field === 'robots-tag' || field === 'x-robots-tag') {
      for (const line of valuesOf(value)) lines.push({ value: line, field });
    }
  });
  return lines;
}

/**
 * The field lines of the headers named `names` (lower case), by name, in input order, from a
 * `Headers`-like object, `[name, value]` / `{ name, value }` entries, or a Node-style record.
 * Values that are not strings are skipped.
 * @example
 * linesNamed([['Cache-Control', 'max-age=60']], ['cache-control']).get('cache-control'); // ['max-age=60']
 */
export function linesNamed(
  input: HeadersLike | Iterable<HeaderEntry> | HeadersRecord,
  names: readonly string[],
  argument: string,
): Map<string, string[]> {
  throwIfNotObject(
    input,
    argument,
    'expected a Headers object, [name, value] pairs or a header record',
  );
  const found = new Map<string, string[]>(names.map((name) => [name, []]));
  eachHeader(input, names, (name, value) => {
    const lines = typeof name === 'string' ? found.get(name.trim().toLowerCase()) : undefined;
    if (lines !== undefined) for (const line of valuesOf(value)) lines.push(line);
  });
  return found;
}

/**
 * Pairs a flat raw header list — Node's `IncomingMessage.rawHeaders`, undici's raw
 * `onHeaders` / `onResponseStart` buffers — into `[name, value]` entries, one per field line,
 * for {@link parseRobotsTagHeaders}. Bytes are read as Latin-1, as HTTP clients do.
 *
 * @example
 * ```ts
 * import { parseRobotsTagHeaders, rawHeaderPairs } from '@polite-crawler/robots-tag';
 * // res: a node:http IncomingMessage
 * const rules = parseRobotsTagHeaders(rawHeaderPairs(res.rawHeaders));
 * ```
 */
export function rawHeaderPairs(raw: readonly (string | Uint8Array)[]): Array<[string, string]> {
  const given: unknown = raw;
  if (!Array.isArray(given)) {
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
      'raw',
      raw,
      'expected a flat array of names and values',
    );
  }
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    pairs.push([latin1(raw[i]), latin1(raw[i + 1])]);
  }
  return pairs;
}

function latin1(part: string | Uint8Array | undefined): string {
  if (typeof part === 'string') return part;
  if (!(part instanceof Uint8Array)) return '';
  let out = '';
  for (let i = 0; i < part.length; i += 8192) {
    out += String.fromCharCode(...part.subarray(i, i + 8192));
  }
  return out;
}
