import { open } from 'node:fs/promises';
import { CliError } from './cli-error.js';
import { rejectBinary } from './reject-binary.js';

/** What {@link readFileCapped} read. */
export interface FileInput {
  readonly kind: 'file';
  /** The path as given on the command line. */
  readonly path: string;
  /** The bytes read: at most `maxBytes + 1`, so that the parser can see the input was cut. */
  readonly bytes: Uint8Array;
  /** The file's size on disk. */
  readonly size: number;
}

/** Options of {@link readFileCapped}. */
export interface ReadFileCappedOptions {
  /** Bytes to keep; one more is read so that a cut can be detected. */
  readonly maxBytes: number;
  /** Names the input in error messages, e.g. `robots.txt file`. */
  readonly what: string;
}

/**
 * Reads the start of a text file without ever holding more than `maxBytes + 1` bytes, and
 * turns every failure (missing, unreadable, a directory, binary content) into one
 * {@link CliError} with exit code 4. Binary content (a NUL byte near the start) is refused.
 *
 * @example
 * ```ts
 * const file = await readFileCapped('robots.txt', { maxBytes: 512_000, what: 'robots.txt file' });
 * ```
 */
export async function readFileCapped(
  path: string,
  options: ReadFileCappedOptions,
): Promise<FileInput> {
  const what = `cannot read ${options.what} ${path}`;
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw CliError.input(what, describeFsError(error), error);
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw CliError.input(what, 'is a directory');
    const buffer = Buffer.alloc(options.maxBytes + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, filled);
    rejectBinary(bytes, what);
    return { kind: 'file', path, bytes, size: Math.max(stats.size, filled) };
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw CliError.input(what, describeFsError(error), error);
  } finally {
    await handle.close();
  }
}

function describeFsError(error: unknown): string {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'a part of the path is not a directory';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}
