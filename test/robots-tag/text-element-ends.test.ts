/**
 * Where the text of `<script>`, `<style>` and `<title>` ends, as the HTML standard ends it: a
 * `</script>` inside `<!-- … <script> … -->` does not end a script (the script data states), and
 * `</script/>`, `</style/>`, `</title/>` do end their element. Checked against the standard's
 * cases by hand, against parse5 (an implementation of the standard's tokenizer) on generated
 * scripts, and end to end: a robots meta after such an element is read, whatever the chunks.
 */
import fc from 'fast-check';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import {
  createMetaScanner,
  createMetaScannerFactory,
  directivesFor,
} from '@polite-crawler/robots-tag';
import type { MetaScanner } from '@polite-crawler/robots-tag';
import { chunksOf } from './chunks-of.js';

const OPEN = '<head><script>';
const META = '<meta name="robots" content="noindex">';

/** Whether a scan reads the meta of `<head><script>` + `rest`, in one write or byte by byte. */
function metaReadAfter(rest: string): [boolean, boolean] {
  const whole = createMetaScanner();
  whole.write(OPEN + rest);
  whole.end();
  const split = createMetaScanner();
  for (const byte of new TextEncoder().encode(OPEN + rest)) split.write(Uint8Array.of(byte));
  split.end();
  return [whole, split].map((scan) => directivesFor(scan.result(), 'ExampleBot').noindex) as [
    boolean,
    boolean,
  ];
}

interface TreeNode {
  nodeName: string;
  value?: string;
  childNodes?: TreeNode[];
}

/** The text of the first script in the head, as parse5 (the standard, scripting off) reads it. */
function parse5ScriptText(doc: string): string {
  const root = parse(doc, { scriptingEnabled: false }) as unknown as TreeNode;
  const html = root.childNodes!.find((node) => node.nodeName === 'html')!;
  const head = html.childNodes!.find((node) => node.nodeName === 'head')!;
  const script = head.childNodes!.find((node) => node.nodeName === 'script')!;
  return (script.childNodes ?? []).map((node) => node.value ?? '').join('');
}

/** Whether parse5 has a meta in the head of `doc`. */
function parse5HeadHasMeta(doc: string): boolean {
  const root = parse(doc, { scriptingEnabled: false }) as unknown as TreeNode;
  const html = root.childNodes!.find((node) => node.nodeName === 'html')!;
  const head = html.childNodes!.find((node) => node.nodeName === 'head')!;
  return head.childNodes!.some((node) => node.nodeName === 'meta');
}

describe('script data states: where a script ends', () => {
  it.each([
    ['plain', 'a()</script>x', 'a()'],
    ['end tag in any case, then a space', 'a()</SCRIPT >x', 'a()'],
    ['end tag then a tab', 'a()</script\tx>', 'a()'],
    ['a comment without a script in it', '<!-- a() --></script>x', '<!-- a() -->'],
    ['an escaped part ends at `</script>`', '<!-- a() </script>x', '<!-- a() '],
    [
      'a double escaped part hides `</script>`',
      "<!-- document.write('<script src=x></script>') //--></script>x",
      "<!-- document.write('<script src=x></script>') //-->",
    ],
    [
      '`<script/` opens a double escaped part',
      '<!--<script/></script>--></script>x',
      '<!--<script/></script>-->',
    ],
    ['`<scripts>` does not', '<!--<scripts></script>--></script>x', '<!--<scripts>'],
    [
      '`</scripts>` does not close one',
      '<!--<script></scripts></script>--></script>x',
      '<!--<script></scripts></script>-->',
    ],
    [
      '`-->` in a double escaped part ends the escape',
      '<!--<script>--></script>x',
      '<!--<script>-->',
    ],
    ['`<!-->` is an empty escape', '<!--><script></script>x', '<!--><script>'],
    ['`<!-` is not an escape', '<!-<script></script>x', '<!-<script>'],
    ['`<</script>`', 'a<</script>x', 'a<'],
    ['`</script/` ends it too', 'a</script/>b</script>x', 'a'],
    [
      '`</script/` in a double escaped part closes the part',
      '<!--<script></script/>--></script>x',
      '<!--<script></script/>-->',
    ],
  ])('%s', (_, rest, text) => {
    // The standard's reading (parse5's tree builder), then ours: a meta right after the end.
    expect(parse5ScriptText(OPEN + rest)).toBe(text);
    const after = OPEN.length + text.length;
    const ended = (OPEN + rest).slice(after).replace(/^<\/script[^>]*>/i, '');
    expect(metaReadAfter(rest.slice(0, rest.length - ended.length) + META)).toEqual([true, true]);
  });

  it('agrees with parse5 on generated scripts', () => {
    const piece = fc.constantFrom(
      'x',
      ' ',
      '<',
      '!',
      '-',
      '/',
      '>',
      '<!--',
      '-->',
      '<script',
      '<SCRIPT',
      '</script',
      '</script/',
      '</scripts',
      '<scrip',
      'script',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const rest = `${pieces.join('')}</script>${META}`;
        const inHead = parse5HeadHasMeta(OPEN + rest);
        expect(metaReadAfter(rest)).toEqual([inHead, inHead]);
      }),
      { numRuns: 3_000 },
    );
  });
});

