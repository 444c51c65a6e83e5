/**
 * Heads shaped like the ones crawlers meet, written for these tests (nothing fetched): old ad
 * and analytics code, comments left open, `<noscript>` fallbacks, IE conditional comments,
 * byte-order marks and charset declarations. Each robots meta's content is a made-up rule
 * name, and `read` lists the ones a browser's parser puts in the head, in order.
 */
export interface CorpusHead {
  readonly name: string;
  readonly html: string;
  readonly read: readonly string[];
}

const M = (content: string): string => `<meta name="robots" content="${content}">`;

export const HEAD_CORPUS: readonly CorpusHead[] = [
  {
    name: 'document.write ad tag in an escaped script',
    html:
      `<!DOCTYPE html><html><head><meta charset="utf-8"><title>News</title>` +
      `<script type="text/javascript"><!--\n` +
      `document.write('<scr' + 'ipt src="//ads.example/show.js"></scr' + 'ipt>');\n` +
      `document.write("<script src='//ads.example/b.js'><\\/script>");\n//--></script>` +
      `${M('a1')}</head><body>${M('body')}`,
    read: ['a1'],
  },
  {
    name: 'document.write of a whole script element inside a comment-escaped script',
    html:
      `<html><head><script><!--\ndocument.write('<script src="x.js"></script>');\n` +
      `${M('inside')}\n//--></script>${M('a2')}</head><body>`,
    read: ['a2'],
  },
  {
    name: 'a script whose escape never closes hides everything after it',
    html: `<head><script><!-- var a = '<script>'; </script>${M('hidden')}</head><body>`,
    read: [],
  },
  {
    name: 'document.write writing a meta (not run by a crawler)',
    html: `<head><script>document.write('<meta name="robots" content="w">')</script>${M('a3')}`,
    read: ['a3'],
  },
  {
    name: 'an unclosed comment hides the rest of the document',
    html: `<head>${M('before')}<!-- old nav ${M('hidden')}</head><body>text`,
    read: ['before'],
  },
  {
    name: 'a comment closed by --!> and one with -- inside',
    html: `<head><!-- a -- b --!>${M('c1')}<!-- x ---->${M('c2')}</head>`,
    read: ['c1', 'c2'],
  },
  {
    name: 'noscript tracking pixel in the head ends nothing, an img in it does',
    html:
      `<head>${M('n1')}<noscript><link rel="stylesheet" href="/nojs.css">${M('n2')}</noscript>` +
      `<noscript><img src="/pixel.gif" alt=""></noscript>${M('after-img')}</head><body>`,
    read: ['n1', 'n2'],
  },
  {
    name: 'noscript after </head> starts the body',
    html: `<head>${M('h')}</head><noscript>${M('ns')}</noscript><body>`,
    read: ['h'],
  },
  {
    name: 'a title in a noscript closes the noscript and stays in the head',
    html: `<head><noscript><title>t</title>${M('t1')}</noscript></head>`,
    read: ['t1'],
  },
  {
    name: 'IE conditional comments',
    html:
      `<!DOCTYPE html><!--[if lt IE 9]><html class="ie"><![endif]--><!--[if gt IE 8]><!--><html><!--<![endif]-->` +
      `<head><!--[if IE]>${M('ie-only')}<![endif]-->${M('all')}` +
      `<!--[if !IE]><!-->${M('not-ie')}<!--<![endif]--></head>`,
    read: ['all', 'not-ie'],
  },
  {
    name: 'downlevel-revealed conditional comment (bogus comments)',
    html: `<head><![if !IE]>${M('revealed')}<![endif]></head>`,
    read: ['revealed'],
  },
  {
    name: 'charset switches: http-equiv and a second meta charset (not followed)',
    html:
      `<head><meta http-equiv="Content-Type" content="text/html; charset=iso-8859-1">` +
      `<meta charset="windows-1252">${M('cs')}</head>`,
    read: ['cs'],
  },
  {
    name: 'a BOM character in text input',
    html: `\ufeff<!doctype html><head>${M('bom')}</head>`,
    read: ['bom'],
  },
  {
    name: 'metas between </head> and <body> go into the head',
    html: `<head></head>\n${M('between')}<link rel=x><body>${M('body')}`,
    read: ['between'],
  },
  {
    name: 'template content is inert, nested templates included',
    html:
      `<head><template><template>${M('t-in')}</template><div>${M('t-div')}</div></template>` +
      `${M('after-template')}</head>`,
    read: ['after-template'],
  },
  {
    name: 'a frameset document',
    html: `<html><head>${M('fs')}</head><frameset><frame src=a>${M('in-frameset')}</frameset>`,
    read: ['fs'],
  },
  {
    name: 'text in the head ends it, whitespace and entities for spaces do not',
    html: `<head>\n\t${M('w1')}&#32;&Tab;${M('w2')}&nbsp;${M('w3')}`,
    read: ['w1', 'w2'],
  },
  {
    name: 'a stray </p> and </div> in the head are ignored, </br> is a <br>',
    html: `<head></p></div>${M('s1')}</br>${M('s2')}`,
    read: ['s1'],
  },
  {
    name: 'uppercase tags, unquoted and duplicate attributes',
    html: `<HEAD><META NAME=ROBOTS CONTENT=u1 content=dup><Meta name='robots' content='u2'></HEAD>`,
    read: ['u1', 'u2'],
  },
  {
    name: 'an analytics snippet with < and > in strings, and a JSON-LD block',
    html:
      `<head><script>if (a < b && c > d) { x = "</scripts>"; }</script>` +
      `<script type="application/ld+json">{"@type":"NewsArticle","h":"<b>"}</script>${M('j')}</head>`,
    read: ['j'],
  },
  {
    name: 'a style with a closing-looking string, and a noframes fallback',
    html: `<head><style>p::after{content:"</sty"}</style>${M('st')}<noframes>${M('nf')}</noframes>${M('nf2')}`,
    read: ['st', 'nf2'],
  },
];
