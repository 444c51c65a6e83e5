import { flatten } from './detached-string.js';

/**
 * A read-only table of non-negative integers, stored as compactly as V8 allows: a string of
 * 16-bit code units when every value fits (a string costs 16 bytes plus 2 per value; a
 * typed array costs well over 100 bytes before its first value), else a Uint32Array.
 * Parsed robots.txt objects are kept by the thousand, so the fixed cost matters.
 */
export type NumberTable = string | Uint32Array;

const CHUNK = 4096;

/** Builds a table from `values` (all integers in 0 … 2^32 − 1). */
export function packTable(values: readonly number[]): NumberTable {
  let max = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > max) max = values[i]!;
  if (max >= 0x10000) return Uint32Array.from(values);
  if (values.length <= CHUNK) return String.fromCharCode.apply(null, values as number[]);
  let out = '';
  for (let i = 0; i < values.length; i += CHUNK) {
    out += String.fromCharCode.apply(null, values.slice(i, i + CHUNK));
  }
  return flatten(out); // one flat string: charCodeAt on a tree of pieces is slower
}

/** The value at `i`. */
export function tableAt(table: NumberTable, i: number): number {
  return typeof table === 'string' ? table.charCodeAt(i) : table[i]!;
}
