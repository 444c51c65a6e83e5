/** A stream the CLI writes to; only `write` and the TTY facts are used. */
export interface OutputStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Text decorations; each is the identity when colours are off. */
export interface Style {
  readonly enabled: boolean;
  readonly red: (text: string) => string;
  readonly green: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly cyan: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

/**
 * Whether to colour what goes to `stream`. `FORCE_COLOR` wins when set (`0` or `false`
 * turn colours off, any other value on), then `NO_COLOR` (any non-empty value turns them
 * off), then `TERM=dumb`; otherwise colours are on only when the stream is a terminal.
 * This is the order Node itself uses.
 *
 * @example
 * ```ts
 * wantsColor(process.stdout, process.env); // false when piped
 * ```
 */
export function wantsColor(
  stream: OutputStream,
  env: Readonly<Record<string, string | undefined>>,
): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  const noColor = env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  if (env['TERM'] === 'dumb') return false;
  return stream.isTTY === true;
}

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;
const plain = (text: string): string => text;

/**
 * A {@link Style} that colours when `enabled` is true and passes text through otherwise.
 *
 * @example
 * ```ts
 * const style = createStyle(wantsColor(process.stdout, process.env));
 * console.log(style.red('denied'));
 * ```
 */
export function createStyle(enabled: boolean): Style {
  if (!enabled) {
    return {
      enabled,
      red: plain,
      green: plain,
      yellow: plain,
      cyan: plain,
      dim: plain,
      bold: plain,
    };
  }
  return {
    enabled,
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
    dim: sgr(2, 22),
    bold: sgr(1, 22),
  };
}

// Matches the SGR sequences createStyle emits (and any other CSI ... m sequence).
// eslint-disable-next-line no-control-regex
const SGR_PATTERN = /\u001b\[[0-9;]*m/g;

/**
 * `text` without colour escape sequences, for measuring column widths.
 *
 * @example
 * ```ts
 * visibleLength(createStyle(true).red('no')); // 2
 * ```
 */
export function visibleLength(text: string): number {
  return text.replace(SGR_PATTERN, '').length;
}