describe('a robots meta after a text element', () => {
  const doc =
    `<!doctype html><html><head><title>t</title>` +
    `<script><!-- document.write('<script src="/ads.js"></script>') //--></script>` +
    `${META}</head><body><p>text</p></body></html>`;
  const scanners: [string, () => MetaScanner][] = [
    ['a scanner', () => createMetaScanner()],
    ['a factory’s scanner', createMetaScannerFactory()],
  ];

  /** Whether each scanner reads noindex in `html`, one write. */
  const noindexBy = (html: string): boolean[] =>
    scanners.map(([, make]) => {
      const scan = make();
      scan.write(html);
      scan.end();
      return directivesFor(scan.result(), 'ExampleBot').noindex;
    });

  it.each(scanners)(
    'after a double escaped script, is read by %s, in chunks split anywhere',
    (_, scanner) => {
      const bytes = new TextEncoder().encode(doc);
      for (let cut = 1; cut < doc.length; cut++) {
        for (const input of [
          [doc.slice(0, cut), doc.slice(cut)],
          chunksOf(bytes, [cut]),
          chunksOf(bytes, [cut, cut + 1, cut + 3]),
        ]) {
          const scan = scanner();
          for (const chunk of input) if (scan.write(chunk)) break;
          scan.end();
          expect(directivesFor(scan.result(), 'ExampleBot').noindex, `cut at ${cut}`).toBe(true);
          expect(scan.stopReason).toBe('head-end');
        }
      }
    },
  );

  it.each([
    ['<head><script>a()</script/><meta name=robots content=noindex></head>'],
    ['<head><script>a()</SCRIPT/ x="y"><meta name=robots content=noindex></head>'],
    ['<head><style>a{}</style/><meta name=robots content=noindex></head>'],
    ['<head><title>t</title/><meta name=robots content=noindex></head>'],
  ])('an end tag with a `/` after its name ends the element: %s', (html) => {
    const root = parse(html, { scriptingEnabled: false }) as unknown as TreeNode;
    const head = root.childNodes![0]!.childNodes!.find((node) => node.nodeName === 'head')!;
    // The standard has the meta in the head.
    expect(head.childNodes!.map((node) => node.nodeName)).toContain('meta');
    expect(noindexBy(html)).toEqual([true, true]);
  });

  it('a `</script>` in the escaped part (not double escaped) still ends the script', () => {
    expect(noindexBy(`<head><script><!-- a() </script>${META}</head>`)).toEqual([true, true]);
    // And a script that never ends hides the meta (it is script text to a browser too).
    const open = `<head><script><!-- <script> </script>${META}</head><body>`;
    expect(noindexBy(open)).toEqual([false, false]);
  });
});
