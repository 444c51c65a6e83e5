import { isDateWord } from './robots-date.js';

/** The members of one field value, split at top-level commas. */
export interface SplitResult {
  readonly pieces: string[];
  /**
   * Index in `pieces` of the first piece that was split without regard to quotes/parentheses
   * because a quote or parenthesis opened there was never closed; `-1` when all were balanced.
   */
  readonly unbalancedFrom: number;
}

/**
 * Splits a field value at commas outside double-quoted strings and parentheses (so structured
 * strings and inner lists stay whole). If a quote or parenthesis is never closed, the text from
 * the member where it opened is split at every comma instead, so one stray `"` cannot swallow
 * the rest of the field.
 */
export function splitMembers(text: string): SplitResult {
  const pieces: string[] = [];
  let start = 0;
  const nesting: Nesting = { inQuote: false, depth: 0 };
  for (let i = 0; i < text.length; i++) {
    i = stepNesting(text, i, nesting);
    if (text.charCodeAt(i) === 0x2c /* , */ && !nesting.inQuote && nesting.depth === 0) {
      pieces.push(text.slice(start, i));
      start = i + 1;
    }
  }
  const { inQuote, depth } = nesting;
  if (!inQuote && depth === 0) {
    pieces.push(text.slice(start));
    return { pieces, unbalancedFrom: -1 };
  }
  const unbalancedFrom = pieces.length;
  // One by one: the rest can hold more pieces than a call takes arguments.
  for (const piece of text.slice(start).split(',')) pieces.push(piece);
  return { pieces, unbalancedFrom };
}

/**
 * Whether the quote or parenthesis left open at `cut` (where `value` is cut; `splitMembers` of
 * `value.slice(0, cut)` reported it unbalanced) closes within `lookahead` characters after the
 * cut. If it does, the member where it opened runs past the cut. If not, it is taken as stray:
 * as in a whole value that never closes it, the text from that member is split at every comma,
 * so the pieces before the cut are whole members. Same scanner as {@link splitMembers}.
 */
export function closesAfterCut(value: string, cut: number, lookahead: number): boolean {
  const end = Math.min(value.length, cut + lookahead);
  const nesting: Nesting = { inQuote: false, depth: 0 };
  for (let i = 0; i < end; i++) {
    i = stepNesting(value, i, nesting);
    if (i >= cut && !nesting.inQuote && nesting.depth === 0) return true;
  }
  return false;
}

/** Whether the reader is inside a double-quoted string, and how many parentheses are open. */
interface Nesting {
  inQuote: boolean;
  depth: number;
}

/**
 * Reads the character at `i` into `nesting` (a `\` escape in a string takes the next one with
 * it; a stray `)` is ignored) and returns the index of the last character read.
 */
function stepNesting(text: string, i: number, nesting: Nesting): number {
  const c = text.charCodeAt(i);
  if (nesting.inQuote) {
    if (c === 0x5c /* \ */) return i + 1;
    if (c === 0x22 /* " */) nesting.inQuote = false;
  } else if (c === 0x22) nesting.inQuote = true;
  else if (c === 0x28 /* ( */) nesting.depth++;
  else if (c === 0x29 /* ) */ && nesting.depth > 0) nesting.depth--;
  return i;
}

/**
 * Splits `text` at each `separator` outside double-quoted strings (a `\` in a string escapes
 * the next character), with the scanner of {@link splitMembers}: the `;` of the draft's
 * lenient members, the `,` of `Cache-Control`.
 * @example
 * splitOutsideQuotes('a="x;y";b', ';'); // ['a="x;y"', 'b']
 */
export function splitOutsideQuotes(text: string, separator: string): string[] {
  const out: string[] = [];
  const nesting: Nesting = { inQuote: false, depth: 0 };
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    i = stepNesting(text, i, nesting); // parentheses are counted, and do not matter here
    if (!nesting.inQuote && text[i] === separator) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** `unavailable_after:`, or `unavailable_after=` as some servers write it. */
const DATE_MEMBER = /unavailable_after\s*[:=]/i;

/**
 * Whether this member carries a legacy `unavailable_after` date (whose text may hold commas).
 */
export function isDateMember(member: string): boolean {
  return DATE_MEMBER.test(member);
}

/** The date text of a legacy `unavailable_after:` member. */
export function dateText(member: string): string {
  const m = DATE_MEMBER.exec(member);
  return m === null ? '' : member.slice(m.index + m[0].length);
}

/**
 * A `token:` prefix with a rule or nothing after it (`360Spider: noindex`, `mar-bot:`). The
 * colon of a time is followed by a digit (`15:00`), so a date piece never looks like this.
 */
const TOKEN_PREFIX = /^[A-Za-z0-9_-]+\s*:\s*(?:[A-Za-z]|$)/;

/**
 * Whether a piece continues the date of the member before it: it starts with a digit
 * (`25-Jun-10 15:00:00 PST`, `2010 15:00`), or with a month/weekday name not followed by
 * `:`, `;` or `=` (`June 25, 2010`). A rule never does: not `noarchive`, not a `token:` prefix
 * even when the token starts with a digit or a month name (`360Spider: noindex`,
 * `mar-bot: noindex`), not a member with `;` or `=` (`360spider;noindex`), which no date has.
 */
export function continuesDate(piece: string): boolean {
  const t = piece.trimStart();
  if (TOKEN_PREFIX.test(t) || t.includes(';') || t.includes('=')) return false;
  const c = t.charCodeAt(0);
  if (c >= 0x30 && c <= 0x39) return true;
  const m = /^([A-Za-z]{3,9})\.?\s*(.?)/.exec(t);
  return m !== null && isDateWord(m[1] ?? '') && !/[:;=]/.test(m[2] ?? '');
}

/**
 * Rejoins the pieces of legacy dates split at their commas
 * (`unavailable_after: Friday, 25-Jun-10 15:00:00 PST`). Returns the members and, for each,
 * the index of the last piece it consumed.
 */
export function joinDatePieces(pieces: readonly string[]): {
  members: string[];
  lastPiece: number[];
} {
  const members: string[] = [];
  const lastPiece: number[] = [];
  for (let i = 0; i < pieces.length; i++) {
    let member = pieces[i] ?? '';
    if (isDateMember(member)) {
      while (i + 1 < pieces.length && continuesDate(pieces[i + 1] ?? '')) {
        member += ',' + (pieces[i + 1] ?? '');
        i++;
      }
    }
    members.push(member);
    lastPiece.push(i);
  }
  return { members, lastPiece };
}
