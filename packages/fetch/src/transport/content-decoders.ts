import { Transform } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import * as zlib from 'node:zlib';

/**
 * Decoders for `Content-Encoding`, as lenient as undici's fetch: what the robots.txt reader and
 * the head scan decode is what a fetch caller would read from the same bytes. Browsers and
 * fetch accept a gzip body without its trailer and `deflate` sent raw (without the zlib
 * wrapper); a strict decoder would turn such a robots.txt into "unreachable" (everything
 * disallowed) and lose a page's robots metas.
 */

/** More codings than this is an error, as in undici's fetch (it bounds the work per body). */
export const MAX_CONTENT_CODINGS = 5;

type ZstdFactory = (options: { flush: number; finishFlush: number }) => Transform;
/** Node ≥ 22.15 decodes zstd, and undici's fetch then does too. */
const createZstd = (zlib as unknown as { createZstdDecompress?: ZstdFactory }).createZstdDecompress;
const ZSTD = zlib.constants as unknown as { ZSTD_e_continue?: number; ZSTD_e_end?: number };

/** Ends each chunk's output without ending the stream (a truncated body is not an error). */
const SYNC = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_SYNC = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

/**
 * `deflate` as fetch reads it: the zlib format when the first byte says so (its low four bits
 * are 8, the deflate method), raw deflate otherwise. The inner decoder is picked at the first
 * byte, then everything goes through it.
 */
class SniffingInflate extends Transform {
  #inner: zlib.Inflate | zlib.InflateRaw | undefined;
  #finished: TransformCallback | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (chunk.length === 0) {
      done();
      return;
    }
    let inner = this.#inner;
    if (inner === undefined) {
      inner = (chunk[0]! & 0x0f) === 0x08 ? zlib.createInflate(SYNC) : zlib.createInflateRaw(SYNC);
      inner.on('data', (data: Buffer) => this.push(data));
      inner.on('end', () => this.#finished?.());
      inner.on('error', (error: Error) => this.destroy(error));
      this.#inner = inner;
    }
    inner.write(chunk, () => done());
  }

  override _flush(done: TransformCallback): void {
    const inner = this.#inner;
    if (inner === undefined) {
      done();
      return;
    }
    this.#finished = done;
    inner.end();
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.#inner?.destroy();
    done(error);
  }
}

/** A decoder for one content coding (lower case), or `undefined` for one fetch cannot undo. */
function createDecoder(coding: string): Transform | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(SYNC);
    case 'deflate':
      return new SniffingInflate();
    case 'br':
      return zlib.createBrotliDecompress(BROTLI_SYNC);
    case 'zstd':
      return createZstd?.({ flush: ZSTD.ZSTD_e_continue!, finishFlush: ZSTD.ZSTD_e_end! });
    default:
      return undefined;
  }
}

/**
 * The members of `Content-Encoding` field values in the order they were applied (lower case,
 * trimmed), or `null` when there are more than {@link MAX_CONTENT_CODINGS} (`identity` and
 * empty members count, as in undici's fetch).
 */
function codingsOf(contentEncoding: string | readonly string[] | undefined): string[] | null {
  if (contentEncoding === undefined) return [];
  const members = (
    typeof contentEncoding === 'string' ? contentEncoding : contentEncoding.join(',')
  )
    .toLowerCase()
    .split(',');
  return members.length > MAX_CONTENT_CODINGS ? null : members.map((member) => member.trim());
}

/**
 * The decoders that undo `codings` (in the order they were applied), last applied first; or the
 * first coding {@link createDecoder} does not know (the decoders made are destroyed).
 */
function decodersUndoing(codings: readonly string[]): Transform[] | string {
  const chain: Transform[] = [];
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!;
    const decoder = createDecoder(coding);
    if (decoder === undefined) {
      for (const made of chain) made.destroy();
      return coding;
    }
    chain.push(decoder);
  }
  return chain;
}

/**
 * The decoders that undo `Content-Encoding` (`identity` and empty members skipped), in the
 * order the body goes through them (not yet connected), or why it cannot be undone: a coding
 * this module does not know, or more than {@link MAX_CONTENT_CODINGS} of them.
 * @example
 * const chain = decoderChain('gzip, br'); // [brotli, gunzip], or a reason string
 */
export function decoderChain(
  contentEncoding: string | readonly string[] | undefined,
): Transform[] | string {
  const codings = codingsOf(contentEncoding);
  if (codings === null) return `more than ${MAX_CONTENT_CODINGS} content codings`;
  const chain = decodersUndoing(codings.filter((c) => c !== '' && c !== 'identity'));
  return typeof chain === 'string' ? `unsupported content-encoding ${chain}` : chain;
}

/**
 * The decoders undici's fetch puts a response body through, in that order: every member of
 * `Content-Encoding` must be one it undoes, else the body is passed on as it is (`identity` and
 * an empty member included); `null` for more than {@link MAX_CONTENT_CODINGS} members (fetch
 * fails such a response).
 * @example
 * fetchDecoderChain(['gzip']); // [gunzip]
 * fetchDecoderChain(['gzip, identity']); // [] (as fetch: the body as it is)
 */
export function fetchDecoderChain(contentEncoding: readonly string[]): Transform[] | null {
  const codings = codingsOf(contentEncoding);
  if (codings === null) return null;
  const chain = decodersUndoing(codings);
  return typeof chain === 'string' ? [] : chain;
}

/**
 * The codings a robots.txt request accepts: those {@link createDecoder} undoes here.
 * @example
 * headers['accept-encoding'] = ACCEPT_ENCODING; // 'gzip, deflate, br' (and zstd where Node has it)
 */
export const ACCEPT_ENCODING =
  createZstd === undefined ? 'gzip, deflate, br' : 'gzip, deflate, br, zstd';
