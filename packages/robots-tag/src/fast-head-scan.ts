import { AFTER_HEAD, ENDS_HEAD, IN_HEAD, TEXT_CONTENT, VOID_IN_HEAD } from './head-elements.js';
import {
  AMPERSAND,
  BANG,
  DASH,
  DOUBLE_QUOTE,
  EQUALS,
  GT,
  LEFT_BRACKET,
  QUESTION,
  SINGLE_QUOTE,
  SLASH,
  isAsciiAlpha,
  isSpace,
} from './html-chars.js';
import { findScriptEnd } from './script-data-states.js';

/**
 * A fast path for finding the robots metas of a document head without a general HTML parser.
 *
 * It reads the tokens of an ordinary head (tags with attributes, comments, doctype, the text of
 * `<title>`, `<script>` and `<style>`) exactly as htmlparser2 with the scanner's tokenizer
 * (`browser-tokenizer.ts`: browsers' token boundaries) tokenizes them, and answers
 * `'unsupported'` for anything it does not model (entities where they could change a verdict,
 * CDATA, `<template>`, `<noframes>`, very long tokens). The caller then gives the whole text to
 * htmlparser2 instead, so the fast path can only ever be faster, never different: it ends the
 * head at the same token, after the same metas, in the same write.
 */

/** What the fast path made of the text so far. */
export type FastHeadVerdict =
  /** The head is over; `state.metas` holds every meta before that point. */
  | 'head-end'
  /** No verdict yet: call again with the text from `state.consumed` on plus what comes next. */
  | 'need-more'
  /** Something the fast path does not model: use the full parser on the whole text. */
  | 'unsupported';

/**
 * The `name` and `content` attributes of one meta, as written (no entities in them unless
 * `exact` is false).
 */
export interface HeadMeta {
  readonly name: string | undefined;
  readonly content: string | undefined;
  /** Neither value holds `&`, so neither would change by entity decoding. */
  readonly exact: boolean;
}

/** What the fast path carries from one call to the next. */
export interface FastHeadState {
  /** Length of the complete tokens at the start of the last text (valid after 'need-more'). */
  consumed: number;
  /** htmlparser2's stack of open elements, innermost last (only head elements get here). */
  readonly open: string[];
  /** `</head>` was seen (the "after head" insertion mode). */
  afterHead: boolean;
  /** Metas of the head so far, in document order. */
  readonly metas: HeadMeta[];
  /** The last open tag read (scratch for {@link readOpenTag}, so no object per tag). */
  tag: KnownTag | undefined;
  tagMeta: HeadMeta | undefined;
}

/**
 * Longest run of text the fast path holds while waiting for a token to end (a long inline
 * script arriving in many small writes would otherwise be re-read on every write).
 */
export const FAST_PATH_MAX_PENDING = 65_536;

/**
 * How many times over the text it was given the fast path may read, re-reads of unfinished
 * tokens included, beyond a first {@link FAST_PATH_MAX_PENDING} characters. An unfinished token
 * is read again from its start on every write, so a long one arriving a byte at a time would
 * cost time quadratic in its length; past this budget htmlparser2 (linear) reads instead.
 */
export const FAST_PATH_READ_FACTOR = 8;

/**
 * Whether the fast path has read more than its budget, having read `read` characters in all
 * for `fed` characters given.
 * @example
 * fastPathOverBudget(600_000, 10); // true: htmlparser2 takes over
 */
export function fastPathOverBudget(read: number, fed: number): boolean {
  return read > FAST_PATH_READ_FACTOR * fed + FAST_PATH_MAX_PENDING;
}

/**
 * htmlparser2 compares the end tag of a text element as `(c | 0x20)`, so in a text element
 * these two control characters pass for `<` and `/`.
 */
const LOOKALIKE_LT = 0x1c;
const LOOKALIKE_SLASH = 0x0f;

/** htmlparser2's end of a tag name or attribute section. */
function endsTagSection(c: number): boolean {
  return c === SLASH || c === GT || isSpace(c);
}

