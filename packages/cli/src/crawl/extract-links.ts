import { Tokenizer, TokenizerMode } from 'parse5';
import type { Token, TokenHandler } from 'parse5';

/** A link found in a page. */
export interface ExtractedLink {
  /** The absolute http(s) URL, without its fragment. */
  readonly url: string;
  /** The link carries `rel="nofollow"`. */
  readonly nofollow: boolean;
}

/** Options of {@link extractLinks}. */
export interface ExtractLinksOptions {
  /** Links returned at most; the rest are ignored. */
  readonly maxLinks: number;
}

// Elements whose content is text, not markup: the tokenizer is switched to their text mode
// after the start tag, as parse5's own tree builder does (links inside them are not links).
const TEXT_MODES: Readonly<Record<string, Tokenizer['state']>> = {
  title: TokenizerMode.RCDATA,
  textarea: TokenizerMode.RCDATA,
  style: TokenizerMode.RAWTEXT,
  xmp: TokenizerMode.RAWTEXT,
  iframe: TokenizerMode.RAWTEXT,
  noembed: TokenizerMode.RAWTEXT,
  noframes: TokenizerMode.RAWTEXT,
  script: TokenizerMode.SCRIPT_DATA,
  plaintext: TokenizerMode.PLAINTEXT,
};

/** Collects the links while parse5's tokenizer reads a page (see {@link extractLinks}). */
class LinkCollector implements TokenHandler {
  readonly links: ExtractedLink[] = [];
  readonly tokenizer = new Tokenizer({ sourceCodeLocationInfo: false }, this);
  readonly #seen = new Set<string>();
  readonly #page: URL;
  readonly #maxLinks: number;
  #base: URL;
  #baseSeen = false;
  /** Open `<template>` elements: their content is inert, not part of the page. */
  #templates = 0;

  constructor(page: URL, maxLinks: number) {
    this.#page = page;
    this.#base = page;
    this.#maxLinks = maxLinks;
  }

  onStartTag(token: Token.TagToken): void {
    const name = token.tagName;
    const mode = TEXT_MODES[name];
    if (mode !== undefined) {
      this.tokenizer.state = mode;
      return;
    }
    if (name === 'template' && !token.selfClosing) this.#templates++;
    if (this.#templates > 0 || this.links.length >= this.#maxLinks) return;
    const attribute = (wanted: string): string | undefined =>
      token.attrs.find((attr) => attr.name === wanted)?.value;
    if (name === 'base' && !this.#baseSeen) {
      this.#baseSeen = true;
      const href = attribute('href');
      const resolved = href === undefined ? undefined : resolve(href, this.#page);
      if (resolved !== undefined) this.#base = resolved;
      return;
    }
    if (name !== 'a' && name !== 'area') return;
    const href = attribute('href');
    const url = href === undefined ? undefined : resolve(href, this.#base);
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) return;
    url.hash = '';
    if (this.#seen.has(url.href)) return;
    this.#seen.add(url.href);
    const rel = (attribute('rel') ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
    this.links.push({ url: url.href, nofollow: rel.includes('nofollow') });
  }

  onEndTag(token: Token.TagToken): void {
    if (token.tagName === 'template' && this.#templates > 0) this.#templates--;
  }

  onComment(): void {}
  onDoctype(): void {}
  onEof(): void {}
  onCharacter(): void {}
  onNullCharacter(): void {}
  onWhitespaceCharacter(): void {}
}

function resolve(href: string, base: URL): URL | undefined {
  const trimmed = href.trim();
  if (trimmed === '') return undefined;
  try {
    return new URL(trimmed, base);
  } catch {
    return undefined;
  }
}

/**
 * Finds the `<a href>` and `<area href>` links of an HTML document with parse5's tokenizer (the
 * HTML standard's: character references decoded, comments, `<script>`, `<style>` and other text
 * elements skipped as a browser would), resolved against the page URL (or the first
 * `<base href>`), in document order, without duplicates. Links inside `<template>` and
 * non-http(s) links (`mailto:`, `javascript:`, …) are left out, and so is a tag cut off by the
 * end of the input (a page read up to a byte limit). Linear in the input.
 *
 * @example
 * ```ts
 * extractLinks('<a href="/a">A</a> <a rel="nofollow" href="/b">B</a>', new URL('http://127.0.0.1/'), { maxLinks: 100 });
 * // [{ url: 'http://127.0.0.1/a', nofollow: false }, { url: 'http://127.0.0.1/b', nofollow: true }]
 * ```
 */
export function extractLinks(
  html: string,
  pageUrl: URL,
  options: ExtractLinksOptions,
): ExtractedLink[] {
  const collector = new LinkCollector(pageUrl, options.maxLinks);
  collector.tokenizer.write(html, true);
  return collector.links;
}
