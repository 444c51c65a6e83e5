/**
 * Strings a parsed file keeps are built from copies of the body's characters, never from
 * slices of it: a slice (or a concatenation of slices) may share the body's memory and keep
 * all of it alive, depending on how the engine represents strings (V8 changed that between
 * Node 20 and 24). A string made from numbers or bytes cannot share memory with another
 * string, whatever the engine does. The corpus benchmark's retained-heap row measures it.
 */

const utf8 = new TextDecoder();

/**
 * ASCII text assembled in a byte buffer (the parsed file's packed entries and patterns),
 * made into one string at the end.
 */
export class AsciiText {
  #bytes = new Uint8Array(256);
  #length = 0;

  get length(): number {
    return this.#length;
  }

  /** Appends `s[from, to)`, which must be ASCII. */
  append(s: string, from = 0, to = s.length): void {
    const end = this.#length + to - from;
    if (end > this.#bytes.length) this.#grow(end);
    const bytes = this.#bytes;
    let at = this.#length;
    for (let i = from; i < to; i++) bytes[at++] = s.charCodeAt(i);
    this.#length = end;
  }

  /** Appends another builder's text. */
  appendText(text: AsciiText): void {
    const end = this.#length + text.#length;
    if (end > this.#bytes.length) this.#grow(end);
    this.#bytes.set(text.#bytes.subarray(0, text.#length), this.#length);
    this.#length = end;
  }

  /** Empties the text, keeping a buffer of up to 64 KiB for the next one. */
  clear(): void {
    this.#length = 0;
    if (this.#bytes.length > 1 << 16) this.#bytes = new Uint8Array(256);
  }

  /** The text, decoded from the bytes: a new string. */
  toString(): string {
    return utf8.decode(this.#bytes.subarray(0, this.#length));
  }

  #grow(least: number): void {
    const bytes = new Uint8Array(Math.max(least, this.#bytes.length * 2));
    bytes.set(this.#bytes.subarray(0, this.#length));
    this.#bytes = bytes;
  }
}

const CHUNK = 8192;
const units = new Uint16Array(CHUNK);

/**
 * A copy of `s[from, to)` made from its UTF-16 code units (lone surrogates included), for
 * the few short strings kept apart from the packed text (patterns as written, usage values,
 * sitemap URLs, diagnostic details).
 * @example
 * copyText('Disallow: /private', 10); // '/private', sharing nothing with the line
 */
export function copyText(s: string, from = 0, to = s.length): string {
  let copy = '';
  for (let start = from; start < to; start += CHUNK) {
    const end = Math.min(to, start + CHUNK);
    for (let i = start; i < end; i++) units[i - start] = s.charCodeAt(i);
    copy += String.fromCharCode.apply(null, units.subarray(0, end - start) as unknown as number[]);
  }
  return copy;
}