/**
 * @example
 * const state = createFastHeadState();
 * scanHeadFast('<head><meta name="robots" content="noindex"></head><body>', state); // 'head-end'
 */
export function createFastHeadState(): FastHeadState {
  return {
    consumed: 0,
    open: [],
    afterHead: false,
    metas: [],
    tag: undefined,
    tagMeta: undefined,
  };
}

/** What the fast path knows of a tag name it tells apart (one lookup, no set per question). */
interface KnownTag {
  readonly name: string;
  /** Kept in the head ("in head" insertion mode). */
  readonly inHead: boolean;
  /** Still goes into the head between `</head>` and the body. */
  readonly afterHead: boolean;
  /** Its content is text (`title`, `script`, `style`). */
  readonly textContent: boolean;
  /** Never on htmlparser2's stack of open elements. */
  readonly voidInHead: boolean;
  /** Its end tag ends the head wherever it appears. */
  readonly endsHead: boolean;
}

/** A tag name's length and first and last characters, ASCII lower-cased: one number. */
function tagKey(length: number, first: number, last: number): number {
  return (length << 16) | ((first | 0x20) << 8) | (last | 0x20);
}

/**
 * Tag names the fast path tells apart, by {@link tagKey} (distinct for these names): any other
 * open tag ends the head, any other end tag is ignored. A name is found with one lookup and
 * compared with its one candidate.
 */
const KNOWN_TAGS: ReadonlyMap<number, KnownTag> = (() => {
  const byKey = new Map<number, KnownTag>();
  const names = new Set([...IN_HEAD, ...ENDS_HEAD]);
  for (const name of names) {
    byKey.set(tagKey(name.length, name.charCodeAt(0), name.charCodeAt(name.length - 1)), {
      name,
      inHead: IN_HEAD.has(name),
      afterHead: AFTER_HEAD.has(name),
      textContent: TEXT_CONTENT.has(name),
      voidInHead: VOID_IN_HEAD.has(name),
      endsHead: ENDS_HEAD.has(name),
    });
  }
  if (byKey.size !== names.size) throw new Error('fast-head-scan: known tag keys collide');
  return byKey;
})();

/** {@link KNOWN_TAGS} by name, for names that are not ASCII. */
const KNOWN_BY_NAME: ReadonlyMap<string, KnownTag> = new Map(
  [...KNOWN_TAGS.values()].map((tag) => [tag.name, tag]),
);

function hasNonAscii(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (text.charCodeAt(i) >= 0x80) return true;
  return false;
}

/** Whether `text` from `start` holds `lower` in any ASCII case (the caller checked the length). */
function equalsIgnoringAsciiCase(text: string, start: number, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const c = text.charCodeAt(start + i);
    if ((c >= 0x41 && c <= 0x5a ? c | 0x20 : c) !== lower.charCodeAt(i)) return false;
  }
  return true;
}

/**
 * Whether `text[start, end)` lower-cases (with `toLowerCase`, as htmlparser2 does) to `lower`.
 * ASCII is compared in place, with no string made; anything else is lower-cased in full (the
 * Kelvin sign lower-cases to `k`, and some characters to two).
 */
function lowerCasesTo(text: string, start: number, end: number, lower: string): boolean {
  if (hasNonAscii(text, start, end)) return text.slice(start, end).toLowerCase() === lower;
  return end - start === lower.length && equalsIgnoringAsciiCase(text, start, lower);
}

/**
 * The known tag named `text[start, end)` (any case), if it is one. `nonAscii`: the name holds
 * a character past ASCII, and is then lower-cased in full as htmlparser2 does.
 */
function knownTag(
  text: string,
  start: number,
  end: number,
  nonAscii: boolean,
): KnownTag | undefined {
  if (nonAscii) return KNOWN_BY_NAME.get(text.slice(start, end).toLowerCase());
  const tag = KNOWN_TAGS.get(tagKey(end - start, text.charCodeAt(start), text.charCodeAt(end - 1)));
  return tag !== undefined && equalsIgnoringAsciiCase(text, start, tag.name) ? tag : undefined;
}

