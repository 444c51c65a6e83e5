/**
 * What each part of a meta scan decides, seen through the public scanner: how bytes are
 * decoded, how markup is tokenized, when the head ends, which metas are collected. (The
 * cap's cut text is in limits.test.ts; browsers' own reading in browser-head.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { createMetaScanner, scanRobotsMeta } from '@polite-crawler/robots-tag';
import type { MetaScanOptions } from '@polite-crawler/robots-tag';

const meta = (content: string): string => `<meta name="robots" content="${content}">`;
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The rule names read from `chunks`, written in order. */
function read(chunks: readonly (string | Uint8Array)[], options: MetaScanOptions = {}): string[] {
  const scanner = createMetaScanner(options);
  for (const chunk of chunks) if (scanner.write(chunk)) break;
  scanner.end();
  return scanner.result().rules.map((rule) => rule.name);
}

describe('decoding', () => {
  it('a UTF-8 byte-order mark is dropped, also when its bytes come one by one', () => {
    const bytes = encode(`\ufeff${meta('noindex')}`);
    expect(read([bytes])).toEqual(['noindex']);
    expect(read(Array.from(bytes, (byte) => Uint8Array.of(byte)))).toEqual(['noindex']);
  });

  it('a character split across writes is joined', () => {
    const html = '<head><meta name="robots" content="noindex, ü"><body>';
    const bytes = encode(html);
    const split = bytes.indexOf(0xc3) + 1; // inside ü
    const scanner = createMetaScanner();
    scanner.write(bytes.subarray(0, split));
    scanner.write(bytes.subarray(split));
    scanner.end();
    expect(scanner.result()).toEqual(scanRobotsMeta(html));
    expect(scanner.result().diagnostics.map((d) => d.text)).toEqual(['ü']);
  });

  it('a UTF-16 byte-order mark wins over the declared encoding', () => {
    const text = meta('noindex');
    const utf16be = new Uint8Array(2 + text.length * 2);
    utf16be.set([0xfe, 0xff]);
    for (let i = 0; i < text.length; i++) utf16be[3 + 2 * i] = text.charCodeAt(i);
    expect(read([utf16be], { encoding: 'utf-8' })).toEqual(['noindex']);
  });

  it('a byte that may start a mark but does not is decoded as it is (here: text, ending the head)', () => {
    expect(read([Uint8Array.of(0xef), encode(meta('noindex'))])).toEqual([]);
    expect(read([Uint8Array.of(0xef, 0xbb, 0xbf), encode(meta('noindex'))])).toEqual(['noindex']);
  });

  it('a leading U+FEFF of string input is dropped, a later one is text', () => {
    expect(read([`\ufeff${meta('noindex')}`])).toEqual(['noindex']);
    expect(read([`${meta('noindex')}\ufeff${meta('nofollow')}`])).toEqual(['noindex']);
  });

  it('text after bytes flushes a character the bytes left incomplete (here: text, ending the head)', () => {
    expect(read([Uint8Array.of(0xc3), meta('noindex')])).toEqual([]);
    expect(read([Uint8Array.of(0x20), meta('noindex')])).toEqual(['noindex']);
  });

  it('after the head, at most one 16 KiB slice of the rest is read', () => {
    const scanner = createMetaScanner();
    expect(scanner.write(`${meta('noindex')}<body>${'x'.repeat(40_000)}`)).toBe(true);
    expect(scanner.bytesScanned).toBeLessThanOrEqual(16_384);
    expect(scanner.stopReason).toBe('head-end');
  });
});

describe('tokenizing', () => {
  it('tag and attribute names in any case, references decoded, the first of two attributes kept', () => {
    expect(
      read(['<META Name=Robots CONTENT="n&#111;index, max-snippet:&#49;" content=nofollow>']),
    ).toEqual(['noindex', 'max-snippet']);
  });

  it('the same result for any split', () => {
    const html = `<head><title>a<b></title><!-- c -->${meta('n&#111;index')}\n${meta('nofollow')}<body>`;
    const whole = scanRobotsMeta(html);
    expect(whole.rules.map((rule) => rule.name)).toEqual(['noindex', 'nofollow']);
    for (let cut = 1; cut < html.length; cut++) {
      const scanner = createMetaScanner();
      scanner.write(html.slice(0, cut));
      scanner.write(html.slice(cut));
      scanner.end();
      expect(scanner.result(), `cut at ${cut}`).toEqual(whole);
    }
  });

  it('the content of <script>, <style>, <noframes> and <title> is text, not markup', () => {
    for (const element of ['script', 'style', 'noframes', 'title']) {
      expect(
        read([`<${element}>${meta('nofollow')}</${element}>${meta('noindex')}`]),
        element,
      ).toEqual(['noindex']);
    }
  });
});

describe('where the head ends', () => {
  it.each<[string, string, string[]]>([
    ['an implied head reads a meta', meta('noindex'), ['noindex']],
    ['non-blank text ends the head', `<head> \n x${meta('noindex')}`, []],
    ['blank text does not', `<head> \n ${meta('noindex')}`, ['noindex']],
    [
      'after </head>, a meta still goes into the head; <noscript> then starts the body',
      `<head></head>${meta('noindex')}<noscript>${meta('nofollow')}`,
      ['noindex'],
    ],
    [
      'in a head <noscript>, a meta counts and an <img> ends the head',
      `<noscript>${meta('noindex')}<img>${meta('nofollow')}`,
      ['noindex'],
    ],
    [
      'a <title> in a <noscript> closes it and its content is text',
      `<noscript><title>${meta('nofollow')}</title>${meta('noindex')}`,
      ['noindex'],
    ],
    [
      'template content is inert; a <textarea> in it is still text',
      `<template><div><textarea></template>${meta('nofollow')}</textarea></template>${meta('noindex')}`,
      ['noindex'],
    ],
    ['stray end tags are ignored', `</p></div>${meta('noindex')}`, ['noindex']],
    ['</br> ends the head', `${meta('noindex')}</br>${meta('nofollow')}`, ['noindex']],
    ['</body> before anything ends it', `</body>${meta('noindex')}`, []],
    ['<frameset> ends it', `${meta('noindex')}<frameset>${meta('nofollow')}`, ['noindex']],
  ])('%s', (_, html, rules) => {
    expect(read([html])).toEqual(rules);
  });
});

describe('collecting', () => {
  it('reads robots and the listed product tokens, numbers every meta, ignores other names', () => {
    const result = scanRobotsMeta(
      '<meta name="description" content="noindex"><meta name=" ROBOTS\n" content="noindex">' +
        '<meta name="otherbot" content="nofollow"><meta name="ExampleBot" content="nosnippet">' +
        '<meta content="noarchive">',
      { productTokens: ['examplebot'] },
    );
    expect(result.rules.map((rule) => [rule.token, rule.name, rule.line])).toEqual([
      ['*', 'noindex', 2],
      ['examplebot', 'nosnippet', 4],
    ]);
  });

  it('a meta without content: a diagnostic, unless its name is only read for known rules', () => {
    const result = scanRobotsMeta('<meta name="robots"><meta name="somebot">');
    expect(result.diagnostics.map((d) => [d.code, d.field])).toEqual([['invalid-value', 'robots']]);
  });
});
