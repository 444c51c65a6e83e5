/**
 * The key → slot mapping the fleet splits its batches by and tags its slot markers with (pure
 * logic; test/redis/cluster.test.ts checks it against a real cluster's CLUSTER KEYSLOT).
 */
import { describe, expect, it } from 'vitest';
import { SLOT_COUNT, keySlot, slotTag } from '../../packages/redis/src/key-slot.js';

describe('keySlot', () => {
  it("matches Redis's documented CLUSTER KEYSLOT examples", () => {
    expect(keySlot('somekey')).toBe(11_058);
    expect(keySlot('foo{hash_tag}')).toBe(2_515);
    // CRC16/XMODEM check value of "123456789" is 0x31C3.
    expect(keySlot('123456789')).toBe(0x31c3);
  });

  it('hashes the first non-empty hash tag only', () => {
    expect(keySlot('a{user1000}.following')).toBe(keySlot('user1000'));
    expect(keySlot('{user1000}{other}')).toBe(keySlot('user1000'));
    // An empty tag, or a brace never closed, means no tag: the whole key counts.
    expect(keySlot('foo{}{bar}')).not.toBe(keySlot('bar'));
    expect(keySlot('{}x')).not.toBe(keySlot('x'));
    expect(keySlot('foo{bar')).not.toBe(keySlot('bar'));
  });

  it('hashes UTF-8 bytes', () => {
    expect(keySlot('{ü}')).toBe(keySlot('ü'));
    expect(keySlot('ü')).not.toBe(keySlot('u'));
  });

  it('has a tag for every slot, at both ends of the range', () => {
    for (const slot of [0, 1, 5_000, SLOT_COUNT - 1]) expect(keySlot(slotTag(slot))).toBe(slot);
    expect(keySlot(`polite:{${slotTag(42)}}:fleet`)).toBe(42);
  });
});
