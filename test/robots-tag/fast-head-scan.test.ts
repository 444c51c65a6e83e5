/**
 * The fast head path must never change a verdict: every scan is compared with the scanner that
 * always tokenizes with htmlparser2, write by write, on documents built from the tokenizer's
 * corner cases. And it must actually take the common heads, or it is only a cost.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMetaScanner, createMetaScannerFactory } from '@polite-crawler/robots-tag';
import type { MetaScanOptions, MetaScanner } from '@polite-crawler/robots-tag';
import {
  FAST_PATH_MAX_PENDING,
  FAST_PATH_READ_FACTOR,
  createFastHeadState,
  fastPathOverBudget,
  scanHeadFast,
} from '../../packages/robots-tag/src/fast-head-scan.js';
import { createFullParseMetaScanner } from '../../packages/robots-tag/src/meta-scanner.js';
import { chunksOf } from './chunks-of.js';

const RUNS = { numRuns: 2_000 };

// ---- generators: the tokenizer's corner cases ---------------------------------------------

const withCase = (word: string): fc.Arbitrary<string> =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) => [...word].map((ch, i) => (upper[i] ? ch.toUpperCase() : ch)).join(''));

const tagName = fc
  .constantFrom(
    'html',
    'head',
    'meta',
    'meta',
    'meta',
    'link',
    'base',
    'basefont',
    'bgsound',
    'title',
    'script',
    'style',
    'noscript',
    'template',
    'noframes',
    'body',
    'div',
    'p',
    'br',
    'svg',
    'img',
    'tmp',
    'xitle',
    'sc',
    's',
    'scripts',
    'textarea',
    // toLowerCase maps the Kelvin sign to `k`, and `İ` to two characters.
    'lin\u212a',
    'scr\u0130pt',
  )
  .chain(withCase);

const attributeName = fc.oneof(
  fc.constantFrom('name', 'content').chain(withCase),
  fc.constantFrom('charset', 'rel', 'href', '=x', '"a', 'x/y', 'property', 'http-equiv'),
);

const attributeText = fc.constantFrom(
  'robots',
  ' robots\n',
  'ROBOTS',
  'ExampleBot',
  'examplebot',
  'otherbot',
  'googlebot',
  '*',
  'noindex',
  'nofollow',
  'noindex, nofollow',
  'max-snippet:20',
  'a>b',
  "x'y",
  'x"y',
  '&amp;',
  '&#110;oindex',
  'r&#111;bots',
  '&',
  '',
  ' ',
  '/',
  'a=b',
  '<meta>',
  '\u00e9t\u00e9',
);

const quoted = (value: string, quote: string): string =>
  quote === '' ? value.replace(/[\s>]/g, '') : quote + value.replaceAll(quote, '') + quote;

const attribute = fc
  .tuple(
    attributeName,
    fc.constantFrom('=', ' = ', '', '=\n'),
    attributeText,
    fc.constantFrom('"', "'", ''),
  )
  .map(([name, equals, value, quote]) =>
    equals === '' ? name : `${name}${equals}${quoted(value, quote)}`,
  );

const separator = fc.constantFrom(' ', '\n', '\t', '', '/', ' / ', '\f');
const tagEnd = fc.constantFrom('>', '>', '>', '/>', ' />', '/ >', '');

const openTag = fc
  .tuple(tagName, fc.array(fc.tuple(separator, attribute), { maxLength: 4 }), separator, tagEnd)
  .map(
    ([name, attributes, last, end]) =>
      `<${name}${attributes.map(([sep, attr]) => `${sep === '' ? ' ' : sep}${attr}`).join('')}${last}${end}`,
  );

const closeTag = fc.oneof(
  tagName.map((name) => `</${name}>`),
  tagName.map((name) => `</ ${name}>`),
  tagName.map((name) => `</${name} x="y>">`),
  tagName.map((name) => `</${name}/>`),
  fc.constantFrom('</>', '</ >', '</3>', '</', '</\n', '</br>', '</p>', '</head>', '</html>'),
);

const textElement = fc
  .tuple(
    fc.constantFrom('title', 'script', 'style').chain(withCase),
    fc.array(
      fc.constantFrom(
        'x',
        '</scr',
        '</script',
        '</scriptx>',
        '</SCRIPT >',
        '<</title>',
        '</title\n>',
        '</style/>',
        '&amp;',
        '&',
        '&</title>',
        '<meta name=robots content=noindex>',
        '\x1c/script>',
        '\x1c\x0ftitle>',
        '<!--',
        // The script data escape states: `</script>` inside `<!-- <script> … -->` is text.
        '-->',
        '<script>',
        '<SCRIPT ',
        '<scripts>',
        '</script/>',
        '<!-->',
      ),
      { maxLength: 5 },
    ),
    fc.boolean(),
    // `<script/>` opens a script all the same.
    fc.constantFrom('', '', '/', ' /'),
  )
  .map(
    ([name, content, closed, selfClosing]) =>
      `<${name}${selfClosing}>${content.join('')}${closed ? `</${name}>` : ''}`,
  );

const markup = fc.constantFrom(
  '<!-- x -->',
  '<!-->',
  '<!--->',
  '<!---->',
  '<!-- <meta name=robots content=noarchive> -->',
  '<!-- -- > -->',
  '<!-x>',
  '<!-x><meta name=robots content=noindex>>',
  '<!>',
  '<!->',
  '<!-><meta name=robots content=noindex>',
  '<!-- x --!>',
  '<!----!>',
  '<!--!><meta name=robots content=noindex>-->',
  '<!-- --!x --!-->',
  '<!doctype html>',
  '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0//EN" "x.dtd">',
  '<![CDATA[x]]>',
  '<?xml version="1.0"?>',
  '<?>',
  '<!--',
  '<!',
  '<',
);

const text = fc.constantFrom(
  ' ',
  '\n',
  '\r\n',
  '\f',
  '\t',
  'x',
  '&nbsp;',
  '&#32;',
  '&#x20;',
  '&',
  '< x',
  '<3',
  '\u00a0',
  '\x0f',
  '\x1c',
  '\ufeff',
);

const fragment = fc.oneof(
  { weight: 6, arbitrary: openTag },
  { weight: 3, arbitrary: closeTag },
  { weight: 2, arbitrary: textElement },
  { weight: 2, arbitrary: markup },
  { weight: 2, arbitrary: text },
);

const documents = fc.array(fragment, { maxLength: 14 }).map((parts) => parts.join(''));

const scanOptions = fc.oneof(
  fc.constant<MetaScanOptions>({ productTokens: ['ExampleBot'] }),
  fc.constant<MetaScanOptions>({}),
  fc.constant<MetaScanOptions>({ productTokens: [] }),
  fc
    .integer({ min: 1, max: 300 })
    .map((maxHeadBytes): MetaScanOptions => ({ maxHeadBytes, productTokens: ['examplebot'] })),
);

/** Everything a caller can observe of one scan, write by write. */
function observe(scanner: MetaScanner, chunks: ReadonlyArray<string | Uint8Array>): unknown {
  const writes = chunks.map((chunk) => [scanner.write(chunk), scanner.bytesScanned]);
  scanner.end();
  return { writes, stopReason: scanner.stopReason, result: scanner.result() };
}

