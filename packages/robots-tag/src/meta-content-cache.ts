import type { RobotsTagRules } from './types.js';

/** How many distinct metas a scanner factory remembers the rules of. */
export const META_CACHE_ENTRIES = 256;
/** Longer `content` values are parsed every time (they are rare, and would hold memory). */
export const META_CACHE_MAX_CONTENT = 512;

/** Parses the `content` of the `line`-th meta of a document, named `field` (normalised). */
export type ParseMeta = (
  field: string,
  content: string,
  line: number,
  knownOnly: boolean,
) => RobotsTagRules;

/**
 * The rules (and diagnostics) of meta contents already parsed, by everything the parse depends
 * on. A site repeats the same robots meta on every page, so a crawler's scans mostly find it
 * here. Bounded: the oldest entry goes when it is full. The values are frozen, so sharing
 * them between results is safe.
 * @example
 * const cache = new MetaContentCache(parseMeta);
 * const rules = cache.rulesFor('robots', 'noindex', 2, false);
 */
export class MetaContentCache {
  readonly #entries = new Map<string, RobotsTagRules>();
  readonly #parse: ParseMeta;

  constructor(parse: ParseMeta) {
    this.#parse = parse;
  }

  /** What the parse gives for these arguments, from the cache when it was seen before. */
  rulesFor(field: string, content: string, line: number, knownOnly: boolean): RobotsTagRules {
    if (content.length > META_CACHE_MAX_CONTENT) {
      return this.#parse(field, content, line, knownOnly);
    }
    // A field is a product token or `robots`: no space or newline in it.
    const key = `${line} ${knownOnly ? 1 : 0} ${field}\n${content}`;
    const entries = this.#entries;
    let rules = entries.get(key);
    if (rules === undefined) {
      rules = this.#parse(field, content, line, knownOnly);
      if (entries.size >= META_CACHE_ENTRIES) {
        entries.delete(entries.keys().next().value as string);
      }
      entries.set(key, rules);
    }
    return rules;
  }
}