function headMeta(name: string | undefined, content: string | undefined): HeadMeta {
  return {
    name,
    content,
    exact: !(name?.includes('&') === true || content?.includes('&') === true),
  };
}

/**
 * Reads the open tag whose name starts at `start` (just past `<`), following htmlparser2's
 * tokenizer state by state, and returns the index just past its `>` (-1: the text ends inside
 * the tag). The tag goes to `state.tag` (`undefined` for a name that is not known),
 * and, for a meta, `state.tagMeta`; other attributes are not kept. A `/` before the `>` changes
 * nothing: void elements have no end anyway, and browsers ignore it on the others.
 */
function readOpenTag(text: string, start: number, state: FastHeadState): number {
  const length = text.length;
  let at = start + 1;
  // Every character of the name or-ed together: whether one is past ASCII.
  let seen = text.charCodeAt(start);
  for (; at < length; at++) {
    const c = text.charCodeAt(at);
    if (endsTagSection(c)) break;
    seen |= c;
  }
  if (at >= length) return -1;
  const tag = knownTag(text, start, at, seen >= 0x80);
  const isMeta = tag?.name === 'meta';
  // The first of duplicate attributes counts.
  let metaName: string | undefined;
  let metaContent: string | undefined;
  for (;;) {
    // Before an attribute name.
    if (at >= length) return -1;
    let c = text.charCodeAt(at);
    if (c === GT) break;
    if (c === SLASH) {
      // Self-closing: `/` then spaces then `>`; anything else goes back to attributes.
      at++;
      while (at < length && isSpace(text.charCodeAt(at))) at++;
      if (at >= length) return -1;
      if (text.charCodeAt(at) === GT) break;
      continue;
    }
    if (isSpace(c)) {
      at++;
      continue;
    }
    // An attribute name: its first character is taken whatever it is (even `=`).
    const nameStart = at;
    at++;
    while (at < length) {
      c = text.charCodeAt(at);
      if (c === EQUALS || endsTagSection(c)) break;
      at++;
    }
    if (at >= length) return -1;
    const kept = !isMeta
      ? undefined
      : metaName === undefined && lowerCasesTo(text, nameStart, at, 'name')
        ? 'name'
        : metaContent === undefined && lowerCasesTo(text, nameStart, at, 'content')
          ? 'content'
          : undefined;
    // After the name.
    while (at < length && isSpace(text.charCodeAt(at))) at++;
    if (at >= length) return -1;
    // Without `=` the attribute has no value; `/`, `>` or the next name is read by the loop.
    let value = '';
    if (text.charCodeAt(at) === EQUALS) {
      at++;
      // Before the value.
      while (at < length && isSpace(text.charCodeAt(at))) at++;
      if (at >= length) return -1;
      c = text.charCodeAt(at);
      if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
        const close = text.indexOf(c === DOUBLE_QUOTE ? '"' : "'", at + 1);
        if (close === -1) return -1;
        if (kept !== undefined) value = text.slice(at + 1, close);
        at = close + 1;
      } else {
        const valueStart = at;
        while (at < length) {
          c = text.charCodeAt(at);
          if (c === GT || isSpace(c)) break;
          at++;
        }
        if (at >= length) return -1;
        if (kept !== undefined) value = text.slice(valueStart, at);
      }
    }
    if (kept === 'name') metaName = value;
    else if (kept === 'content') metaContent = value;
  }
  state.tag = tag;
  state.tagMeta = isMeta ? headMeta(metaName, metaContent) : undefined;
  return at + 1;
}

/** Whether `text[start, end)` holds a character that passes for `<` or `/` in a text element. */
function hasSequenceLookalike(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === LOOKALIKE_LT || c === LOOKALIKE_SLASH) return true;
  }
  return false;
}

/**
 * Where the end tag of a text element (`</title`, `</script`, `</style`, any case, then `>`,
 * `/` or a space) starts, searching from `from`; -1 when the text ends first.
 */
