import type { RobotsTagDiagnosticCode } from './types.js';

/**
 * Every diagnostic code parsing can report (documented in the package README):
 * `field-truncated`, `scan-byte-cap`, `invalid-value`, `unparseable-member`.
 *
 * @example
 * ```ts
 * ROBOTS_TAG_DIAGNOSTIC_CODES.includes(diagnostic.code); // true
 * ```
 */
export const ROBOTS_TAG_DIAGNOSTIC_CODES: readonly RobotsTagDiagnosticCode[] = Object.freeze([
  'field-truncated',
  'scan-byte-cap',
  'invalid-value',
  'unparseable-member',
]);
