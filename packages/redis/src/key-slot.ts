/**
 * Redis Cluster's key → hash slot mapping (the cluster specification's HASH_SLOT: CRC16/XMODEM
 * of the key's hash tag, or of the whole key when it has none, modulo 16384), and a tag for each
 * slot. The fleet needs both to keep every script inside one slot: lease batches are split by
 * slot, and each slot has a key-loss marker of its own whose tag hashes to that slot
 * (`FleetKeys.marker`). Checked against Redis's own `CLUSTER KEYSLOT` in the cluster tests.
 */

export const SLOT_COUNT = 16_384;

/** CRC16/XMODEM (polynomial 0x1021, initial value 0), table-driven. */
const CRC_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte += 1) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
    table[byte] = crc & 0xffff;
  }
  return table;
})();

const encoder = new TextEncoder();

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >> 8) ^ byte) & 0xff]!;
  return crc;
}

/**
 * The hash slot of `key`: only the part between the first `{` and the next `}` counts when
 * that part is not empty (the hash tag), as Redis Cluster computes it (on the key's UTF-8 bytes).
 * @example
 * keySlot('polite:{https://example.com}:pace') === keySlot('https://example.com'); // true
 */
export function keySlot(key: string): number {
  const bytes = encoder.encode(key);
  const open = bytes.indexOf(0x7b);
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1);
    if (close > open + 1) return crc16(bytes.subarray(open + 1, close)) % SLOT_COUNT;
  }
  return crc16(bytes) % SLOT_COUNT;
}

let tags: string[] | undefined;

/**
 * A short tag whose slot is `slot` (`keySlot(tag) === slot`): the first of `0`, `1`, … (base 36)
 * to land there. The table is built once, on first use (about 170,000 CRCs).
 */
export function slotTag(slot: number): string {
  if (tags === undefined) {
    const found: string[] = new Array<string>(SLOT_COUNT);
    let missing = SLOT_COUNT;
    for (let i = 0; missing > 0; i += 1) {
      const tag = i.toString(36);
      // The tag is ASCII: one byte a character, no encoder needed.
      let crc = 0;
      for (let c = 0; c < tag.length; c += 1)
        crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >> 8) ^ tag.charCodeAt(c)) & 0xff]!;
      const at = crc % SLOT_COUNT;
      if (found[at] === undefined) {
        found[at] = tag;
        missing -= 1;
      }
    }
    tags = found;
  }
  return tags[slot]!;
}
