/** Where the rules of a parsed file live (see `ScanResult`), for the matchers. */
export interface RuleTable {
  /** The file's flat text: rule r's pattern is `text[ruleStart[r], ruleStart[r + 1])`. */
  readonly text: string;
  readonly table: Uint32Array;
  /** Index in `table` of `ruleStart[0]`. */
  readonly ruleStartAt: number;
  /** Index in `table` of `ruleInfo[0]` (`line * 2 + allow`). */
  readonly ruleInfoAt: number;
  /** The patterns in `text` are normalised already (else: as written, pure ASCII). */
  readonly normalized: boolean;
}

/** Rule index ranges `[from, to)` of the selected groups, in file order. */
export type RuleRanges = readonly (readonly [number, number])[];
