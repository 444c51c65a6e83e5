import { describe, expect, it } from 'vitest';
import {
  META_CACHE_ENTRIES,
  META_CACHE_MAX_CONTENT,
  MetaContentCache,
} from '../../packages/robots-tag/src/meta-content-cache.js';

/** A cache over a parse that counts its calls and tells its results apart. */
function countingCache(): { cache: MetaContentCache; parses: () => number } {
  let calls = 0;
  const cache = new MetaContentCache((field, content, line, knownOnly) => {
    calls += 1;
    return Object.freeze({
      rules: Object.freeze([]),
      diagnostics: Object.freeze([
        Object.freeze({
          code: 'invalid-value' as const,
          message: `${field} ${content} ${line} ${knownOnly} #${calls}`,
          source: 'meta' as const,
        }),
      ]),
    });
  });
  return { cache, parses: () => calls };
}

describe('MetaContentCache', () => {
  it('hands back the same rules for the same content, name, position and mode', () => {
    const { cache, parses } = countingCache();
    const first = cache.rulesFor('robots', 'noindex', 1, false);
    expect(cache.rulesFor('robots', 'noindex', 1, false)).toBe(first);
    expect(parses()).toBe(1);
  });

  it('parses a content again under another name, position or mode', () => {
    const { cache, parses } = countingCache();
    const base = cache.rulesFor('robots', 'noindex', 1, false);
    const others = [
      cache.rulesFor('examplebot', 'noindex', 1, false),
      cache.rulesFor('robots', 'noindex', 2, false),
      cache.rulesFor('robots', 'noindex', 1, true),
    ];
    expect(parses()).toBe(4);
    for (const other of others) expect(other).not.toBe(base);
    // Each is kept under its own variant.
    expect(cache.rulesFor('robots', 'noindex', 2, false)).toBe(others[1]);
    expect(parses()).toBe(4);
  });

  it(`holds at most ${META_CACHE_ENTRIES} parses, also when they share one content`, () => {
    const { cache, parses } = countingCache();
    for (let line = 1; line <= META_CACHE_ENTRIES; line++)
      cache.rulesFor('robots', 'x', line, false);
    expect(parses()).toBe(META_CACHE_ENTRIES);
    cache.rulesFor('robots', 'x', META_CACHE_ENTRIES, false);
    expect(parses()).toBe(META_CACHE_ENTRIES); // at the limit: all still held
    // One more: the content seen first (here, the same one) goes with all its parses.
    cache.rulesFor('robots', 'x', META_CACHE_ENTRIES + 1, false);
    expect(parses()).toBe(META_CACHE_ENTRIES + 1);
    cache.rulesFor('robots', 'x', 1, false);
    expect(parses()).toBe(META_CACHE_ENTRIES + 2);
    // The newest parse was kept in the emptied cache.
    cache.rulesFor('robots', 'x', META_CACHE_ENTRIES + 1, false);
    expect(parses()).toBe(META_CACHE_ENTRIES + 2);
  });

  it('lets the content seen first go, not the one being added to', () => {
    const { cache, parses } = countingCache();
    cache.rulesFor('robots', 'old', 1, false);
    for (let line = 1; line < META_CACHE_ENTRIES; line++)
      cache.rulesFor('robots', 'new', line, false);
    cache.rulesFor('robots', 'new', META_CACHE_ENTRIES, false);
    const before = parses();
    cache.rulesFor('robots', 'new', 1, false);
    expect(parses()).toBe(before);
    cache.rulesFor('robots', 'old', 1, false);
    expect(parses()).toBe(before + 1);
  });

  it(`parses a content longer than ${META_CACHE_MAX_CONTENT} characters every time`, () => {
    const { cache, parses } = countingCache();
    const at = 'x'.repeat(META_CACHE_MAX_CONTENT);
    cache.rulesFor('robots', at, 1, false);
    cache.rulesFor('robots', at, 1, false);
    expect(parses()).toBe(1);
    const past = 'x'.repeat(META_CACHE_MAX_CONTENT + 1);
    cache.rulesFor('robots', past, 1, false);
    cache.rulesFor('robots', past, 1, false);
    expect(parses()).toBe(3);
  });
});
