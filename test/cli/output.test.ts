import { stripVTControlCharacters } from 'node:util';
import { createStyle, wantsColor } from '@polite-crawler/cli';
import { describe, expect, it } from 'vitest';
import {
  createProgressLine,
  PROGRESS_REDRAW_MS,
  renderProgress,
} from '../../packages/cli/src/output/progress-line.js';
import { renderTable } from '../../packages/cli/src/output/table.js';

const tty = { isTTY: true, write: () => true };
const pipe = { isTTY: false, write: () => true };

describe('wantsColor', () => {
  it.each([
    [tty, {}, true],
    [pipe, {}, false],
    [tty, { NO_COLOR: '1' }, false],
    [tty, { NO_COLOR: '' }, true],
    [tty, { TERM: 'dumb' }, false],
    [pipe, { FORCE_COLOR: '1' }, true],
    [pipe, { FORCE_COLOR: '' }, true],
    [tty, { FORCE_COLOR: '0' }, false],
    [tty, { FORCE_COLOR: 'false' }, false],
    [tty, { FORCE_COLOR: '1', NO_COLOR: '1' }, true],
  ])('%# → %s', (stream, env: Record<string, string>, expected) => {
    expect(wantsColor(stream, env)).toBe(expected);
  });
});

describe('createStyle', () => {
  it('wraps text in SGR sequences only when enabled', () => {
    expect(createStyle(true).red('x')).toBe('\u001b[31mx\u001b[39m');
    expect(createStyle(false).red('x')).toBe('x');
  });
});

describe('renderTable', () => {
  it('aligns columns on visible width, ignoring colour sequences', () => {
    const style = createStyle(true);
    const text = renderTable([
      [style.green('ok'), 'a'],
      ['longer', 'b'],
    ]);
    expect(stripVTControlCharacters(text)).toBe('ok      a\nlonger  b');
  });
});

describe('progress line', () => {
  const snapshot = { done: 3, inFlight: 1, queued: 4, skipped: 2, denied: 1, errors: 0 };

  it('says what is done, queued and skipped, and which origin is paced', () => {
    expect(
      renderProgress(
        { ...snapshot, pacing: { origin: 'http://127.0.0.1:8080', intervalMs: 1000 } },
        0,
      ),
    ).toBe(
      'crawl: 3 done · 1 in flight · 4 queued · 2 skipped · 1 denied | 127.0.0.1:8080 every 1.0 s',
    );
  });

  it('shows a Retry-After pause while it lasts', () => {
    const paused = {
      ...snapshot,
      paused: { origin: 'http://127.0.0.1:8080', until: 12_000, status: 503 },
    };
    expect(renderProgress(paused, 2_000)).toContain(
      '| 127.0.0.1:8080 paused 10 s (HTTP 503 Retry-After)',
    );
    expect(renderProgress(paused, 12_000)).not.toContain('paused');
  });

  it('overwrites one line on a terminal and erases it at the end', () => {
    const written: string[] = [];
    const line = createProgressLine(
      { isTTY: true, columns: 40, write: (chunk: string) => written.push(chunk) },
      createStyle(false),
      () => 0,
    );
    line.update(snapshot);
    line.clear();
    expect(written[0]?.startsWith('\r\u001b[2K')).toBe(true);
    expect(written[0]?.length).toBeLessThanOrEqual('\r\u001b[2K'.length + 39);
    expect(written[1]).toBe('\r\u001b[2K');
  });

  it('redraws at most once per interval', () => {
    const written: string[] = [];
    let time = 0;
    const line = createProgressLine(
      { isTTY: true, columns: 0, write: (chunk: string) => written.push(chunk) },
      createStyle(false),
      () => time,
    );
    line.update(snapshot);
    time = PROGRESS_REDRAW_MS - 1;
    line.update({ ...snapshot, done: 4 });
    time = PROGRESS_REDRAW_MS;
    line.update({ ...snapshot, done: 5 });
    expect(written).toHaveLength(2);
    expect(written[1]).toContain('crawl: 5 done');
    // An unknown width (0 columns) falls back to 80, so nothing is cut here.
    expect(written[1]).toContain('4 queued · 2 skipped · 1 denied');
  });

  it('writes nothing when the stream is not a terminal', () => {
    const written: string[] = [];
    const line = createProgressLine(
      { isTTY: false, write: (chunk: string) => written.push(chunk) },
      createStyle(false),
    );
    line.update(snapshot);
    line.clear();
    expect(written).toEqual([]);
  });
});
