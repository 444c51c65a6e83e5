import { byteOrderMarkEncoding } from './byte-order-mark.js';

/**
 * Input is handed on in slices of at most this many bytes (or code units), so that a scan of a
 * huge chunk stops soon after the head ends.
 */
export const DECODE_SLICE = 16_384;

/** Receives decoded text. */
export interface TextSink {
  /** Takes the next piece; returns `false` once it wants no more. */
  text(text: string): boolean;
}

/** What {@link HeadDecoder.write} did with a chunk. */
export type DecodeOutcome =
  | 'taken' // every byte was decoded and handed on
  | 'stopped' // the sink wanted no more
  | 'cap'; // `maxBytes` was reached with input left over

/**
 * The decoding step of a meta scan: bytes (in any split) or text in, text out, at most
 * `maxBytes` of input. A byte-order mark picks the encoding whatever was declared, as the WHATWG
 * Encoding standard's "decode" does (and browsers), and is not content: a leading U+FEFF of
 * string input is dropped too. Bytes and text may be mixed: a character left incomplete by the
 * bytes is flushed (as U+FFFD) before the text.
 * @example
 * const decoder = new HeadDecoder('utf-8', 262_144);
 * decoder.write(Uint8Array.of(0xef, 0xbb, 0xbf, 0x3c), { text: (t) => (console.log(t), true) }); // '<'
 */
export class HeadDecoder {
  readonly #encoding: string;
  readonly #maxBytes: number;
  /** Created when the first bytes that cannot start a byte-order mark arrive. */
  #decoder: InstanceType<typeof TextDecoder> | undefined;
  /** The decoder holds part of a character. */
  #decoderDirty = false;
  /** The first bytes, held while they could still start a byte-order mark. */
  #markBytes: Uint8Array | undefined;
  #bytes = 0;

  constructor(encoding: string, maxBytes: number) {
    this.#encoding = encoding;
    this.#maxBytes = maxBytes;
  }

  /** Bytes (or code units, for text) taken so far; never above `maxBytes`. */
  get bytes(): number {
    return this.#bytes;
  }

  write(chunk: string | Uint8Array, sink: TextSink): DecodeOutcome {
    return typeof chunk === 'string' ? this.#writeText(chunk, sink) : this.#writeBytes(chunk, sink);
  }

  /** Flushes held bytes and a character split at the end of input. */
  end(sink: TextSink): void {
    if (this.#flushMarkBytes(sink) !== 'taken') return;
    const rest = this.#decoder?.decode() ?? '';
    this.#decoderDirty = false;
    if (rest !== '') sink.text(rest);
  }

  /** Bytes held to tell whether they start a byte-order mark: decoded as they are after all. */
  #flushMarkBytes(sink: TextSink): DecodeOutcome {
    const held = this.#markBytes;
    if (held === undefined) return 'taken';
    this.#markBytes = undefined;
    this.#decoder = new TextDecoder(this.#encoding);
    return this.#writeBytes(held, sink);
  }

  #writeText(chunk: string, sink: TextSink): DecodeOutcome {
    if (this.#flushMarkBytes(sink) !== 'taken') return 'stopped';
    if (this.#decoderDirty) {
      this.#decoderDirty = false;
      const rest = this.#decoder!.decode();
      if (rest !== '' && !sink.text(rest)) return 'stopped';
    }
    for (let at = 0; at < chunk.length;) {
      const room = this.#maxBytes - this.#bytes;
      if (room <= 0) return 'cap';
      const piece = chunk.slice(at, at + Math.min(DECODE_SLICE, room));
      const text = this.#bytes === 0 && piece.charCodeAt(0) === 0xfeff ? piece.slice(1) : piece;
      at += piece.length;
      this.#bytes += piece.length;
      if (text !== '' && !sink.text(text)) return 'stopped';
    }
    return 'taken';
  }

  #writeBytes(given: Uint8Array, sink: TextSink): DecodeOutcome {
    let chunk = given;
    let decoder = this.#decoder;
    if (decoder === undefined) {
      const held = this.#markBytes;
      if (held !== undefined) {
        this.#markBytes = undefined;
        chunk = new Uint8Array(held.length + given.length);
        chunk.set(held);
        chunk.set(given, held.length);
      }
      let encoding = this.#encoding;
      if (this.#bytes === 0) {
        const marked = byteOrderMarkEncoding(chunk);
        if (marked === 'too-short') {
          this.#markBytes = chunk.slice();
          return 'taken';
        }
        if (marked !== undefined) encoding = marked;
      }
      decoder = this.#decoder = new TextDecoder(encoding);
    }
    for (let at = 0; at < chunk.length;) {
      const room = this.#maxBytes - this.#bytes;
      if (room <= 0) return 'cap';
      const piece = chunk.subarray(at, at + Math.min(DECODE_SLICE, room));
      at += piece.length;
      this.#bytes += piece.length;
      this.#decoderDirty = true;
      const text = decoder.decode(piece, { stream: true });
      if (text !== '' && !sink.text(text)) return 'stopped';
    }
    return 'taken';
  }
}
