import type { CrawlProgress } from '../crawl/crawl-report.js';
import type { OutputStream, Style } from './style.js';
import { visibleLength } from './style.js';
import { plural } from './plural.js';

/**
 * Shortest time between two redraws of the progress line, ms.
 */
export const PROGRESS_REDRAW_MS = 50;

/** A live, self-overwriting status line. */
export interface ProgressLine {
  update(progress: CrawlProgress): void;
  /** Erases the line (call before printing the summary). */
  clear(): void;
}

/**
 * The crawl's progress as one line of text, e.g.
 * `12 done · 2 in flight · 30 queued · 5 skipped · 1 denied | 127.0.0.1:8080 every 1.0 s`.
 */
export function renderProgress(progress: CrawlProgress, now: number): string {
  const parts = [
    `${progress.done} done`,
    `${progress.inFlight} in flight`,
    `${progress.queued} queued`,
    `${progress.skipped} skipped`,
  ];
  if (progress.denied > 0) parts.push(`${progress.denied} denied`);
  if (progress.errors > 0) parts.push(plural(progress.errors, 'error'));
  let line = `crawl: ${parts.join(' · ')}`;
  if (progress.paused !== undefined && progress.paused.until > now) {
    const left = Math.ceil((progress.paused.until - now) / 1000);
    line += ` | ${hostOf(progress.paused.origin)} paused ${left} s (HTTP ${progress.paused.status} Retry-After)`;
  } else if (progress.pacing !== undefined) {
    line += ` | ${hostOf(progress.pacing.origin)} every ${(progress.pacing.intervalMs / 1000).toFixed(1)} s`;
  }
  return line;
}

function hostOf(origin: string): string {
  return origin.replace(/^[a-z]+:\/\//, '');
}

/**
 * A {@link ProgressLine} on `stream` when it is a terminal; a silent one otherwise.
 *
 * @example
 * ```ts
 * const progress = createProgressLine(process.stderr, style);
 * progress.update(snapshot);
 * progress.clear();
 * ```
 */
export function createProgressLine(
  stream: OutputStream,
  style: Style,
  now: () => number = Date.now,
): ProgressLine {
  const line = liveLine(stream, style);
  let last = Number.NEGATIVE_INFINITY;
  return {
    update(progress) {
      const time = now();
      // Redrawing more often than the eye can follow only costs terminal bandwidth.
      if (time - last < PROGRESS_REDRAW_MS) return;
      last = time;
      line.draw(renderProgress(progress, time));
    },
    clear: () => line.clear(),
  };
}

/** How long a command waits in silence before saying what it waits for, ms. */
export const WAIT_NOTICE_DELAY_MS = 500;

/**
 * While a command waits on the network (robots.txt that does not answer may take the whole
 * `--timeout`), says so on `stream` when it is a terminal: after {@link WAIT_NOTICE_DELAY_MS},
 * `describe()` and the seconds waited on the live line, redrawn each second; `stop()` erases it.
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
): { stop(): void } {
  const line = liveLine(stream, style);
  if (!line.live) return { stop: () => undefined };
  const started = Date.now();
  const draw = (): void =>
    line.draw(`${describe()} · ${Math.floor((Date.now() - started) / 1000)} s`);
  let interval: NodeJS.Timeout | undefined;
  const delay = setTimeout(() => {
    draw();
    interval = setInterval(draw, 1_000).unref();
  }, WAIT_NOTICE_DELAY_MS).unref();
  return {
    stop() {
      clearTimeout(delay);
      clearInterval(interval);
      line.clear();
    },
  };
}

/**
 * One self-overwriting, dimmed line on `stream`, cut to the terminal's width; nothing at all
 * when `stream` is not a terminal, so that piped output never holds carriage returns or escape
 * sequences.
 */
function liveLine(
  stream: OutputStream,
  style: Style,
): { readonly live: boolean; draw(text: string): void; clear(): void } {
  let shown = false;
  return {
    live: stream.isTTY === true,
    draw(text) {
      if (stream.isTTY !== true) return;
      const columns = stream.columns !== undefined && stream.columns > 0 ? stream.columns : 80;
      const width = Math.max(20, columns - 1);
      const cut = visibleLength(text) > width ? `${text.slice(0, width - 1)}…` : text;
      stream.write(`\r\u001b[2K${style.dim(cut)}`);
      shown = true;
    },
    clear() {
      if (shown) stream.write('\r\u001b[2K');
      shown = false;
    },
  };
}
