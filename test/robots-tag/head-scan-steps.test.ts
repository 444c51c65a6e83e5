/**
 * The four steps of a meta scan, each alone: decoding, tokenizing, head state, collecting.
 * (End to end, they are tested by meta-scan, browser-head, limits and linear-work.)
 */
import { describe, expect, it } from 'vitest';
import { HeadDecoder } from '../../packages/robots-tag/src/head-decoder.js';
import { HeadState } from '../../packages/robots-tag/src/head-state.js';
import type { TextContent } from '../../packages/robots-tag/src/head-state.js';
import { HeadTokenizer } from '../../packages/robots-tag/src/head-tokenizer.js';
import type { HeadAttribute } from '../../packages/robots-tag/src/head-tokenizer.js';
import { MetaCollector } from '../../packages/robots-tag/src/meta-collector.js';
import { MetaContentCache } from '../../packages/robots-tag/src/meta-content-cache.js';
import { parseMeta } from '../../packages/robots-tag/src/meta-collector.js';

describe('decoding (HeadDecoder)', () => {
  const collect = (decoder: HeadDecoder, chunks: (string | Uint8Array)[]): string[] => {
    const out: string[] = [];
    const sink = { text: (text: string) => (out.push(text), true) };
    for (const chunk of chunks) decoder.write(chunk, sink);
    decoder.end(sink);
    return out;
  };

  it('joins a UTF-8 character split across writes, and drops a UTF-8 byte-order mark', () => {
    const bytes = new TextEncoder().encode('\ufeff<ü>');
    const pieces = collect(
      new HeadDecoder('utf-8', 100),
      Array.from(bytes, (b) => Uint8Array.of(b)),
    );
    expect(pieces.join('')).toBe('<ü>');
  });

  it('a UTF-16 byte-order mark wins over the declared encoding', () => {
    const decoder = new HeadDecoder('utf-8', 100);
    expect(collect(decoder, [Uint8Array.of(0xfe, 0xff, 0x00, 0x3c)]).join('')).toBe('<');
  });

  it('holds one or two bytes that may start a mark, and decodes them as they are if not', () => {
    const decoder = new HeadDecoder('utf-8', 100);
    expect(collect(decoder, [Uint8Array.of(0xef), Uint8Array.of(0x41)]).join('')).toBe('\ufffdA');
  });

  it('a leading U+FEFF of text is dropped, a later one kept', () => {
    expect(collect(new HeadDecoder('utf-8', 100), ['\ufeffa\ufeff']).join('')).toBe('a\ufeff');
  });

  it('stops at maxBytes and says so; hands on slices, and stops when the sink says so', () => {
    const decoder = new HeadDecoder('utf-8', 5);
    const out: string[] = [];
    expect(decoder.write('abcdefgh', { text: (text) => (out.push(text), true) })).toBe('cap');
    expect(out).toEqual(['abcde']);
    expect(decoder.bytes).toBe(5);
    const big = new HeadDecoder('utf-8', 100_000);
    const slices: number[] = [];
    expect(
      big.write('x'.repeat(40_000), { text: (text) => (slices.push(text.length), false) }),
    ).toBe('stopped');
    expect(slices).toEqual([16_384]);
  });

  it('text after bytes flushes a character the bytes left incomplete', () => {
    const decoder = new HeadDecoder('utf-8', 100);
    expect(collect(decoder, [Uint8Array.of(0x41, 0xc3), 'b']).join('')).toBe('A\ufffdb');
  });
});

describe('tokenizing (HeadTokenizer)', () => {
  type Event = string;
  const tokenize = (chunks: string[], modes: Record<string, TextContent> = {}): Event[] => {
    const events: Event[] = [];
    const tokenizer = new HeadTokenizer({
      startTag: (name: string, attrs: readonly HeadAttribute[]) => {
        events.push(`<${name}${attrs.map((a) => ` ${a.name}=${a.value}`).join('')}>`);
        return modes[name];
      },
      endTag: (name: string) => events.push(`</${name}>`),
      characters: (blank: boolean) => events.push(blank ? 'blank' : 'text'),
    });
    for (const chunk of chunks) tokenizer.write(chunk);
    tokenizer.end();
    return events;
  };

  it('reports tags (lower-cased, attributes decoded, first of a name kept) and text runs', () => {
    expect(tokenize(['<META Name=Robots CONTENT="a&amp;b" content=x> x'])).toEqual([
      '<meta name=Robots content=a&b>',
      'blank',
      'text',
    ]);
  });

  it('the same events for any split', () => {
    const html = '<head><title>a<b></title><!-- c --><meta name=robots content="n&#111;index">\n';
    const whole = tokenize([html], { title: 'rcdata' });
    for (let cut = 1; cut < html.length; cut++) {
      expect(tokenize([html.slice(0, cut), html.slice(cut)], { title: 'rcdata' })).toEqual(whole);
    }
    expect(tokenize([...html], { title: 'rcdata' })).toEqual(whole);
  });

  it('switches to the text mode the listener names, right after the start tag', () => {
    const html = '<script><meta></script><meta>';
    expect(tokenize([html], { script: 'script-data' })).toEqual([
      '<script>',
      'text',
      '</script>',
      '<meta>',
    ]);
    // Without the switch, the script's content is markup (which is why the listener says).
    expect(tokenize([html])).toEqual(['<script>', '<meta>', '</script>', '<meta>']);
  });

  it('endCut: a run of text the cut may have made is not reported; the others are', () => {
    const run = (text: string): Event[] => {
      const events: Event[] = [];
      const tokenizer = new HeadTokenizer({
        startTag: () => undefined,
        endTag: () => undefined,
        characters: (blank: boolean) => events.push(blank ? 'blank' : 'text'),
      });
      tokenizer.write(text);
      tokenizer.endCut();
      return events;
    };
    expect(run(' x')).toEqual(['blank', 'text']);
    expect(run(' &am')).toEqual(['blank']);
    expect(run(' x<')).toEqual(['blank']);
    expect(run('x<!-- c')).toEqual(['text']);
  });
});

