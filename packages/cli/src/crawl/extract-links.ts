import { decodeEntities } from './decode-entities.js';

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

// Elements whose content is not markup: links inside them are not links.
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'template']);

/**
 * Finds the `<a href>` and `<area href>` links of an HTML document, resolved against the
 * page URL (or the first `<base href>`), in document order, without duplicates. Skips
 * comments and the content of `<script>`, `<style>` and other raw-text elements, and every
 * non-http(s) link (`mailto:`, `javascript:`, …), and a tag cut off by the end of the input.
 * A single forward scan: linear in the input, whatever it holds.
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
  const links: ExtractedLink[] = [];
  const seen = new Set<string>();
  let base = pageUrl;
  let baseSeen = false;
  let index = 0;
  const length = html.length;
  while (index < length && links.length < options.maxLinks) {
    const open = html.indexOf('<', index);
    if (open === -1) break;
    if (html.startsWith('<!--', open)) {
      const close = html.indexOf('-->', open + 4);
      index = close === -1 ? length : close + 3;
      continue;
    }
    const nameMatch = /^<([a-zA-Z][a-zA-Z0-9-]*)/.exec(html.slice(open, open + 64));
    if (nameMatch === null) {
      index = open + 1;
      continue;
    }
    const name = (nameMatch[1] ?? '').toLowerCase();
    const tag = readTag(html, open + nameMatch[0].length);
    // A tag cut by the end of the input (a page read up to a byte limit) may hold half a URL.
    if (!tag.complete) break;
    index = tag.end;
    if (RAW_TEXT.has(name)) {
      const closing = new RegExp(`</${name}`, 'gi');
      closing.lastIndex = index;
      const close = closing.exec(html);
      index = close === null ? length : close.index;
      continue;
    }
    if (name === 'base' && !baseSeen) {
      baseSeen = true;
      const href = tag.attributes.get('href');
      if (href !== undefined) {
        const resolved = resolve(href, pageUrl);
        if (resolved !== undefined) base = resolved;
      }
      continue;
    }
    if (name !== 'a' && name !== 'area') continue;
    const href = tag.attributes.get('href');
    if (href === undefined) continue;
    const url = resolve(href, base);
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) continue;
    url.hash = '';
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    const rel = (tag.attributes.get('rel') ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
    links.push({ url: url.href, nofollow: rel.includes('nofollow') });
  }
  return links;
}

function resolve(href: string, base: URL): URL | undefined {
  const trimmed = decodeEntities(href).trim();
  if (trimmed === '') return undefined;
  try {
    return new URL(trimmed, base);
  } catch {
    return undefined;
  }
}

/** Reads the attributes of a start tag from just after its name to just after its `>`. */
function readTag(
  html: string,
  start: number,
): { attributes: Map<string, string>; end: number; complete: boolean } {
  const attributes = new Map<string, string>();
  let index = start;
  const length = html.length;
  for (;;) {
    while (index < length && isSpace(html.charCodeAt(index))) index++;
    if (index >= length) return { attributes, end: length, complete: false };
    const char = html[index];
    if (char === '>') return { attributes, end: index + 1, complete: true };
    if (char === '/') {
      index++;
      continue;
    }
    let nameEnd = index;
    while (
      nameEnd < length &&
      !isSpace(html.charCodeAt(nameEnd)) &&
      !'=>/'.includes(html[nameEnd] ?? '')
    ) {
      nameEnd++;
    }
    if (nameEnd === index) nameEnd++; // a lone `=`: skip it
    const attrName = html.slice(index, nameEnd).toLowerCase();
    index = nameEnd;
    while (index < length && isSpace(html.charCodeAt(index))) index++;
    let value = '';
    if (html[index] === '=') {
      index++;
      while (index < length && isSpace(html.charCodeAt(index))) index++;
      const quote = html[index];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, index + 1);
        const valueEnd = close === -1 ? length : close;
        value = html.slice(index + 1, valueEnd);
        index = valueEnd + 1;
      } else {
        let valueEnd = index;
        while (valueEnd < length && !isSpace(html.charCodeAt(valueEnd)) && html[valueEnd] !== '>')
          valueEnd++;
        value = html.slice(index, valueEnd);
        index = valueEnd;
      }
    }
    if (!attributes.has(attrName)) attributes.set(attrName, value);
  }
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}