function findTextElementEnd(text: string, name: string, from: number): number {
  const length = text.length;
  for (let at = text.indexOf('</', from); at !== -1; at = text.indexOf('</', at + 1)) {
    const after = at + 2 + name.length;
    if (after >= length) return -1;
    let same = true;
    for (let i = 0; i < name.length; i++) {
      if ((text.charCodeAt(at + 2 + i) | 0x20) !== name.charCodeAt(i)) {
        same = false;
        break;
      }
    }
    if (!same) continue;
    const c = text.charCodeAt(after);
    if (c === GT || c === SLASH || isSpace(c)) return at;
  }
  return -1;
}

/**
 * Where the end tag of a script's text starts, from `from`; -1 when the text ends first. A
 * `<!--` before the first candidate may hide it (see `script-data-states.ts`): only then is
 * the text followed character by character.
 */
function findScriptTextEnd(text: string, from: number): number {
  const plain = findTextElementEnd(text, 'script', from);
  const to = plain === -1 ? text.length : plain;
  // From `<` to `<`: the search stops at `plain` (itself a `<`), never runs on to the text's end.
  for (let lt = text.indexOf('<', from); lt !== -1 && lt < to; lt = text.indexOf('<', lt + 1)) {
    if (text.startsWith('!--', lt + 1)) return findScriptEnd(text, from);
  }
  return plain;
}

/**
 * Where the comment opened by `<!--` at `lt` ends (just past it), or -1 when the text ends
 * first: at the first `-->`, the dashes of `<!--` included (`<!-->` and `<!--->` are whole
 * comments), or at a `--!>` whose dashes come after `<!--`.
 */
function commentEnd(text: string, lt: number): number {
  const dashes = text.indexOf('-->', lt + 2);
  // A `--!>` before it, looked for only up to it: a search on to the end of the text for each
  // comment would cost time quadratic in the number of comments.
  const limit = dashes === -1 ? text.length - 1 : dashes;
  for (let i = lt + 6; i < limit; i++) {
    if (
      text.charCodeAt(i) === BANG &&
      text.charCodeAt(i + 1) === GT &&
      text.charCodeAt(i - 1) === DASH &&
      text.charCodeAt(i - 2) === DASH
    ) {
      return i + 2;
    }
  }
  return dashes === -1 ? -1 : dashes + 3;
}

/** No verdict yet: the next call starts at `at`, unless too much would be held. */
function needMore(state: FastHeadState, text: string, at: number): FastHeadVerdict {
  if (text.length - at > FAST_PATH_MAX_PENDING) return 'unsupported';
  state.consumed = at;
  return 'need-more';
}

/** Markup htmlparser2 reports as text from `<` (at `lt`) on: not blank, so the head is over. */
function textFrom(text: string, lt: number): FastHeadVerdict {
  const after = text.indexOf('<', lt + 1);
  const ampersand = text.indexOf('&', lt);
  return ampersand !== -1 && (after === -1 || ampersand < after) ? 'unsupported' : 'head-end';
}

/**
 * Reads `text` (the document from the end of the last complete token on) until the head is
 * over, the text ends, or something the fast path does not model. See the file comment.
 * @example
 * const state = createFastHeadState();
 * if (scanHeadFast('<!doctype html><title>x</title><body>', state) === 'head-end') state.metas; // []
 */