// ---- the fast path never changes a verdict -------------------------------------------------

/**
 * One factory per set of options for a whole property run, so that its meta cache carries
 * rules from one document to the next.
 */
const sharedFactories = new Map<string, () => MetaScanner>();
function sharedFactory(options: MetaScanOptions): () => MetaScanner {
  const key = JSON.stringify(options);
  let factory = sharedFactories.get(key);
  if (factory === undefined) {
    factory = createMetaScannerFactory(options);
    sharedFactories.set(key, factory);
  }
  return factory;
}

describe('fast head path: same as htmlparser2', () => {
  it.each([
    ['text', 'a scanner of its own'],
    ['bytes', 'a scanner of its own'],
    ['text', 'scanners of one factory'],
    ['bytes', 'scanners of one factory'],
  ] as const)(
    'in %s chunks split anywhere, %s: same write results, stop reason, bytes scanned, rules, diagnostics',
    (form, scanners) => {
      fc.assert(
        fc.property(
          documents,
          fc.array(fc.nat(), { maxLength: 4 }),
          scanOptions,
          (doc, cuts, options) => {
            const chunks =
              form === 'text' ? chunksOf(doc, cuts) : chunksOf(new TextEncoder().encode(doc), cuts);
            const scanner =
              scanners === 'a scanner of its own'
                ? createMetaScanner(options)
                : sharedFactory(options)();
            expect(observe(scanner, chunks)).toEqual(
              observe(createFullParseMetaScanner(options), chunks),
            );
          },
        ),
        RUNS,
      );
    },
  );

  it('is exercised: most generated documents get the fast path’s own verdict', () => {
    const verdicts = { 'head-end': 0, 'need-more': 0, unsupported: 0 };
    for (const doc of fc.sample(documents, { numRuns: 2_000, seed: 7 })) {
      verdicts[scanHeadFast(doc, createFastHeadState())] += 1;
    }
    // Otherwise the comparisons above would mostly compare htmlparser2 with itself.
    expect(verdicts.unsupported).toBeLessThan(1_000);
    expect(verdicts['head-end']).toBeGreaterThan(500);
    expect(verdicts['need-more']).toBeGreaterThan(300);
  });

  it('when result() is read before the end', () => {
    fc.assert(
      fc.property(documents, fc.nat(), (doc, cut) => {
        const at = cut % (doc.length + 1);
        const fast = createMetaScanner({ productTokens: ['ExampleBot'] });
        const full = createFullParseMetaScanner({ productTokens: ['ExampleBot'] });
        fast.write(doc.slice(0, at));
        full.write(doc.slice(0, at));
        expect(fast.result()).toEqual(full.result());
        expect(fast.write(doc.slice(at))).toBe(full.write(doc.slice(at)));
        fast.end();
        full.end();
        expect(fast.result()).toEqual(full.result());
      }),
      { numRuns: 500 },
    );
  });

  it('past the longest token it waits for, htmlparser2 reads the rest', () => {
    const longScript = `<head><script>${'x'.repeat(FAST_PATH_MAX_PENDING)}</script><meta name=robots content=noindex></head><body>`;
    for (const size of [1_000, 20_000]) {
      const chunks = chunksOf(
        longScript,
        Array.from({ length: Math.ceil(longScript.length / size) }, (_, i) => i * size),
      );
      const options = { maxHeadBytes: 1_000_000 };
      expect(observe(createMetaScanner(options), chunks)).toEqual(
        observe(createFullParseMetaScanner(options), chunks),
      );
    }
  });
});

