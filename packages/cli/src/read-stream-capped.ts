/** What {@link readStreamCapped} read. */
export interface CappedBytes {
  /** At most `limit` bytes. */
  readonly bytes: Uint8Array;
  /** Whether the stream ended within the limit (false: there was more, and it was not read). */
  readonly complete: boolean;
}

/**
 * Reads a body stream up to `limit` bytes and cancels it there, so that a huge or endless
 * body costs at most `limit` bytes of memory. A `null` body is empty.
 *
 * @example
 * ```ts
 * const { bytes, complete } = await readStreamCapped(response.body, 1_048_576);
 * ```
 */
export async function readStreamCapped(
  body: AsyncIterable<Uint8Array> | null,
  limit: number,
): Promise<CappedBytes> {
  if (body === null) return { bytes: new Uint8Array(0), complete: true };
  const chunks: Uint8Array[] = [];
  let total = 0;
  let complete = true;
  for await (const chunk of body) {
    if (chunk.byteLength === 0) continue;
    if (total >= limit) {
      complete = false;
      break;
    }
    const room = limit - total;
    if (chunk.byteLength > room) {
      chunks.push(chunk.subarray(0, room));
      total += room;
      complete = false;
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
  return { bytes, complete };
}
