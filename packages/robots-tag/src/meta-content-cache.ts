import type { RobotsTagRules } from './types.js';

/** How many parsed metas (content, name, position) a scanner factory remembers the rules of. */
export const META_CACHE_ENTRIES = 256;
/** Longer `content` values are parsed every time (they are rare, and would hold memory). */
export const META_CACHE_MAX_CONTENT = 512;
/**
 * Parses of one content kept (under other names, at other positions); past them a content is
 * parsed each time: a page that repeats one meta thousands of times would otherwise have each
 * of them looked for among hundreds of variants, which costs more than parsing it.
 */
export const META_CACHE_MAX_VARIANTS = 4;

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
 * here. Bounded: when it holds {@link META_CACHE_ENTRIES} parses, the content seen first goes.
 * The values are frozen, so sharing them between results is safe.
 * @example
 * const cache = new MetaContentCache(parseMeta);
 * const rules = cache.rulesFor('robots', 'noindex', 2, false);
 */
export class MetaContentCache {
  /**
   * By content, the parses of it (a content is mostly seen under one name at one position):
   * looked up by the content as it is, with no key string made per meta.
   */
  readonly #entries = new Map<string, CachedMeta[]>();
  /** Parses held, across all contents. */
  #size = 0;
  readonly #parse: ParseMeta;

  constructor(parse: ParseMeta) {
    this.#parse = parse;
  }

  /** What the parse gives for these arguments, from the cache when it was seen before. */
  rulesFor(field: string, content: string, line: number, knownOnly: boolean): RobotsTagRules {
    if (content.length > META_CACHE_MAX_CONTENT) {
      return this.#parse(field, content, line, knownOnly);
    }
    const entries = this.#entries;
    let parses = entries.get(content);
    if (parses !== undefined) {
      for (const cached of parses) {
        if (cached.field === field && cached.line === line && cached.knownOnly === knownOnly) {
          return cached.rules;
        }
      }
    }
    const rules = this.#parse(field, content, line, knownOnly);
    if (parses !== undefined && parses.length >= META_CACHE_MAX_VARIANTS) return rules;
    if (this.#size >= META_CACHE_ENTRIES) {
      // The content seen first goes, with all its parses.
      const [oldest, dropped] = entries.entries().next().value as [string, CachedMeta[]];
      entries.delete(oldest);
      this.#size -= dropped.length;
      if (dropped === parses) parses = undefined;
    }
    if (parses === undefined) {
      parses = [];
      entries.set(content, parses);
    }
    parses.push({ field, line, knownOnly, rules });
    this.#size += 1;
    return rules;
  }
}

/** One parse of a content. */
interface CachedMeta {
  readonly field: string;
  readonly line: number;
  readonly knownOnly: boolean;
  readonly rules: RobotsTagRules;
}