// ---- the fast path takes the common heads -------------------------------------------------

describe('fast head path: what it reads itself', () => {
  const verdict = (head: string): string => scanHeadFast(head, createFastHeadState());

  it.each([
    '<!doctype html><html><head><title>t</title><meta name="robots" content="nosnippet"></head><body>',
    `<!DOCTYPE html>
<html lang="en-US">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Example &amp; Co — news</title>
  <link rel="stylesheet" href="/main.css?v=3&amp;x=1">
  <meta property="og:url" content="https://example.com/a?b=1&amp;c=2">
  <!-- analytics -->
  <script async src="https://example.com/a.js"></script>
  <script>window.dataLayer = []; if (a < b && c > d) { document.write("<div>"); }</script>
  <style>a > b { color: red }</style>
  <noscript><link rel="stylesheet" href="/noscript.css"></noscript>
  <meta name="robots" content="index, follow, max-image-preview:large">
</head>
<body class="home">`,
    '<html><head><meta name=robots content=noindex/><meta name=ExampleBot content="nofollow"></head>\n<body>',
    '<head></head><p>text</p>',
    '<meta charset=utf-8>Hello',
  ])('ends the head of %j itself', (head) => {
    expect(verdict(head)).toBe('head-end');
  });

  it('reads the metas of such a head in order', () => {
    const state = createFastHeadState();
    expect(
      scanHeadFast(
        '<head><meta charset=utf-8><META Name=" Robots " CONTENT=noindex><meta name=a content="b&amp;c"></head><body>',
        state,
      ),
    ).toBe('head-end');
    expect(state.metas).toEqual([
      { name: undefined, content: undefined, exact: true },
      { name: ' Robots ', content: 'noindex', exact: true },
      { name: 'a', content: 'b&amp;c', exact: false },
    ]);
  });

  it.each([
    ['<head><template><meta name=robots content=noindex></template>', 'template content'],
    ['<head><noframes></noframes>', 'noframes content'],
    ['<head>&#32;<meta name=robots content=noindex>', 'an entity in text'],
    ['<head><![CDATA[x]]>', 'CDATA'],
    ['<head><title>\x1c/title></title>', 'a control character htmlparser2 mistakes for `<`'],
  ])('leaves %j to htmlparser2 (%s)', (head) => {
    expect(verdict(head)).toBe('unsupported');
  });

  it('waits for the end of an unfinished token, and resumes from it', () => {
    const state = createFastHeadState();
    const first = '<head><meta name=robots content="noin';
    expect(scanHeadFast(first, state)).toBe('need-more');
    expect(state.consumed).toBe('<head>'.length);
    expect(scanHeadFast(`${first.slice(state.consumed)}dex"></head><body>`, state)).toBe(
      'head-end',
    );
    expect(state.metas).toEqual([{ name: 'robots', content: 'noindex', exact: true }]);
  });

  it('gives up on a token longer than FAST_PATH_MAX_PENDING, and not on one at it', () => {
    const open = '<head><script>';
    const at = `${open}${'x'.repeat(FAST_PATH_MAX_PENDING - open.length + '<head>'.length)}`;
    const state = createFastHeadState();
    expect(scanHeadFast(at, state)).toBe('need-more');
    expect(at.length - state.consumed).toBe(FAST_PATH_MAX_PENDING);
    expect(scanHeadFast(`${at}x`, createFastHeadState())).toBe('unsupported');
  });
});

