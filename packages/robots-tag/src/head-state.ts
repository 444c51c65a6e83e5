/**
 * Where the HTML parser is, between the start of a document and its body: the insertion modes
 * of the HTML standard's tree construction (§13.2.6.4.1–.6, scripting off, as a crawler
 * parses) that decide which elements go into the head and where the head ends. Only what
 * changes that is kept: the mode, the depth of `<template>` (whose content is inert) and the
 * element whose text the tokenizer is reading. Each token costs O(1): no stack of elements.
 */

/** How the tokenizer reads an element's content (the tree builder switches it). */
export type TextContent = 'rcdata' | 'rawtext' | 'script-data' | 'plaintext';

/** What a start tag does to the scan. */
export type StartTagEffect =
  | 'meta' // a `<meta>` in the head: read it
  | 'end' // the head is over (a body, or anything the head cannot hold)
  | TextContent // its content is text, read by the tokenizer in this mode
  | undefined; // nothing the scan acts on

type Mode =
  'initial' | 'before-html' | 'before-head' | 'in-head' | 'in-head-noscript' | 'after-head';

/** Elements whose content is text, wherever the tree builder inserts them. */
const TEXT_CONTENT: ReadonlyMap<string, TextContent> = new Map<string, TextContent>([
  ['title', 'rcdata'],
  ['textarea', 'rcdata'],
  ['style', 'rawtext'],
  ['noframes', 'rawtext'],
  ['xmp', 'rawtext'],
  ['iframe', 'rawtext'],
  ['noembed', 'rawtext'],
  ['script', 'script-data'],
  ['plaintext', 'plaintext'],
]);

/** Void elements the "in head" mode inserts and pops at once. */
const VOID_IN_HEAD: ReadonlySet<string> = new Set(['base', 'basefont', 'bgsound', 'link']);

/** Start tags "after head" handles with the "in head" rules (the element goes into the head). */
const HEAD_AFTER_HEAD: ReadonlySet<string> = new Set([
  'base',
  'basefont',
  'bgsound',
  'link',
  'meta',
  'noframes',
  'script',
  'style',
  'template',
  'title',
]);

/**
 * Start tags that leave foreign content (SVG, MathML) for the HTML element around it: the
 * standard's "in foreign content" breakout list (`<font>` with attributes is left out).
 */
const FOREIGN_BREAKOUT: ReadonlySet<string> = new Set([
  ...['b', 'big', 'blockquote', 'body', 'br', 'center', 'code', 'dd', 'div', 'dl', 'dt', 'em'],
  ...['embed', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'head', 'hr', 'i', 'img', 'li', 'listing'],
  ...['menu', 'meta', 'nobr', 'ol', 'p', 'pre', 'ruby', 's', 'small', 'span', 'strong'],
  ...['strike', 'sub', 'sup', 'table', 'tt', 'u', 'ul', 'var'],
]);

/** End tags that are not ignored before the body ("anything else": they end the head). */
const HEAD_BREAKING_END: ReadonlySet<string> = new Set(['body', 'html', 'br']);

/**
 * The tree builder's view of a document's start, fed the tokens a tokenizer finds.
 * @example
 * const state = new HeadState();
 * state.startTag('head'); // undefined
 * state.startTag('meta'); // 'meta'
 * state.startTag('div'); // 'end'
 */
export class HeadState {
  #mode: Mode = 'initial';
  /** Depth of `<template>`: its content is inert, and no token in it ends the head. */
  #templateDepth = 0;
  /**
   * Inside a template, the `<svg>` / `<math>` elements open: foreign content, where `<script>`,
   * `<style>` or `<title>` are elements like any other and switch no tokenizer mode (outside a
   * template, `<svg>` ends the head). A count, not a stack: the integration points
   * (`<foreignObject>`, `<mi>`, …) and CDATA sections are not told apart.
   */
  #foreignRoots = 0;
  /** The element whose text content the tokenizer is reading (`plaintext`: to the end). */
  #text: string | undefined;
  #over = false;

  /** Whether the head is over: no later token is looked at. */
  get over(): boolean {
    return this.#over;
  }