export function scanHeadFast(text: string, state: FastHeadState): FastHeadVerdict {
  const { open, metas } = state;
  const length = text.length;
  let at = 0;
  while (at < length) {
    const lt = text.indexOf('<', at);
    const textEnd = lt === -1 ? length : lt;
    if (textEnd > at) {
      // Text: blank text stays in the head, anything else ends it. An entity might decode
      // to a space, and moves where htmlparser2 reports the text.
      let blank = true;
      for (let i = at; i < textEnd; i++) {
        const c = text.charCodeAt(i);
        if (c === AMPERSAND) return 'unsupported';
        if (!isSpace(c)) blank = false;
      }
      if (!blank) return 'head-end';
      at = textEnd;
    }
    if (lt === -1 || lt + 1 >= length) return needMore(state, text, at);
    const next = text.charCodeAt(lt + 1);
    if (isAsciiAlpha(next)) {
      let end = readOpenTag(text, lt + 1, state);
      if (end === -1) return needMore(state, text, at);
      const tag = state.tag;
      if (tag === undefined || !(state.afterHead ? tag.afterHead : tag.inHead)) {
        return 'head-end';
      }
      const { name } = tag;
      if (name === 'template' || name === 'noframes') return 'unsupported';
      if (tag.textContent) {
        const close =
          name === 'script' ? findScriptTextEnd(text, end) : findTextElementEnd(text, name, end);
        if (hasSequenceLookalike(text, end, close === -1 ? length : close)) return 'unsupported';
        if (close === -1) return needMore(state, text, at);
        const gt = text.indexOf('>', close + 2 + name.length);
        if (gt === -1) return needMore(state, text, at);
        end = gt + 1;
      } else {
        if (state.tagMeta !== undefined) metas.push(state.tagMeta);
        if (!tag.voidInHead) open.push(name);
      }
      at = end;
    } else if (next === SLASH) {
      const nameStart = lt + 2;
      if (nameStart >= length) return needMore(state, text, at);
      const first = text.charCodeAt(nameStart);
      // `</>` is dropped.
      if (first === GT) {
        at = nameStart + 1;
        continue;
      }
      if (!isAsciiAlpha(first)) {
        // A bogus comment up to the next `>` (`</ x>` too).
        const gt = text.indexOf('>', nameStart + 1);
        if (gt === -1) return needMore(state, text, at);
        at = gt + 1;
        continue;
      }
      let nameEnd = nameStart + 1;
      let seen = first;
      for (; nameEnd < length; nameEnd++) {
        const c = text.charCodeAt(nameEnd);
        // A `/` ends the name too (`</head/>`); the rest up to `>` is skipped.
        if (c === GT || c === SLASH || isSpace(c)) break;
        seen |= c;
      }
      if (nameEnd >= length) return needMore(state, text, at);
      // Only known names can be open or end the head; others are read past.
      const tag = knownTag(text, nameStart, nameEnd, seen >= 0x80);
      // htmlparser2 turns `</br>` into a `<br>`; other end tags close what is open.
      if (tag?.name === 'br') return 'head-end';
      const position = tag === undefined ? -1 : open.lastIndexOf(tag.name);
      if (position !== -1 && tag!.endsHead) return 'head-end';
      const gt = text.indexOf('>', nameEnd);
      if (gt === -1) return needMore(state, text, at);
      if (position !== -1) {
        // Most often the innermost element closes: pop it, without resizing the array.
        while (open.length > position) open.pop();
        if (tag!.name === 'head') state.afterHead = true;
      }
      at = gt + 1;
    } else if (next === BANG) {
      if (lt + 3 >= length) return needMore(state, text, at);
      const kind = text.charCodeAt(lt + 2);
      let end: number;
      if (kind === LEFT_BRACKET) return 'unsupported';
      if (kind === DASH && text.charCodeAt(lt + 3) === DASH) {
        end = commentEnd(text, lt);
      } else {
        // A declaration or bogus comment (`<!doctype …>`, `<!>`, `<!->`) ends at the first
        // `>` after `<!` (after `<!-` when it starts so).
        const gt = text.indexOf('>', kind === DASH ? lt + 3 : lt + 2);
        end = gt === -1 ? -1 : gt + 1;
      }
      if (end === -1) return needMore(state, text, at);
      at = end;
    } else if (next === QUESTION) {
      const gt = text.indexOf('>', lt + 2);
      if (gt === -1) return needMore(state, text, at);
      at = gt + 1;
    } else {
      // `<` that starts no tag is text.
      return textFrom(text, lt);
    }
  }
  return needMore(state, text, at);
}
