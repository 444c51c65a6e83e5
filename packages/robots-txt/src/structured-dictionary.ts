/**
 * An exact parser for the Structured Fields Dictionary (RFC 9651 §4.2, §4.2.2), the format
 * of a statement of preference (vocab §6), for robots.txt rules and the `Content-Usage` field
 * alike. Zero dependencies: this package has none.
 *
 * Only what preference processing needs is kept: each member's key, whether its value is a
 * Token and which, and the value in its canonical form (RFC 9651 §4.1: `1.50` is `1.5`, `007`
 * is `7`, `(a  b)` is `(a b)`), so two spellings of one value read the same. Every type is
 * parsed in full, because a value that fails anywhere makes the whole dictionary fail
 * (vocab §6.5.1), a Date (`@1`) included.
 */

import { charTable } from './product-token.js';

/** One dictionary member: the value without its parameters. */
export interface DictionaryMember {
  /** The Token's characters when the value is a Token, else `undefined`. */
  readonly token: string | undefined;
  /**
   * The value serialised as RFC 9651 §4.1 serialises it (a Boolean `true` with no `=` is
   * `?1`), the member's parameters dropped; an Inner List keeps its items' parameters.
   */
  readonly value: string;
}
/** Thrown inside the parser only, caught by {@link parseStructuredDictionary}. */
class ParseFailure extends Error {}
const FAIL = new ParseFailure('not a Structured Fields Dictionary');

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
/** The first character of a Token (ALPHA, `*`), then the rest: tchar (RFC 9110 §5.6.2), `:`, `/`. */
const TOKEN_START = charTable(/[A-Za-z*]/);
const TOKEN_CHARS = charTable(/[A-Za-z0-9!#$%&'*+\-.^_`|~:/]/);
/** The first character of a key (lcalpha, `*`), then the rest. */
const KEY_START = charTable(/[a-z*]/);
const KEY_CHARS = charTable(/[a-z0-9_\-.*]/);
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
        member = { token: undefined, value: '?1' };
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
    if (KEY_START[c] !== 1) this.fail();
    this.pos++;
    for (let d = this.at(); d >= 0 && d < 128 && KEY_CHARS[d] === 1; d = this.at()) this.pos++;
    return this.s.slice(start, this.pos);
  }

  /** A member's value; its own parameters are parsed and dropped. */
  itemOrInnerList(): DictionaryMember {
    if (this.at() === 40 /* ( */) {
      const value = this.innerList();
      this.parameters();
      return { token: undefined, value };
    }
    const [value, isToken] = this.bareItem();
    this.parameters();
    return { token: isToken ? value : undefined, value };
  }

  /** An Inner List, serialised: items (with their parameters) joined by one SP. */
  innerList(): string {
    this.pos++;
    const s = this.s;
    const items: string[] = [];
    while (this.pos < s.length) {
      this.sp();
      if (this.at() === 41 /* ) */) {
        this.pos++;
        return `(${items.join(' ')})`;
      }
      const [value] = this.bareItem();
      items.push(value + this.parameters());
      const c = this.at();
      if (c !== 32 && c !== 41) this.fail();
    }
    this.fail();
  }

  /** Parses one bare item: its canonical text, and whether it was a Token. */
  bareItem(): [string, boolean] {
    const c = this.at();
    if (c === 45 || isDigit(c)) return [this.number(false), false];
    if (c === 34 /* " */) return [this.string(), false];
    if (TOKEN_START[c] === 1) return [this.token(), true];
    if (c === 58 /* : */) return [this.byteSequence(), false];
    if (c === 63 /* ? */) return [this.boolean(), false];
    if (c === 64 /* @ */) {
      this.pos++;
      return [`@${this.number(true)}`, false];
    }
    if (c === 37 /* % */) return [this.displayString(), false];
    this.fail();
  }

  /**
   * Parameters, serialised (RFC 9651 §4.1.1.2): a later duplicate key overwrites the value
   * in the first one's place; a `true` value is written as the key alone.
   */
  parameters(): string {
    let params: Map<string, string> | undefined;
    while (this.at() === 59 /* ; */) {
      this.pos++;
      this.sp();
      const key = this.key();
      let value = '?1';
      if (this.at() === 61) {
        this.pos++;
        [value] = this.bareItem();
      }
      (params ??= new Map()).set(key, value);
    }
    if (params === undefined) return '';
    let out = '';
    for (const [key, value] of params) out += value === '?1' ? `;${key}` : `;${key}=${value}`;
    return out;
  }

  /**
   * Integer or Decimal (RFC 9651 §4.2.4; a Date's number must be an Integer), serialised
   * (§4.1.4, §4.1.5): no leading zeros, no trailing zeros after the first fraction digit,
   * no sign on zero.
   */
  number(integerOnly: boolean): string {
    const negative = this.at() === 45;
    if (negative) this.pos++;
    if (!isDigit(this.at())) this.fail();
    const start = this.pos;
    let digits = 0;
    let dot = -1;
    for (;;) {
      const c = this.at();
      if (isDigit(c)) digits++;
      else if (dot < 0 && c === 46 /* . */) {
        if (digits > 12) this.fail();
        dot = this.pos;
      } else break;
      this.pos++;
      // The length counts the '.' too (input_number in the RFC).
      const length = digits + (dot < 0 ? 0 : 1);
      if (dot < 0 && length > 15) this.fail();
      if (dot >= 0 && length > 16) this.fail();
    }
    const fraction = dot < 0 ? 0 : this.pos - dot - 1;
    if (dot >= 0 && (integerOnly || fraction === 0 || fraction > 3)) this.fail();
    const whole = this.s.slice(start, dot < 0 ? this.pos : dot).replace(/^0+(?=.)/, '');
    const decimals = dot < 0 ? '' : this.s.slice(dot + 1, this.pos).replace(/(?<=.)0+$/, '');
    const zero = whole === '0' && (decimals === '' || decimals === '0');
    return (negative && !zero ? '-' : '') + whole + (dot < 0 ? '' : `.${decimals}`);
  }

  /** A String; as accepted (only `\"` and `\\` escapes, printable ASCII) it is canonical. */
  string(): string {
    const s = this.s;
    const start = this.pos++;
    while (this.pos < s.length) {
      const c = s.charCodeAt(this.pos++);
      if (c === 92 /* \ */) {
        if (this.pos >= s.length) this.fail();
        const next = s.charCodeAt(this.pos++);
        if (next !== 34 && next !== 92) this.fail();
      } else if (c === 34) return s.slice(start, this.pos);
      else if (c < 0x20 || c > 0x7e) this.fail();
    }
    this.fail();
  }

  token(): string {
    const start = this.pos++;
    for (let c = this.at(); c >= 0 && c < 128 && TOKEN_CHARS[c] === 1; c = this.at()) this.pos++;
    return this.s.slice(start, this.pos);
  }

  /**
   * A Byte Sequence, re-encoded as padded base64 (RFC 9651 §4.1.8). The platform's base64
   * decoder is the forgiving one RFC 9651 §4.2.7 allows: padding may be absent, the unused
   * bits of a last partial group are dropped, and anything else fails.
   */
  byteSequence(): string {
    const s = this.s;
    this.pos++;
    const end = s.indexOf(':', this.pos);
    if (end < 0) this.fail();
    const content = s.slice(this.pos, end);
    this.pos = end + 1;
    if (!BASE64.test(content)) this.fail();
    let bytes: string;
    try {
      bytes = atob(content);
    } catch {
      this.fail();
    }
    return `:${btoa(bytes)}:`;
  }

  boolean(): string {
    this.pos++;
    const c = this.at();
    if (c !== 48 && c !== 49) this.fail();
    this.pos++;
    return c === 48 ? '?0' : '?1';
  }

  /** A Display String, re-encoded (RFC 9651 §4.1.11): `%`, `"` and non-printables as `%xx`. */
  displayString(): string {
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
        let out = '%"';
        for (const b of bytes)
          out +=
            b === 37 || b === 34 || b < 0x20 || b > 0x7e
              ? `%${b.toString(16).padStart(2, '0')}`
              : String.fromCharCode(b);
        return `${out}"`;
      } else bytes.push(c);
    }
    this.fail();
  }
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