describe('head state (HeadState)', () => {
  type Step = ['<' | '/' | 'text' | 'blank', string?];
  const run = (steps: Step[]): unknown[] => {
    const state = new HeadState();
    return steps.map(([kind, name]) =>
      kind === '<'
        ? state.startTag(name!)
        : kind === '/'
          ? state.endTag(name!)
          : state.characters(kind === 'blank'),
    );
  };

  it.each<[string, Step[], unknown[]]>([
    ['an implied head reads a meta', [['<', 'meta']], ['meta']],
    [
      'text ends the head',
      [['<', 'head'], ['blank'], ['text'], ['<', 'meta']],
      [undefined, undefined, 'end', 'end'],
    ],
    [
      'after </head>, a meta still goes into the head; <noscript> starts the body',
      [
        ['<', 'head'],
        ['/', 'head'],
        ['<', 'meta'],
        ['<', 'noscript'],
      ],
      [undefined, undefined, 'meta', 'end'],
    ],
    [
      'in a head <noscript>, a meta counts and an <img> ends the head',
      [
        ['<', 'noscript'],
        ['<', 'meta'],
        ['<', 'img'],
      ],
      [undefined, 'meta', 'end'],
    ],
    [
      'a <title> in a <noscript> closes it and is read as text',
      [['<', 'noscript'], ['<', 'title'], ['text'], ['/', 'title'], ['<', 'meta']],
      [undefined, 'rcdata', undefined, undefined, 'meta'],
    ],
    [
      'template content is inert; a <textarea> in it is still text',
      [
        ['<', 'template'],
        ['<', 'div'],
        ['<', 'textarea'],
        ['text'],
        ['/', 'textarea'],
        ['/', 'template'],
        ['<', 'meta'],
      ],
      [undefined, undefined, 'rcdata', undefined, undefined, undefined, 'meta'],
    ],
    [
      'stray end tags are ignored; </br>, </body>, </html> end the head',
      [
        ['/', 'p'],
        ['/', 'div'],
        ['<', 'meta'],
        ['/', 'br'],
      ],
      [undefined, undefined, 'meta', 'end'],
    ],
    ['</body> before anything ends it', [['/', 'body']], ['end']],
    [
      'script, style, noframes are text; <frameset> ends the head',
      [
        ['<', 'script'],
        ['/', 'script'],
        ['<', 'style'],
        ['/', 'style'],
        ['<', 'noframes'],
        ['/', 'noframes'],
        ['<', 'frameset'],
      ],
      ['script-data', undefined, 'rawtext', undefined, 'rawtext', undefined, 'end'],
    ],
  ])('%s', (_, steps, effects) => {
    expect(run(steps)).toEqual(effects);
  });
});

describe('collecting (MetaCollector)', () => {
  const attrs = (name: string | undefined, content?: string): HeadAttribute[] => [
    ...(name === undefined ? [] : [{ name: 'name', value: name }]),
    ...(content === undefined ? [] : [{ name: 'content', value: content }]),
  ];

  it('reads robots and product tokens, numbers every meta, ignores other names', () => {
    const collector = new MetaCollector({
      productTokens: new Set(['examplebot']),
      metaCache: undefined,
    });
    collector.meta(attrs('description', 'noindex'));
    collector.meta(attrs(' ROBOTS\n', 'noindex'));
    collector.meta(attrs('otherbot', 'nofollow'));
    collector.meta(attrs('ExampleBot', 'nosnippet'));
    collector.meta(attrs(undefined, 'noarchive'));
    expect(collector.result().rules.map((r) => [r.token, r.name, r.line])).toEqual([
      ['*', 'noindex', 2],
      ['examplebot', 'nosnippet', 4],
    ]);
  });

  it('a meta without content: a diagnostic, unless its name is only read for known rules', () => {
    const listed = new MetaCollector({ productTokens: undefined, metaCache: undefined });
    listed.meta(attrs('robots'));
    listed.meta(attrs('somebot'));
    expect(listed.result().diagnostics.map((d) => [d.code, d.field])).toEqual([
      ['invalid-value', 'robots'],
    ]);
  });

  it('shares parsed contents through a factory cache, with the same result', () => {
    const cache = new MetaContentCache(parseMeta);
    const a = new MetaCollector({ productTokens: undefined, metaCache: cache });
    const b = new MetaCollector({ productTokens: undefined, metaCache: cache });
    a.meta(attrs('robots', 'noindex, max-snippet: 5'));
    b.meta(attrs('robots', 'noindex, max-snippet: 5'));
    expect(b.result()).toBe(a.result());
    const fresh = new MetaCollector({ productTokens: undefined, metaCache: undefined });
    fresh.meta(attrs('robots', 'noindex, max-snippet: 5'));
    expect(fresh.result()).toEqual(a.result());
  });
});