describe('fast head path: a read budget', () => {
  it('is over once it has read more than FAST_PATH_READ_FACTOR times what it was given, plus FAST_PATH_MAX_PENDING', () => {
    const fed = 1_000;
    const limit = FAST_PATH_READ_FACTOR * fed + FAST_PATH_MAX_PENDING;
    expect(fastPathOverBudget(limit, fed)).toBe(false);
    expect(fastPathOverBudget(limit + 1, fed)).toBe(true);
  });

  it('a long token written a character (or a byte) at a time: htmlparser2 reads on past the budget, with the same results', () => {
    for (const token of [
      `<title>${'t'.repeat(5_000)}</title>`,
      `<meta name="robots" content="noindex" data-x="${'v'.repeat(5_000)}">`,
      `<!--${'c'.repeat(5_000)}-->`,
    ]) {
      const doc = `<html><head>${token}<meta name="robots" content="nofollow"></head><body>x`;
      for (const form of ['text', 'bytes'] as const) {
        const whole = form === 'text' ? doc : new TextEncoder().encode(doc);
        const chunks = chunksOf(
          whole,
          Array.from({ length: whole.length }, (_, i) => i),
        );
        const options = { productTokens: ['ExampleBot'] };
        expect(observe(createMetaScanner(options), chunks)).toEqual(
          observe(createFullParseMetaScanner(options), chunks),
        );
      }
    }
  });
});

describe('createMetaScannerFactory', () => {
  it('validates once and makes independent scanners', () => {
    expect(() => createMetaScannerFactory({ maxHeadBytes: 0 })).toThrow(/maxHeadBytes/);
    const newScanner = createMetaScannerFactory({ productTokens: ['ExampleBot'] });
    const a = newScanner();
    const b = newScanner();
    expect(a.write('<meta name=examplebot content=noindex><body>')).toBe(true);
    expect(b.write('<meta name=robots content=nofollow>')).toBe(false);
    b.end();
    expect(a.result().rules.map((rule) => [rule.token, rule.name])).toEqual([
      ['examplebot', 'noindex'],
    ]);
    expect(b.result().rules.map((rule) => [rule.token, rule.name])).toEqual([['*', 'nofollow']]);
  });
});
