/**
 * The fast path (fast-head.ts) never changes a verdict: every scan is compared with the
 * parse5-only scanner on generated documents built from both the subset it reads and what it
 * hands to parse5, in chunks split anywhere. And it must take most ordinary heads, or it is
 * only a cost.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMetaScanner, createMetaScannerFactory } from '@polite-crawler/robots-tag';
import type { MetaScanOptions, MetaScanner } from '@polite-crawler/robots-tag';
import { readHeadFast } from '../../packages/robots-tag/src/fast-head.js';
import { createParse5MetaScanner } from '../../packages/robots-tag/src/meta-scanner.js';
import { chunksOf } from './chunks-of.js';
import { HEAD_CORPUS } from './head-corpus.js';

const fragment = fc.constantFrom(
  // The subset.
  '<head>',
  '</head>',
  '<HEAD >',
  '<html lang=en>',
  '<!DOCTYPE html>',
  '<meta charset="utf-8">',
  '<meta name=robots content=noindex>',
  "<meta name='ROBOTS' content='nofollow, max-snippet:20'>",
  '<META NAME="examplebot" CONTENT="noarchive" name=x>',
  '<meta name="robots" content="nosnippet"/>',
  '<meta name=robots content=a/>',
  '<link rel="stylesheet" href="/a.css?x=1&y=2">',
  '<title>News &amp; more</title>',
  '<TITLE>t</title >',
  '<script>var a = 1 < 2 && "</scr" + "ipt>";</script>',
  '<script src=x></script>',
  '<style>a > b { color: red }</style>',
  '<!-- a comment with <meta name=robots content=none> -->',
  '<!-- a -- b --->',
  '<noscript><link rel=x></noscript>',
  '<template><meta name=robots content=none></template>',
  '<noframes><meta name=robots content=none></noframes>',
  ' ',
  '\n',
  '\r\n',
  'text',
  '<body>',
  '<div>',
  '</p>',
  '</br>',
  // What the fast path hands to parse5.
  '&nbsp;',
  '&#32;',
  '<meta name=robots content="n&#111;index">',
  '<meta name=robots content="a\rb">',
  '<?xml ?>',
  '<!x>',
  '<!-->',
  '<!-- x --!>',
  '<script><!-- document.write("<script></script>") --></script>',
  '</title/>',
  '<title/>',
  '<a b="c"d>',
  '<a =b>',
  '<a b= >',
  '</ x>',
  '<',
  '\u0000',
  '<plaintext>',
  '<textarea></textarea>',
);
const documents = fc.array(fragment, { maxLength: 14 }).map((parts) => parts.join(''));
const options = fc.constantFrom<MetaScanOptions>(
  {},
  { productTokens: ['ExampleBot'] },
  { productTokens: [] },
  { maxHeadBytes: 64 },
);

/** Everything a scan reports, after feeding `chunks` until write() says the head is over. */
function observe(scanner: MetaScanner, chunks: readonly (string | Uint8Array)[]): unknown {
  for (const chunk of chunks) if (scanner.write(chunk)) break;
  scanner.end();
  return {
    stopReason: scanner.stopReason,
    bytesScanned: scanner.bytesScanned,
    result: scanner.result(),
  };
}

describe('fast path: the same as parse5 alone', () => {
  it.each(['text', 'bytes'] as const)(
    'in %s chunks split anywhere: stop reason, bytes scanned, rules, diagnostics',
    (form) => {
      fc.assert(
        fc.property(documents, fc.array(fc.nat(), { maxLength: 3 }), options, (doc, cuts, opts) => {
          const chunks =
            form === 'text' ? chunksOf(doc, cuts) : chunksOf(new TextEncoder().encode(doc), cuts);
          const expected = observe(createParse5MetaScanner(opts), chunks);
          expect(observe(createMetaScanner(opts), chunks)).toEqual(expected);
          expect(observe(createMetaScannerFactory(opts)(), chunks)).toEqual(expected);
        }),
        { numRuns: 2_000 },
      );
    },
  );

  it('on the corpus of real-world-shaped heads', () => {
    for (const head of HEAD_CORPUS) {
      expect(observe(createMetaScanner(), [head.html]), head.name).toEqual(
        observe(createParse5MetaScanner(), [head.html]),
      );
    }
  });

  it('is exercised: it answers for a good share of generated documents', () => {
    let answered = 0;
    const sample = fc.sample(documents, { numRuns: 2_000, seed: 7 });
    for (const doc of sample) if (readHeadFast(doc) !== undefined) answered++;
    expect(answered).toBeGreaterThan(sample.length / 10);
  });
});

describe('fast path: what it reads and what it leaves to parse5', () => {
  it('reads an ordinary head, metas in order, and stops at its end', () => {
    const html =
      '<!DOCTYPE html><html><head><meta charset=utf-8><title>T</title>' +
      '<script>a()</script><meta name="robots" content="noindex"><style>p{}</style>' +
      '<meta name=examplebot content=nofollow></head><body><meta name=robots content=none>';
    expect(readHeadFast(html)?.map((attrs) => attrs.map((a) => a.value).join(' '))).toEqual([
      'utf-8',
      'robots noindex',
      'examplebot nofollow',
    ]);
  });

  it.each([
    ['a head that has not ended', '<head><meta name=robots content=noindex>'],
    ['an unfinished tag', '<head><meta name=robots content='],
    ['a reference in text', '<head>&#32;<body>'],
    ['a reference in a meta', '<meta name=robots content="&#110;oindex"><body>'],
    ['a processing instruction', '<?php ?><body>'],
    ['a bogus comment', '<!x><body>'],
    ['an abrupt comment', '<!--><body>'],
    ['`--!>`', '<!-- x --!><body>'],
    ['a script escape', '<script><!-- x --></script><body>'],
    ['`</title/>`', '<title>t</title/><body>'],
    ['no space between attributes', '<a b="c"d><body>'],
    ['a NUL', '<head>\u0000<body>'],
  ])('leaves %s to parse5', (_, html) => {
    expect(readHeadFast(html)).toBeUndefined();
  });
});