  startTag(name: string): StartTagEffect {
    if (this.#over) return 'end';
    if (this.#templateDepth > 0) {
      if (this.#foreignRoots > 0) {
        if (!FOREIGN_BREAKOUT.has(name)) {
          if (name === 'svg' || name === 'math') this.#foreignRoots++;
          return undefined;
        }
        // A breakout tag pops back to the HTML element and is handled "in template".
        this.#foreignRoots = 0;
      }
      if (name === 'svg' || name === 'math') {
        this.#foreignRoots = 1;
        return undefined;
      }
      // "in template": tags go into the inert content; text elements still switch the tokenizer.
      if (name === 'template') this.#templateDepth++;
      return this.#textOf(name);
    }
    switch (this.#mode) {
      case 'initial':
      case 'before-html':
      case 'before-head':
        // `<html>` makes the html element; anything else makes it and is reprocessed.
        this.#mode = 'before-head';
        if (name === 'html') return undefined;
        this.#mode = 'in-head';
        if (name === 'head') return undefined;
        return this.#inHead(name);
      case 'in-head':
        return this.#inHead(name);
      case 'in-head-noscript':
        return this.#inHeadNoscript(name);
      case 'after-head':
        if (name === 'html' || name === 'head') return undefined;
        if (HEAD_AFTER_HEAD.has(name)) return this.#inHead(name);
        return this.#end();
    }
  }

  endTag(name: string): 'end' | undefined {
    if (this.#over) return 'end';
    if (this.#text !== undefined) {
      // The tokenizer reports no end tag in text content but the element's own.
      if (this.#text !== 'plaintext') this.#text = undefined;
      return undefined;
    }
    if (this.#templateDepth > 0) {
      if (this.#foreignRoots > 0) {
        if (name === 'svg' || name === 'math') {
          this.#foreignRoots--;
          return undefined;
        }
        // `</template>` reaches the template through the foreign elements; `</br>` and `</p>`
        // break out; any other end tag stays in the foreign content.
        if (name !== 'template' && name !== 'br' && name !== 'p') return undefined;
        this.#foreignRoots = 0;
      }
      if (name === 'template') this.#templateDepth--;
      return undefined;
    }
    switch (this.#mode) {
      case 'initial':
      case 'before-html':
      case 'before-head':
        if (!HEAD_BREAKING_END.has(name) && name !== 'head') return undefined;
        this.#mode = 'in-head';
        if (name !== 'head') return this.#end();
        this.#mode = 'after-head';
        return undefined;
      case 'in-head':
        if (name === 'head') this.#mode = 'after-head';
        else if (HEAD_BREAKING_END.has(name)) return this.#end();
        return undefined;
      case 'in-head-noscript':
        if (name === 'noscript') this.#mode = 'in-head';
        else if (name === 'br') return this.#end();
        return undefined;
      case 'after-head':
        return HEAD_BREAKING_END.has(name) ? this.#end() : undefined;
    }
  }

  /** A run of character tokens; `blank` when all are HTML whitespace (NUL is not). */
  characters(blank: boolean): 'end' | undefined {
    if (this.#over) return 'end';
    if (blank || this.#text !== undefined || this.#templateDepth > 0) return undefined;
    return this.#end();
  }

  /** The "in head" rules for a start tag (the `html` and `head` cases are the caller's). */
  #inHead(name: string): StartTagEffect {
    if (name === 'meta') return 'meta';
    if (VOID_IN_HEAD.has(name) || name === 'html' || name === 'head') return undefined;
    if (name === 'template') {
      this.#templateDepth = 1;
      return undefined;
    }
    if (name === 'noscript') {
      // Scripting off: its content is parsed as head content, not read as text. (Only "in
      // head" gets here: "after head" does not take `<noscript>` into the head.)
      this.#mode = 'in-head-noscript';
      return undefined;
    }
    if (name === 'title' || name === 'style' || name === 'noframes' || name === 'script') {
      return this.#textOf(name);
    }
    return this.#end();
  }

  /** "in head noscript": a few head elements stay in it; anything else closes it. */
  #inHeadNoscript(name: string): StartTagEffect {
    if (name === 'html' || name === 'head' || name === 'noscript') return undefined;
    if (name === 'meta') return 'meta';
    if (name === 'basefont' || name === 'bgsound' || name === 'link') return undefined;
    if (name === 'noframes' || name === 'style') return this.#textOf(name);
    this.#mode = 'in-head';
    return this.#inHead(name);
  }

  #textOf(name: string): TextContent | undefined {
    const content = TEXT_CONTENT.get(name);
    if (content !== undefined) this.#text = name;
    return content;
  }

  #end(): 'end' {
    this.#over = true;
    return 'end';
  }
}
