/**
 * An exact parser for the Structured Fields Dictionary (RFC 9651 §4.2, §4.2.2), the format
 * of a statement of preference (vocab §6). This package has no dependencies, so it cannot
 * use `structured-headers` as @polite-crawler/robots-tag does; a test checks that the two
 * agree on generated input (see the README for the one place where they differ).
 *
 * Only what preference processing needs is kept: each member's key, whether its value is a
 * Token and which, and the value's text. Every other type is parsed in full, because a value
 * that fails anywhere makes the whole dictionary fail (vocab §6.5.1).
 */

/** One dictionary member: the value without its parameters. */
export interface DictionaryMember {
  /** The Token's characters when the value is a Token, else `undefined`. */
  readonly token: string | undefined;
  /** The value as written (a Boolean `true` with no `=` is `?1`), parameters dropped. */
  readonly raw: string;
}

/** Thrown inside the parser only, caught by {@link parseStructuredDictionary}. */
class ParseFailure extends Error {}
const FAIL = new ParseFailure('not a Structured Fields Dictionary');

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isAlpha(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isLcAlpha(c: number): boolean {
  return c >= 97 && c <= 122;
}
/** tchar (RFC 9110 §5.6.2), plus ':' and '/', as sf-token allows after the first character. */
const TOKEN_CHARS = ((): Uint8Array => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) if (isAlpha(c) || isDigit(c)) t[c] = 1;
  for (const ch of "!#$%&'*+-.^_`|~:/") t[ch.charCodeAt(0)] = 1;
  return t;
})();
const KEY_CHARS = ((): Uint8Array => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) if (isLcAlpha(c) || isDigit(c)) t[c] = 1;
  for (const ch of '_-.*') t[ch.charCodeAt(0)] = 1;
  return t;
})();
const BASE64 = /^[A-Za-z0-9+/=]*$/;

class Parser {
  pos = 0;
  constructor(readonly s: string) {}

  fail(): never {
    throw FAIL;
  }

  at(): number {
    return this.pos < this.s.length ? this.s.charCodeAt(this.pos) : -1;
  }

  dictionary(): Map<string, DictionaryMember> {
    const out = new Map<string, DictionaryMember>();
    const s = this.s;
    while (this.pos < s.length) {
      const key = this.key();
      let member: DictionaryMember;
      if (this.at() === 61 /* = */) {
        this.pos++;
        member = this.itemOrInnerList();
      } else {
        member = { token: undefined, raw: '?1' };
        this.parameters();
      }
      // A duplicate key overwrites the value, keeping the first position (RFC 9651 §4.2.2).
      out.set(key, member);
      this.ows();
      if (this.pos >= s.length) return out;
      if (this.at() !== 44 /* , */) this.fail();
      this.pos++;
      this.ows();
      if (this.pos >= s.length) this.fail(); // trailing comma
    }
    return out;
  }

  ows(): void {
    for (let c = this.at(); c === 32 || c === 9; c = this.at()) this.pos++;
  }

  sp(): void {
    while (this.at() === 32) this.pos++;
  }

  key(): string {
    const start = this.pos;
    const c = this.at();
    if (!isLcAlpha(c) && c !== 42) this.fail();
    this.pos++;
    for (let d = this.at(); d >= 0 && d < 128 && KEY_CHARS[d] === 1; d = this.at()) this.pos++;
    return this.s.slice(start, this.pos);
  }

  itemOrInnerList(): DictionaryMember {
    if (this.at() === 40 /* ( */) {
      const start = this.pos;
      this.innerList();
      const raw = this.s.slice(start, this.pos);
      this.parameters();
      return { token: undefined, raw };
    }
    return this.item();
  }

  innerList(): void {
    this.pos++;
    const s = this.s;
    while (this.pos < s.length) {
      this.sp();
      if (this.at() === 41 /* ) */) {
        this.pos++;
        return;
      }
      this.item();
      const c = this.at();
      if (c !== 32 && c !== 41) this.fail();
    }
    this.fail();
  }

  item(): DictionaryMember {
    const start = this.pos;
    const isToken = this.bareItem();
    const raw = this.s.slice(start, this.pos);
    this.parameters();
    return { token: isToken ? raw : undefined, raw };
  }

  /** Parses one bare item; true when it was a Token. */
  bareItem(): boolean {
    const c = this.at();
    if (c === 45 || isDigit(c)) this.number(false);
    else if (c === 34 /* " */) this.string();
    else if (c === 42 || isAlpha(c)) {
      this.token();
      return true;
    } else if (c === 58 /* : */) this.byteSequence();
    else if (c === 63 /* ? */) this.boolean();
    else if (c === 64 /* @ */) {
      this.pos++;
      this.number(true);
    } else if (c === 37 /* % */) this.displayString();
    else this.fail();
    return false;
  }

