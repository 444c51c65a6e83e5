import type { OutputStream, Style } from './style.js';

/** How long a command waits in silence before saying what it waits for, ms. */
export const WAIT_NOTICE_DELAY_MS = 500;

/** A live "waiting for …" line; {@link WaitNotice.stop} erases it. */
export interface WaitNotice {
  stop(): void;
}

/**
 * While a command waits on the network (robots.txt that does not answer may take the whole
 * `--timeout`), says so on `stream` when it is a terminal: after {@link WAIT_NOTICE_DELAY_MS},
 * one self-overwriting line, `describe()` and the seconds waited, redrawn each second. Nothing
 * at all when `stream` is not a terminal (piped output stays clean).
 *
 * @example
 * ```ts
 * const notice = startWaitNotice(process.stderr, style, () => 'waiting for robots.txt');
 * try { await work; } finally { notice.stop(); }
 * ```
 */
export function startWaitNotice(
  stream: OutputStream,
  style: Style,
  describe: () => string,
): WaitNotice {
  if (stream.isTTY !== true) return { stop: () => undefined };
  const started = Date.now();
  let shown = false;
  const draw = (): void => {
    const seconds = Math.floor((Date.now() - started) / 1000);
    stream.write(`\r\u001b[2K${style.dim(`${describe()} · ${seconds} s`)}`);
    shown = true;
  };
  let interval: NodeJS.Timeout | undefined;
  const delay = setTimeout(() => {
    draw();
    interval = setInterval(draw, 1_000).unref();
  }, WAIT_NOTICE_DELAY_MS).unref();
  return {
    stop() {
      clearTimeout(delay);
      clearInterval(interval);
      if (shown) stream.write('\r\u001b[2K');
      shown = false;
    },
  };
}
