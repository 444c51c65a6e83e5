import { fromCharCodes } from './copied-text.js';
import { RobotsTxtUsageError } from './robots-txt-usage-error.js';
import { utf8FitIndex, utf8Length } from './utf8-length.js';

/** A body turned into the text the scanner reads. */
export interface DecodedBody {
  /** The text; starts after any skipped byte-order mark. */
  readonly text: string;
  /**
   * The body was bytes that are not valid UTF-8: every character of `text` stands for one
   * octet (U+0000–U+00FF), so non-ASCII octets are percent-encoded one by one.
   */
  readonly latin1: boolean;
  /** Every character of `text` is ASCII. */
  readonly ascii: boolean;
  /** Offset in `text` of the first octet that is not valid UTF-8, or -1. */
  readonly invalidUtf8At: number;
  /** Leading byte-order-mark octets skipped (0–3; for a string, 3 for U+FEFF). */
  readonly bomBytes: number;
  /** Octets of the body that were parsed (BOM included). */
  readonly parsedBytes: number;
  readonly truncated: boolean;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes `body` and applies the byte limit. A body larger than `maxBytes` is cut after
 * the last line break within the limit, so that no rule is cut in the middle (a cut rule
 * is broader than the one written).
 */
export function decodeBody(body: string | Uint8Array, maxBytes: number): DecodedBody {
  if (typeof body === 'string') return decodeString(body, maxBytes);
  if (body instanceof Uint8Array) return decodeBytes(body, maxBytes);
  throw new RobotsTxtUsageError(
    `Invalid robots.txt body: ${Object.prototype.toString.call(body)} (expected a string or a Uint8Array)`,
    { reason: 'invalid-body', value: body },
  );
}

function decodeBytes(bytes: Uint8Array, maxBytes: number): DecodedBody {
  const total = bytes.length;
  let bom = 0;
  while (bom < 3 && bom < total && bytes[bom] === [0xef, 0xbb, 0xbf][bom]) bom++;
  let end = total;
  let truncated = false;
  if (total > maxBytes) {
    truncated = true;
    end = lastLineEnd((i) => bytes[i] ?? -1, maxBytes, bom);
  }
  const view = bytes.subarray(bom, end);
  let text: string;
  let latin1 = false;
  let invalidUtf8At = -1;
  try {
    text = utf8.decode(view);
  } catch {
    latin1 = true;
    invalidUtf8At = firstInvalidUtf8(view);
    text = fromCharCodes(view);
  }
  return {
    text,
    latin1,
    // UTF-8 decoding gave one character per octet: all ASCII.
    ascii: !latin1 && text.length === end - bom,
    invalidUtf8At,
    bomBytes: bom,
    parsedBytes: end,
    truncated,
  };
}

/**
 * End (exclusive) of the last complete line of the units (octets or UTF-16 units) before
 * `limit`, `code(i)` being unit `i`; `start` when none ends there. A line ends at a line break
 * before the limit, or at the limit itself when a line break follows it. (A CR just before
 * the limit may be the first half of a CRLF; either way it ends the line.)
 */
function lastLineEnd(code: (i: number) => number, limit: number, start: number): number {
  const next = code(limit);
  if (next === 10 || next === 13) return limit;
  for (let i = limit - 1; i >= start; i--) {
    const c = code(i);
    if (c === 10 || c === 13) return i + 1;
  }
  return start;
}

const lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Offset of the first octet that starts an invalid UTF-8 sequence, or -1: where the replacing
 * decoder's text has a U+FFFD that the octets do not spell (EF BF BD). Up to there the octets
 * are valid, so they are as long as their text's UTF-8.
 */
function firstInvalidUtf8(bytes: Uint8Array): number {
  const text = lenient.decode(bytes);
  let at = 0;
  let from = 0;
  for (let i = text.indexOf('\uFFFD'); i >= 0; i = text.indexOf('\uFFFD', i + 1)) {
    at += utf8Length(text, from, i);
    if (bytes[at] !== 0xef || bytes[at + 1] !== 0xbf || bytes[at + 2] !== 0xbd) return at;
    at += 3;
    from = i + 1;
  }
  return -1;
}

function decodeString(s: string, maxBytes: number): DecodedBody {
  const bom = s.charCodeAt(0) === 0xfeff ? 1 : 0;
  const total = utf8Length(s);
  let end = s.length;
  let bytes = total;
  let truncated = false;
  if (total > maxBytes) {
    truncated = true;
    // Index of the first character that does not fit, then back to the last line break.
    end = lastLineEnd((i) => s.charCodeAt(i), utf8FitIndex(s, maxBytes), bom);
    bytes = utf8Length(s, 0, end);
  }
  return {
    text: bom === 0 && end === s.length ? s : s.slice(bom, end),
    latin1: false,
    // UTF-8 octets equal to UTF-16 units: no character above U+007F (the BOM is three).
    ascii: bytes === end + bom * 2,
    invalidUtf8At: -1,
    bomBytes: bom * 3,
    parsedBytes: bytes,
    truncated,
  };
}
