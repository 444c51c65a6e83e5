import type { OutputStream } from './style.js';

/**
 * Writes `value` as indented JSON followed by a newline.
 */
export function writeJson(stream: OutputStream, value: unknown): void {
  stream.write(`${JSON.stringify(value, null, 2)}\n`);
}
