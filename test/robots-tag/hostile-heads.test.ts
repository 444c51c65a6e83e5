/**
 * Hostile heads through the public scanner: long tokens written one byte at a time, and
 * thousands of nested elements. The verdict must be the same however the head arrives. How
 * the work grows with the input (linear: four times the input, about four times the time and
 * the tokenizer's work) is measured in test/bench/robots-tag.bench.ts ("Hostile heads"), not
 * asserted here on a clock.
 */
import { describe, expect, it } from 'vitest';
import { createMetaScanner } from '@polite-crawler/robots-tag';

const KIB = 1024;
const META = '<meta name="robots" content="noindex">';
const OPTIONS = { maxHeadBytes: 4 * 1024 * KIB };

/** The rule names read from `html` written one UTF-8 byte per `write` (stopping when it says so). */
function byteByByte(html: string): string[] {
  const scanner = createMetaScanner(OPTIONS);
  for (const byte of new TextEncoder().encode(html)) if (scanner.write(Uint8Array.of(byte))) break;
  scanner.end();
  return scanner.result().rules.map((rule) => rule.name);
}

/** The same, in one write. */
function whole(html: string): string[] {
  const scanner = createMetaScanner(OPTIONS);
  scanner.write(html);
  scanner.end();
  return scanner.result().rules.map((rule) => rule.name);
}

const TOKENS: ReadonlyArray<[string, (n: number) => string, boolean]> = [
  ['DOCTYPE', (n) => `<!DOCTYPE ${'d'.repeat(n)}>`, true],
  ['comment', (n) => `<!--${'c'.repeat(n)}-->`, true],
  ['CDATA (a bogus comment in HTML)', (n) => `<![CDATA[${'c'.repeat(n)}]]>`, true],
  ['processing instruction', (n) => `<?${'p'.repeat(n)}?>`, true],
  ['`<title>` text', (n) => `<title>${'t'.repeat(n)}</title>`, true],
  // An unknown element ends the head: the meta after it is not read.
  ['tag name', (n) => `<m${'t'.repeat(n)}>`, false],
];

describe('a 128 KiB token, then a robots meta', () => {
  it.each(TOKENS)('%s: a byte per write reads what one write reads', (_, make, read) => {
    const html = `<head>${make(128 * KIB)}${META}</head><body>`;
    const expected = read ? ['noindex'] : [];
    expect(whole(html)).toEqual(expected);
    expect(byteByByte(html)).toEqual(expected);
  });
});

describe('thousands of nested elements', () => {
  it('100,000 nested templates: metas inside are inert, the one after they all close is read', () => {
    const depth = 100_000;
    const html = `<head>${'<template>'.repeat(depth)}${META.replace('noindex', 'nofollow')}${'</template>'.repeat(depth)}${META}</head><body>`;
    expect(whole(html)).toEqual(['noindex']);
  });

  it('a template left open keeps what follows inert', () => {
    const html = `<head>${'<template>'.repeat(5_000)}${'</template>'.repeat(4_999)}${META}</head><body>`;
    expect(whole(html)).toEqual([]);
  });

  it.each([[4_096], [16_384]])(
    '%i nested templates, one write and a byte per write: the same metas',
    (depth) => {
      const html = `<head>${'<template>'.repeat(depth)}${META.replace('noindex', 'nofollow')}${'</template>'.repeat(depth)}${META}</head><body>`;
      expect(whole(html)).toEqual(['noindex']);
      expect(byteByByte(html)).toEqual(['noindex']);
    },
  );

  it('thousands of repeated `<noscript>` (ignored inside one): the meta is still read', () => {
    const html = `<head>${'<noscript>'.repeat(5_000)}${META}</head><body>`;
    expect(whole(html)).toEqual(['noindex']);
    expect(byteByByte(html)).toEqual(['noindex']);
  });
});
