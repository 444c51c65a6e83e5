/**
 * Every limit of @polite-crawler/robots-tag, in one frozen object used by the code and the docs.
 *
 * - `maxFieldBytes`: characters of each header field value that are parsed.
 * - `minFieldBytes`: the floor for `maxFieldBytes` (the draft asks for at least 8 KiB); smaller
 *   values are raised to it.
 * - `maxHeadBytes`: bytes of a document read while looking for the end of its head.
 *
 * @example
 * ```ts
 * import { ROBOTS_TAG_DEFAULTS } from '@polite-crawler/robots-tag';
 * ROBOTS_TAG_DEFAULTS.maxHeadBytes; // 262144
 * ```
 */
export const ROBOTS_TAG_DEFAULTS = Object.freeze({
  maxFieldBytes: 16_384,
  minFieldBytes: 8_192,
  maxHeadBytes: 262_144,
} as const);
