import { CLI_DEFAULTS, extractLinks } from '@polite-crawler/cli';
import { describe, expect, it } from 'vitest';

const page = new URL('http://127.0.0.1:8080/dir/page.html');
const links = (html: string, maxLinks = 100): { url: string; nofollow: boolean }[] =>
  extractLinks(html, page, { maxLinks });

describe('extractLinks', () => {
  it('resolves relative links against the page, drops fragments and duplicates', () => {
    expect(
      links(
        '<a href="a">1</a><a href="/b#x">2</a><a href="../c?q=1">3</a><a href="a#y">dup</a><A HREF=d>4</A>',
      ),
    ).toEqual([
      { url: 'http://127.0.0.1:8080/dir/a', nofollow: false },
      { url: 'http://127.0.0.1:8080/b', nofollow: false },
      { url: 'http://127.0.0.1:8080/c?q=1', nofollow: false },
      { url: 'http://127.0.0.1:8080/dir/d', nofollow: false },
    ]);
  });

  it('honours the first <base href>', () => {
    expect(
      links('<base href="http://127.0.0.1:9000/root/"><base href="/ignored/"><a href="x">x</a>'),
    ).toEqual([{ url: 'http://127.0.0.1:9000/root/x', nofollow: false }]);
  });

  it('marks rel=nofollow among other rel values, in any case', () => {
    expect(
      links('<a rel="noopener NoFollow" href="/n">n</a><a rel=external href="/e">e</a>'),
    ).toEqual([
      { url: 'http://127.0.0.1:8080/n', nofollow: true },
      { url: 'http://127.0.0.1:8080/e', nofollow: false },
    ]);
  });

  it('decodes character references in href', () => {
    expect(links('<a href="/s?a=1&amp;b=2&#38;c=&#x33;">s</a>')).toEqual([
      { url: 'http://127.0.0.1:8080/s?a=1&b=2&c=3', nofollow: false },
    ]);
  });

  it('reads <area href> too', () => {
    expect(links('<map><area shape="rect" href="/area"></map>')).toEqual([
      { url: 'http://127.0.0.1:8080/area', nofollow: false },
    ]);
  });

  it('skips comments, scripts, styles and non-http links', () => {
    expect(
      links(
        '<!-- <a href="/c">c</a> --><script>var s = "<a href=\'/s\'>";</script><style>a[href="/st"]{}</style>' +
          '<a href="mailto:x@example.com">m</a><a href="javascript:void(0)">j</a><a href="ftp://x/">f</a><a href="">e</a><a>none</a>' +
          '<a href="/ok">ok</a>',
      ),
    ).toEqual([{ url: 'http://127.0.0.1:8080/ok', nofollow: false }]);
  });

  it('reads markup as a browser tokenizes it: text elements and <template> hold no links', () => {
    expect(
      links(
        '<title><a href="/t"></title><textarea><a href="/ta"></textarea>' +
          '<template><a href="/tpl"><template><a href="/inner"></template></template>' +
          '<a href=/after title="x > y">after</a>',
      ),
    ).toEqual([{ url: 'http://127.0.0.1:8080/after', nofollow: false }]);
  });

  it('ignores a tag cut off by the end of the input', () => {
    expect(links('<a href="/whole">w</a><a href="/half')).toEqual([
      { url: 'http://127.0.0.1:8080/whole', nofollow: false },
    ]);
    expect(links('<a href="/whole">w</a><a href="/cut"')).toEqual([
      { url: 'http://127.0.0.1:8080/whole', nofollow: false },
    ]);
  });

  it('survives hostile markup', () => {
    expect(links('<<a <a href=/x><a href=\'/y\' href="/z"><a = href="/w"><a href="/v"')).toEqual([
      { url: 'http://127.0.0.1:8080/x', nofollow: false },
      { url: 'http://127.0.0.1:8080/y', nofollow: false },
      { url: 'http://127.0.0.1:8080/w', nofollow: false },
    ]);
    expect(links('<a href="http://[bad">x</a><script>never closed <a href="/s">')).toEqual([]);
  });

  it(`returns at most maxLinks links (${CLI_DEFAULTS.maxLinksPerPage} by default in the CLI)`, () => {
    const html = (count: number): string =>
      Array.from({ length: count }, (_, index) => `<a href="/p${index}">${index}</a>`).join('');
    const max = CLI_DEFAULTS.maxLinksPerPage;
    expect(links(html(max), max)).toHaveLength(max);
    const past = links(html(max + 1), max);
    expect(past).toHaveLength(max);
    expect(past.at(-1)?.url).toBe(`http://127.0.0.1:8080/p${max - 1}`);
  });

  it('stays linear on many unclosed raw-text elements', () => {
    const html = '<script>'.repeat(50_000);
    expect(links(html)).toEqual([]);
  });
});