  parameters(): void {
    while (this.at() === 59 /* ; */) {
      this.pos++;
      this.sp();
      this.key();
      if (this.at() === 61) {
        this.pos++;
        this.bareItem();
      }
    }
  }

  /** Integer or Decimal (RFC 9651 §4.2.4); a Date's number must be an Integer. */
  number(integerOnly: boolean): void {
    if (this.at() === 45) this.pos++;
    if (!isDigit(this.at())) this.fail();
    let digits = 0;
    let decimal = false;
    let fraction = 0;
    for (;;) {
      const c = this.at();
      if (isDigit(c)) {
        digits++;
        if (decimal) fraction++;
      } else if (!decimal && c === 46 /* . */) {
        if (digits > 12) this.fail();
        decimal = true;
      } else break;
      this.pos++;
      // The length counts the '.' too (input_number in the RFC).
      const length = digits + (decimal ? 1 : 0);
      if (!decimal && length > 15) this.fail();
      if (decimal && length > 16) this.fail();
    }
    if (decimal) {
      if (integerOnly || fraction === 0 || fraction > 3) this.fail();
    }
  }

  string(): void {
    const s = this.s;
    this.pos++;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos++);
      if (c === 92 /* \ */) {
        if (this.pos >= s.length) this.fail();
        const next = s.charCodeAt(this.pos++);
        if (next !== 34 && next !== 92) this.fail();
      } else if (c === 34) return;
      else if (c < 0x20 || c > 0x7e) this.fail();
    }
    this.fail();
  }

  token(): void {
    this.pos++;
    for (let c = this.at(); c >= 0 && c < 128 && TOKEN_CHARS[c] === 1; c = this.at()) this.pos++;
  }

  byteSequence(): void {
    const s = this.s;
    this.pos++;
    const end = s.indexOf(':', this.pos);
    if (end < 0) this.fail();
    const content = s.slice(this.pos, end);
    this.pos = end + 1;
    if (!BASE64.test(content) || !isBase64(content)) this.fail();
  }

  boolean(): void {
    this.pos++;
    const c = this.at();
    if (c !== 48 && c !== 49) this.fail();
    this.pos++;
  }

  displayString(): void {
    const s = this.s;
    this.pos++;
    if (this.at() !== 34) this.fail();
    this.pos++;
    const bytes: number[] = [];
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos++);
      if (c < 0x20 || c > 0x7e) this.fail();
      if (c === 37 /* % */) {
        const hex = s.slice(this.pos, this.pos + 2);
        if (!/^[0-9a-f]{2}$/.test(hex)) this.fail();
        bytes.push(parseInt(hex, 16));
        this.pos += 2;
      } else if (c === 34) {
        if (!isUtf8(bytes)) this.fail();
        return;
      } else bytes.push(c);
    }
    this.fail();
  }
}

/**
 * Base64 that decodes (RFC 4648 §4, padding synthesised when absent, RFC 9651 §4.2.7):
 * `=` only as one or two final characters of a group of four, never a lone last character.
 */
function isBase64(content: string): boolean {
  const firstPad = content.indexOf('=');
  const data = firstPad < 0 ? content.length : firstPad;
  const padding = content.length - data;
  if (padding > 0) {
    if (padding > 2 || /[^=]/.test(content.slice(data))) return false;
    if (content.length % 4 !== 0) return false;
  }
  return data % 4 !== 1;
}

/** Strict UTF-8 (no overlongs, no surrogates, at most U+10FFFF). */
function isUtf8(bytes: readonly number[]): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
    return true;
  } catch {
    return false;
  }
}

/**
 * Parses `text` as a Structured Fields Dictionary (RFC 9651 §4.2 with §4.2.2): leading and
 * trailing SP are discarded, anything else left over fails. Returns `undefined` on failure,
 * never throws. Input that is not ASCII fails (the field is a byte sequence; vocab §6.3).
 * @example
 * parseStructuredDictionary('train-ai=y, search=n')?.get('search')?.token; // 'n'
 * parseStructuredDictionary('Train-AI=n'); // undefined: keys are lower case
 */
export function parseStructuredDictionary(text: string): Map<string, DictionaryMember> | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(text)) return undefined;
  const parser = new Parser(text);
  try {
    parser.sp();
    const out = parser.dictionary();
    parser.sp();
    return parser.pos === text.length ? out : undefined;
  } catch (error) {
    if (error === FAIL) return undefined;
    throw error;
  }
}
