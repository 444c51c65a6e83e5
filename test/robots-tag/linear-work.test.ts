/**
 * The scan costs O(head bytes) however the head arrives: long tokens written one byte at a
 * time, and thousands of nested elements. Asserted on work counted, never on time: the
 * characters parse5 holds over all its writes (its buffer is appended to and read back whole on
 * each write, so this is what a write costs it), and the head state's size.
 */
import { Tokenizer } from 'parse5';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMetaScanner, directivesFor } from '@polite-crawler/robots-tag';
import { HeadState } from '../../packages/robots-tag/src/head-state.js';
import {
  EAGER_CHARS,
  GATHER_RATIO,
  HeadTokenizer,
} from '../../packages/robots-tag/src/head-tokenizer.js';

const KIB = 1024;

/**
 * What parse5 may hold over all its writes for `n` characters: each write is at least
 * 1/GATHER_RATIO of what it had, so (GATHER_RATIO + 1)·n; plus the end of input (the held rest,
 * then the end-of-input write: 2n at most); plus the first EAGER_CHARS given one by one.
 */
const bound = (n: number): number => (GATHER_RATIO + 3) * n + EAGER_CHARS ** 2;
const META = '<meta name="robots" content="noindex">';

/** Scans `html` one UTF-8 byte per write; returns whether noindex was read and parse5's work. */
function scanByteByByte(html: string): { noindex: boolean; writes: number; held: number } {
  let given = 0;
  let held = 0;
  let writes = 0;
  const original = Tokenizer.prototype.write;
  const spy = vi.spyOn(Tokenizer.prototype, 'write');
  spy.mockImplementation(function (this: Tokenizer, chunk, isLast, callback) {
    given += chunk.length;
    held += given;
    writes++;
    original.call(this, chunk, isLast, callback);
  });
  const scanner = createMetaScanner({ maxHeadBytes: 1024 * KIB });
  for (const byte of new TextEncoder().encode(html)) if (scanner.write(Uint8Array.of(byte))) break;
  scanner.end();
  spy.mockRestore();
  return { noindex: directivesFor(scanner.result(), 'x').noindex, writes, held };
}

afterEach(() => {
  vi.restoreAllMocks();
});

const TOKENS: ReadonlyArray<[string, (n: number) => string, boolean]> = [
  ['DOCTYPE', (n) => `<!DOCTYPE ${'d'.repeat(n)}>`, true],
  ['comment', (n) => `<!--${'c'.repeat(n)}-->`, true],
  ['CDATA (a bogus comment in HTML)', (n) => `<![CDATA[${'c'.repeat(n)}]]>`, true],
  ['processing instruction', (n) => `<?${'p'.repeat(n)}?>`, true],
  // An unknown element ends the head: the meta after it is not read.
  ['tag name', (n) => `<m${'t'.repeat(n)}>`, false],
];

describe('a 128 KiB token written one byte at a time', () => {
  it.each(TOKENS)(
    '%s: parse5 holds O(n) characters in all, and the verdict stands',
    (_, make, read) => {
      const small = scanByteByByte(`<head>${make(32 * KIB)}${META}</head><body>`);
      const large = scanByteByByte(`<head>${make(128 * KIB)}${META}</head><body>`);
      expect([small.noindex, large.noindex]).toEqual([read, read]);
      const bytes = 128 * KIB + 100;
      // Each write to parse5 is at least 1/GATHER_RATIO of what it had: ≤ (GATHER_RATIO + 1)·n,
      // plus the first EAGER_CHARS given one by one.
      expect(large.held).toBeLessThanOrEqual((GATHER_RATIO + 1) * bytes + EAGER_CHARS ** 2);
      // Four times the input, about four times the work (quadratic would be sixteen).
      expect(large.held / small.held).toBeLessThan(5);
      // And few writes: logarithmic in the input once past the eager start.
      expect(large.writes).toBeLessThan(EAGER_CHARS + 20 * GATHER_RATIO);
    },
  );

  it('the bare tokenizing step: work is counted the same way', () => {
    const tokenizer = new HeadTokenizer({
      startTag: () => undefined,
      endTag() {},
      characters() {},
    });
    const text = `<!--${'c'.repeat(128 * KIB)}-->`;
    for (const ch of text) tokenizer.write(ch);
    tokenizer.end();
    expect(tokenizer.work.chars).toBeLessThanOrEqual(bound(text.length));
  });
});

describe('thousands of nested elements', () => {
  it('the head state keeps a depth, not a stack: 100,000 nested templates open and close', () => {
    const state = new HeadState();
    state.startTag('head');
    for (let i = 0; i < 100_000; i++) state.startTag('template');
    expect(state.templateDepth).toBe(100_000);
    expect(state.startTag('meta')).toBeUndefined(); // inert template content
    for (let i = 0; i < 100_000; i++) state.endTag('template');
    expect(state.templateDepth).toBe(0);
    expect(state.startTag('meta')).toBe('meta');
  });

  it.each([[4_096], [16_384]])(
    '%i nested templates, one write and a byte per write: metas right, work linear',
    (depth) => {
      const html = `<head>${'<template>'.repeat(depth)}${META.replace('noindex', 'nofollow')}${'</template>'.repeat(depth)}${META}</head><body>`;
      const whole = createMetaScanner({ maxHeadBytes: 1024 * KIB });
      expect(whole.write(html)).toBe(true);
      expect(whole.result().rules.map((rule) => rule.name)).toEqual(['noindex']);
      const drip = scanByteByByte(html);
      expect(drip.noindex).toBe(true);
      expect(drip.held).toBeLessThanOrEqual(bound(html.length));
    },
  );

  it('thousands of repeated `<noscript>` (ignored inside one) cost the same', () => {
    const html = `<head>${'<noscript>'.repeat(5_000)}${META}</head><body>`;
    const drip = scanByteByByte(html);
    expect(drip.noindex).toBe(true);
    expect(drip.held).toBeLessThanOrEqual(bound(html.length));
  });
});
