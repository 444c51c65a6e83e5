/**
 * The head as browsers find it: on generated heads and on a corpus of real-world-shaped ones,
 * the robots metas the scanner reads are the ones parse5's tree builder (the HTML standard's
 * parsing algorithm, scripting off) puts in the head, whole and byte by byte.
 */
import fc from 'fast-check';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import type { RobotsTagRules } from '@polite-crawler/robots-tag';
import { createMetaScanner, scanRobotsMeta } from '@polite-crawler/robots-tag';
import { HEAD_CORPUS } from './head-corpus.js';

interface TreeNode {
  nodeName: string;
  attrs?: { name: string; value: string }[];
  childNodes?: TreeNode[];
}

/** The `content` of each robots meta in parse5's head, in document order. */
function headMetasByParse5(doc: string): string[] {
  const root = parse(doc, { scriptingEnabled: false }) as unknown as TreeNode;
  const html = root.childNodes!.find((node) => node.nodeName === 'html')!;
  const head = html.childNodes!.find((node) => node.nodeName === 'head')!;
  const contents: string[] = [];
  const walk = (node: TreeNode): void => {
    for (const child of node.childNodes ?? []) {
      if (child.nodeName === 'meta') {
        const attrs = new Map(child.attrs!.map((a) => [a.name, a.value]));
        if (attrs.get('name')?.trim().toLowerCase() === 'robots' && attrs.has('content'))
          contents.push(attrs.get('content')!);
      }
      walk(child);
    }
  };
  walk(head);
  return contents;
}

/** A scan of `html` written one UTF-8 byte at a time. */
function byteByByte(html: string): RobotsTagRules {
  const scanner = createMetaScanner({ productTokens: [] });
  for (const byte of new TextEncoder().encode(html)) if (scanner.write(Uint8Array.of(byte))) break;
  scanner.end();
  return scanner.result();
}

/** The robots metas a scan reads (each meta's content is one made-up rule name). */
function rulesRead(rules: { rules: readonly { name: string }[] }): string[] {
  return rules.rules.map((rule) => rule.name);
}

const fragment = fc.constantFrom(
  ...[
    // Head elements, text elements and their odd end tags.
    '<head>',
    '</head>',
    '</HEAD >',
    '</head/>',
    '</ head>',
    '<html>',
    '<title>t</title>',
    '<title/>',
    '</title>',
    '<script>a<b</script>',
    '<script src=x />',
    '<script>',
    '</script>',
    '</script/>',
    '<style>p{}</style>',
    '<style/>',
    '</style>',
    '<link rel=x>',
    '<base href=/>',
    '<meta charset=utf-8>',
    // Script data escapes.
    '<script><!--',
    "document.write('<script src=x></script>')",
    '<!--<script>',
    // Comments, declarations, bogus comments.
    '<!-- c -->',
    '<!--',
    '-->',
    '--!>',
    '<!-->',
    '<!--->',
    '<!---->',
    '<!>',
    '<!->',
    '<!x>',
    '<!doctype html>',
    '<?php ?>',
    '</>',
    '</ >',
    '</3>',
    // What ends the head.
    '<body>',
    '<div>',
    '</p>',
    '</br>',
    'x',
    '&amp;',
    ' ',
    '\n',
    '<',
    '>',
    '</',
    '<meta name=robots content=M>',
    '<meta name=robots content=M>',
    // Elements the head keeps (or not) by its own rules, and end tags that end it.
    '<noscript>',
    '</noscript>',
    '<noframes>',
    '</noframes>',
    '<template>',
    '</template>',
    '<textarea>',
    '<plaintext>',
    '<svg>',
    '</body>',
    '</html>',
    '</title x="</title>">',
    "</script a='>'>",
    '<frameset>',
    '\u0000',
    '&#32;',
    '&Tab;',
  ],
);

const documents = fc.array(fragment, { maxLength: 14 }).map((parts) => {
  let n = 0;
  return `${parts.join('').replace(/content=M/g, () => `content=m${String(n++)}`)}<meta name=robots content=last>`;
});

describe('the head as browsers find it', () => {
  const META = '<meta name=robots content=noindex>';
  it.each([
    [`<head></>${META}`, ['noindex'], '`</>` is dropped'],
    [`<head></ >${META}`, ['noindex'], '`</ >` is a bogus comment'],
    [`<head></ head>${META}<body>`, ['noindex'], '`</ head>` is a bogus comment'],
    [`<head></head/><noscript>${META}`, [], '`</head/>` ends the head'],
    [`<head><!>${META}>`, ['noindex'], '`<!>` is an empty bogus comment'],
    [`<head><!->${META}>`, ['noindex'], '`<!->` too'],
    [`<head><!-- x --!>${META}-->`, ['noindex'], '`--!>` ends a comment'],
    [`<head><!--!>${META}-->`, [], 'but not right after `<!--`'],
    [`<head><script src=x />${META}</script>`, [], '`<script/>` opens a script'],
    [`<head><title/>${META}</title>${META}`, ['noindex'], '`<title/>` opens a title'],
    [
      `<template><svg><script><!--></template>${META}`,
      ['noindex'],
      "a `<script>` in a template's `<svg>` is foreign: `<!-->` is an empty comment",
    ],
    [
      `<template><svg><div><script><!--></template>${META}-->`,
      [],
      '`<div>` breaks out of the `<svg>`: the `<script>` after it is HTML',
    ],
  ])('%j: %j (%s)', (html, expected) => {
    expect(headMetasByParse5(html)).toEqual(expected);
    expect(rulesRead(scanRobotsMeta(html, { productTokens: [] }))).toEqual(expected);
    expect(rulesRead(byteByByte(html))).toEqual(expected);
  });

  it('the metas read are the ones parse5 has in the head, whole and byte by byte', () => {
    fc.assert(
      fc.property(documents, (html) => {
        const expected = headMetasByParse5(html);
        expect(rulesRead(scanRobotsMeta(html, { productTokens: [] })), 'fast path').toEqual(
          expected,
        );
        expect(rulesRead(byteByByte(html)), 'byte by byte').toEqual(expected);
      }),
      { numRuns: 5_000 },
    );
  });

  describe('a corpus of real-world-shaped heads', () => {
    it.each(HEAD_CORPUS.map((head) => [head.name, head] as const))('%s', (_, head) => {
      // The hand-written expectation is the standard's (parse5's tree builder) …
      const html = head.html.startsWith('\ufeff') ? head.html.slice(1) : head.html;
      expect(headMetasByParse5(html)).toEqual(head.read);
      // … and the scanner's, whole, byte by byte, and as UTF-16 bytes behind a byte-order mark.
      expect(rulesRead(scanRobotsMeta(head.html, { productTokens: [] }))).toEqual(head.read);
      expect(rulesRead(byteByByte(head.html))).toEqual(head.read);
      const utf16 = new Uint8Array(2 + html.length * 2);
      utf16.set([0xff, 0xfe]);
      for (let i = 0; i < html.length; i++) {
        utf16[2 + 2 * i] = html.charCodeAt(i) & 0xff;
        utf16[3 + 2 * i] = html.charCodeAt(i) >> 8;
      }
      // Declared UTF-8, but the mark says UTF-16LE (and wins, as in browsers).
      expect(rulesRead(scanRobotsMeta(utf16, { productTokens: [] }))).toEqual(head.read);
    });
  });
});
