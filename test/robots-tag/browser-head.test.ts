/**
 * The head as browsers find it: on generated heads, the robots metas the scanner reads are the
 * ones parse5 (the HTML standard's parsing algorithm, scripting off) puts in the head. The
 * generator leaves out what the README lists as known differences (`<noscript>` after the
 * head, `<noframes>`, `<template>`, `</body>` and `</html>` rules, quotes in end tags).
 */
import fc from 'fast-check';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { scanRobotsMeta } from '@polite-crawler/robots-tag';
import { createFullParseMetaScanner } from '../../packages/robots-tag/src/meta-scanner.js';

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
  ],
);

const documents = fc.array(fragment, { maxLength: 10 }).map((parts) => {
  let n = 0;
  return `${parts.join('').replace(/content=M/g, () => `content=m${String(n++)}`)}<meta name=robots content=last>`;
});

/** What the README lists as known differences (and `<` `>` inside an end tag's attributes). */
const KNOWN_DIFFERENCE = /noscript|noframes|template|<\/body|<\/html|<\/[^>]*['"]/i;

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
  ])('%j: %j (%s)', (html, expected) => {
    expect(headMetasByParse5(html)).toEqual(expected);
    expect(rulesRead(scanRobotsMeta(html, { productTokens: [] }))).toEqual(expected);
    const reference = createFullParseMetaScanner({ productTokens: [] });
    reference.write(html);
    reference.end();
    expect(rulesRead(reference.result())).toEqual(expected);
  });

  it('the metas read are the ones parse5 has in the head, by the fast path and by htmlparser2', () => {
    fc.assert(
      fc.property(documents, (html) => {
        fc.pre(!KNOWN_DIFFERENCE.test(html));
        const expected = headMetasByParse5(html);
        expect(rulesRead(scanRobotsMeta(html, { productTokens: [] })), 'fast path').toEqual(
          expected,
        );
        const reference = createFullParseMetaScanner({ productTokens: [] });
        reference.write(html);
        reference.end();
        expect(rulesRead(reference.result()), 'htmlparser2').toEqual(expected);
      }),
      { numRuns: 3_000 },
    );
  });
});
