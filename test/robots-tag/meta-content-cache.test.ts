import { describe, expect, it } from 'vitest';
import {
  META_CACHE_ENTRIES,
  META_CACHE_MAX_CONTENT,
  META_CACHE_MAX_VARIANTS,
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

  it(`holds at most ${META_CACHE_ENTRIES} parses; one more lets the content seen first go`, () => {
    const { cache, parses } = countingCache();
    // Two parses of each content, so that the count is of parses, not of contents.
    for (let i = 0; i < META_CACHE_ENTRIES / 2; i++) {
      cache.rulesFor('robots', `c${i}`, 1, false);
      cache.rulesFor('robots', `c${i}`, 2, false);
    }
    expect(parses()).toBe(META_CACHE_ENTRIES);
    cache.rulesFor('robots', 'c0', 2, false);
    expect(parses()).toBe(META_CACHE_ENTRIES); // at the limit: all still held
    cache.rulesFor('robots', 'one more', 1, false);
    expect(parses()).toBe(META_CACHE_ENTRIES + 1);
    cache.rulesFor('robots', 'c1', 1, false);
    cache.rulesFor('robots', 'c1', 2, false);
    expect(parses()).toBe(META_CACHE_ENTRIES + 1); // the second content is still held
    cache.rulesFor('robots', 'c0', 1, false);
    expect(parses()).toBe(META_CACHE_ENTRIES + 2); // the first went, both its parses
  });

  it(`keeps ${META_CACHE_MAX_VARIANTS} parses of one content, and parses it each time past them`, () => {
    const { cache, parses } = countingCache();
    for (let line = 1; line <= META_CACHE_MAX_VARIANTS; line++) {
      cache.rulesFor('robots', 'x', line, false);
    }
    const held = cache.rulesFor('robots', 'x', META_CACHE_MAX_VARIANTS, false);
    expect(parses()).toBe(META_CACHE_MAX_VARIANTS);
    const past = cache.rulesFor('robots', 'x', META_CACHE_MAX_VARIANTS + 1, false);
    const again = cache.rulesFor('robots', 'x', META_CACHE_MAX_VARIANTS + 1, false);
    expect(parses()).toBe(META_CACHE_MAX_VARIANTS + 2);
    expect(again).not.toBe(past);
    expect(cache.rulesFor('robots', 'x', META_CACHE_MAX_VARIANTS, false)).toBe(held);
  });

  it('when the content seen first is the one being added to, keeps the new parse', () => {
    const { cache, parses } = countingCache();
    cache.rulesFor('robots', 'first', 1, false);
    for (let i = 1; i < META_CACHE_ENTRIES; i++) cache.rulesFor('robots', `c${i}`, 1, false);
    expect(parses()).toBe(META_CACHE_ENTRIES);
    // Full: a second parse of the first content lets that content go, then is kept.
    cache.rulesFor('robots', 'first', 2, false);
    cache.rulesFor('robots', 'first', 2, false);
    expect(parses()).toBe(META_CACHE_ENTRIES + 1);
    cache.rulesFor('robots', 'first', 1, false);
    expect(parses()).toBe(META_CACHE_ENTRIES + 2);
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
