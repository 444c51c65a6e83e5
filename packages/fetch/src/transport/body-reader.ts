import { pipeline } from 'node:stream';
import type { Readable } from 'node:stream';
import { decoderChain } from './content-decoders.js';

/**
 * The bytes read from a body, at most the cap.
 * @example
 * const { bytes, truncated }: CappedBody = await readCapped(body, 512_000);
 */
export interface CappedBody {
  readonly bytes: Uint8Array;
  /** Whether the body went on past the cap (the rest was not read). */
  readonly truncated: boolean;
}

/**
 * Reads at most `maxBytes` from `source`, then stops reading, so that a huge or endless body
 * costs at most `maxBytes` of memory (plus one chunk). Breaking out of the iteration cancels a
 * web `ReadableStream` (a fetch `Response.body`); a Node stream is left to the caller to
 * destroy. At exactly `maxBytes` one more read tells whether anything follows. A `null`
 * source (a body-less response) is empty.
 * @example
 * const { bytes, truncated } = await readCapped(response.body, 512_000);
 */
export async function readCapped(
  source: AsyncIterable<Uint8Array> | null,
  maxBytes: number,
): Promise<CappedBody> {
  if (source === null) return { bytes: new Uint8Array(0), truncated: false };
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  for await (const chunk of source) {
    if (chunk.byteLength === 0) continue;
    if (total === maxBytes) {
      truncated = true;
      break;
    }
    const room = maxBytes - total;
    if (chunk.byteLength > room) {
      chunks.push(chunk.subarray(0, room));
      total = maxBytes;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    total += chunk.byteLength;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return { bytes, truncated };
}

/**
 * `body` with its `Content-Encoding` undone (as leniently as fetch), so that limits count
 * decompressed bytes; a decoder only produces output as it is read, so a small bomb never
 * inflates past the cap. Throws `Error` with code `ERR_UNSUPPORTED_CONTENT_ENCODING` for a
 * coding it cannot undo, or more than five of them (see `decoderChain`).
 * @example
 * const text = decodedBody(response.body, response.headers['content-encoding']);
 */
export function decodedBody(
  body: Readable,
  contentEncoding: string | readonly string[] | undefined,
): Readable {
  const decoders = decoderChain(contentEncoding);
  if (typeof decoders === 'string') throw unsupported(decoders);
  if (decoders.length === 0) return body;
  // pipeline destroys every stream when the last one is destroyed or any one fails.
  return pipeline([body, ...decoders], () => {}) as unknown as Readable;
}

function unsupported(message: string): Error {
  return Object.assign(new Error(message), { code: 'ERR_UNSUPPORTED_CONTENT_ENCODING' });
}
