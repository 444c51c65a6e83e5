/**
 * The bounds of the store `cache: true` makes (MEMORY_CACHE_LIMITS, undici's MemoryCacheStore):
 * a response of exactly `maxEntrySize` body bytes is kept, one byte more is not (it is still
 * fetched and handed over whole); `maxCount` responses are kept, one more evicts the least
 * recently used (undici evicts down to half the bound; a read counts as a use); `maxSize` bytes
 * in all are kept, one response past them evicts the least recently used. What is evicted is
 * fetched again: the server's record says so.
 */
import { describe, expect, it } from 'vitest';
import { MEMORY_CACHE_LIMITS } from '@polite-crawler/fetch';
import { useRigs } from '../fetch/helpers/setup.js';
import { ALLOW_ALL } from '../helpers/cache-site.js';

const { server, polite } = useRigs();

/** `/bytes/<n>`: n bytes, fresh for an hour; `/robots.txt` allows all. */
async function sizedSite() {
  return server((req, res) => {
    if (req.url === '/robots.txt') {
      res.end(ALLOW_ALL);
      return;
    }
    const size = Number(/^\/bytes\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
    res
      .writeHead(200, {
        'content-type': 'application/octet-stream',
        'cache-control': 'max-age=3600',
      })
      .end(Buffer.alloc(size, 0x61));
  });
}

describe('cache: true is bounded (MEMORY_CACHE_LIMITS)', () => {
  it('names its limits: 1,024 responses, 64 MiB in all, 4 MiB a response', () => {
    expect(MEMORY_CACHE_LIMITS).toEqual({
      maxCount: 1_024,
      maxSize: 64 * 1024 * 1024,
      maxEntrySize: 4 * 1024 * 1024,
    });
    expect(Object.isFrozen(MEMORY_CACHE_LIMITS)).toBe(true);
  });

  it('maxEntrySize: a body of exactly the limit is kept; one byte more is fetched each time, whole', async () => {
    const s = await sizedSite();
    const { fetch } = polite();
    const { maxEntrySize } = MEMORY_CACHE_LIMITS;
    for (const size of [maxEntrySize, maxEntrySize + 1]) {
      for (let i = 0; i < 2; i += 1) {
        const body = await (await fetch(`${s.origin}/bytes/${size}`)).arrayBuffer();
        expect(body.byteLength).toBe(size);
      }
    }
    expect(s.hits(`/bytes/${maxEntrySize}`)).toHaveLength(1);
    expect(s.hits(`/bytes/${maxEntrySize + 1}`)).toHaveLength(2);
  });

  it('maxCount: 1,024 responses are all kept; the 1,025th evicts the least recently used', async () => {
    const s = await sizedSite();
    const { fetch } = polite();
    const { maxCount } = MEMORY_CACHE_LIMITS;
    const url = (i: number): string => `${s.origin}/bytes/1?n=${i}`;
    // One at a time: the store keeps responses in the order they ended.
    for (let i = 0; i < maxCount; i += 1) await (await fetch(url(i))).arrayBuffer();
    // At the limit: the oldest and the newest are still served from the store.
    await (await fetch(url(0))).arrayBuffer();
    await (await fetch(url(maxCount - 1))).arrayBuffer();
    expect(s.hits('/bytes/1?n=0')).toHaveLength(1);
    expect(s.hits(`/bytes/1?n=${maxCount - 1}`)).toHaveLength(1);
    // Just past it: the least recently used go (n=1 first; n=0 was just read), the rest stay.
    await (await fetch(url(maxCount))).arrayBuffer();
    for (const i of [1, 0, maxCount - 1, maxCount]) await (await fetch(url(i))).arrayBuffer();
    expect(s.hits('/bytes/1?n=1')).toHaveLength(2);
    expect(s.hits('/bytes/1?n=0')).toHaveLength(1);
    expect(s.hits(`/bytes/1?n=${maxCount - 1}`)).toHaveLength(1);
    expect(s.hits(`/bytes/1?n=${maxCount}`)).toHaveLength(1);
  }, 60_000);

  it('maxSize: 64 MiB of bodies are all kept; a response past them evicts the least recently used', async () => {
    const s = await sizedSite();
    const { fetch } = polite();
    const { maxSize, maxEntrySize } = MEMORY_CACHE_LIMITS;
    const fits = maxSize / maxEntrySize; // 16 responses of the largest size fill the store
    const url = (i: number): string => `${s.origin}/bytes/${maxEntrySize}?n=${i}`;
    for (let i = 0; i < fits; i += 1) await (await fetch(url(i))).arrayBuffer();
    await (await fetch(url(0))).arrayBuffer();
    expect(s.hits(`/bytes/${maxEntrySize}?n=0`)).toHaveLength(1);
    // One more byte than the store holds: the least recently used go (n=1; n=0 was just read).
    await (await fetch(`${s.origin}/bytes/1?n=past`)).arrayBuffer();
    for (const i of [1, 0]) await (await fetch(url(i))).arrayBuffer();
    await (await fetch(`${s.origin}/bytes/1?n=past`)).arrayBuffer();
    expect(s.hits(`/bytes/${maxEntrySize}?n=1`)).toHaveLength(2);
    expect(s.hits(`/bytes/${maxEntrySize}?n=0`)).toHaveLength(1);
    expect(s.hits('/bytes/1?n=past')).toHaveLength(1);
  }, 60_000);
});
