import { CliError } from './cli-error.js';
import { CLI_DEFAULTS } from './defaults.js';

/**
 * Fails with a {@link CliError} (exit code 4) when the first
 * {@link CLI_DEFAULTS.binarySniffBytes} bytes hold a NUL byte: such input is not a text
 * file, and parsing it would only produce noise.
 *
 * @example
 * ```ts
 * rejectBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0]), 'cannot read logo.png'); // throws
 * ```
 */
export function rejectBinary(bytes: Uint8Array, what: string): void {
  const nul = bytes.subarray(0, CLI_DEFAULTS.binarySniffBytes).indexOf(0);
  if (nul !== -1) throw CliError.input(what, `not a text file (NUL byte at offset ${nul})`);
}
