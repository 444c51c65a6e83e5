import type { StoredRobots } from '@polite-crawler/fetch';
import { FleetEntryTooLargeError } from './errors.js';

/**
 * Bytes of an entry's metadata (its JSON without the body: status, redirects, validators,
 * times). A real one is well under 2 KiB; the bound leaves room for five long redirect URLs.
 */
export const ROBOTS_METADATA_MAX_BYTES = 65_536;

/**
 * An entry as Redis keeps it: the metadata as JSON, and the body's bytes as they were read
 * (raw, not base64: a 500 KB robots.txt takes 500 KB, not 667 KB plus JSON escaping).
 */
export interface EncodedEntry {
  readonly metadata: string;
  readonly body: Buffer;
}

/** The most bytes of a body kept: the fetch's `robotsMaxBytes`, plus the byte read past it. */
export function bodyLimit(robotsMaxBytes: number): number {
  // The fetch reads one byte past its limit to know whether the last line was cut there; the
  // copy keeps it, so that a parse of the stored copy equals a parse of the response.
  return robotsMaxBytes + 1;
}

/**
 * `entry` split into metadata and raw body; rejects with {@link FleetEntryTooLargeError} when
 * either part is over its limit (nothing is sent to Redis then).
 * @example
 * const { metadata, body } = encodeEntry(origin, entry, 512_000);
 */
export function encodeEntry(
  origin: string,
  entry: StoredRobots,
  robotsMaxBytes: number,
): EncodedEntry {
  const { good } = entry;
  const body = good === undefined || good.body === '' ? EMPTY : Buffer.from(good.body, 'base64');
  const limit = bodyLimit(robotsMaxBytes);
  if (body.byteLength > limit) {
    throw new FleetEntryTooLargeError(origin, 'body', body.byteLength, limit);
  }
  const metadata = JSON.stringify(
    good === undefined ? entry : { ...entry, good: { ...good, body: undefined } },
  );
  const metadataBytes = Buffer.byteLength(metadata);
  if (metadataBytes > ROBOTS_METADATA_MAX_BYTES) {
    throw new FleetEntryTooLargeError(origin, 'metadata', metadataBytes, ROBOTS_METADATA_MAX_BYTES);
  }
  return { metadata, body };
}

const EMPTY = Buffer.alloc(0);

/**
 * The entry for `origin` from its stored parts, or `undefined` when they are not one this
 * package writes for that origin (the policy checks the rest of the shape and caps the
 * lifetime: a shared store is input). The body comes back base64-encoded, as
 * `StoredRobots` carries it; the decoded string lives only until the policy has parsed it.
 * @example
 * const entry = decodeEntry(origin, metadataBuffer, bodyBuffer);
 */
export function decodeEntry(
  origin: string,
  metadata: Buffer | null,
  body: Buffer | null,
): StoredRobots | undefined {
  if (metadata === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(metadata.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const entry = value as Partial<StoredRobots>;
  if (entry.version !== 1 || entry.robotsUrl !== `${origin}/robots.txt`) return undefined;
  const { good } = entry;
  if (good === undefined || typeof good !== 'object' || good === null) {
    return entry as StoredRobots;
  }
  const bytes = body ?? EMPTY;
  return { ...(entry as StoredRobots), good: { ...good, body: bytes.toString('base64') } };
}
