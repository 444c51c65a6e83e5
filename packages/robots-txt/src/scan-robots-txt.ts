import type { DecodedBody } from './decode-body.js';
import {
  classifyKey,
  KEY_FOUND,
  KEY_NEXT,
  KEY_ALLOW,
  KEY_CONTENT_SIGNAL,
  KEY_CONTENT_USAGE,
  KEY_CRAWL_DELAY,
  KEY_DISALLOW,
  KEY_HOST,
  KEY_NAMES,
  KEY_OTHER_KNOWN,
  KEY_SITEMAP,
  KEY_TYPO,
  KEY_UNKNOWN,
  KEY_USER_AGENT,
  KEY_USER_AGENT_PURPOSE,
} from './directive-keys.js';
import { logDiagnostic } from './diagnostics.js';
import { normalizeRange } from './percent-encoding.js';
import { utf8Length } from './utf8-length.js';
import { PRODUCT_CHARS, PURPOSE_CHARS } from './product-token.js';
import type { DiagnosticCode } from './types.js';
import { copyText } from './copied-text.js';
import { usagePathLength } from './content-usage-rules.js';
import type { LineReport } from './line-report.js';

/** Kind character of an agent entry in {@link ScanResult.text}. */
export const ENTRY_PRODUCT = 'u';
export const ENTRY_PURPOSE = 'p';

/** Kind of a rule in {@link ScanResult.table} (`ruleInfo & 3`). */
export const RULE_DISALLOW = 0;
export const RULE_ALLOW = 1;
export const RULE_CONTENT_USAGE = 2;
export const RULE_CONTENT_SIGNAL = 3;

/** Told how each line was read; passed only by the line report. */
export type LineObserver = (line: LineReport) => void;

export interface ScanLimits {
  readonly maxBytes: number;
  readonly longLineBytes: number;
  readonly maxDiagnostics: number;
}

/**
 * The parsed file, compact: one string and one number table hold all rules and groups.
 *
 * `text` = `'\n'` + one entry per user-agent / user-agent-purpose line (kind character,
 * token as written, `'\n'`), followed by every rule's pattern, back to back. All of it is
 * ASCII: a pure-ASCII file's patterns are stored as written, any other file's normalised (the
 * form as written in `rawPatterns` when it differs); `normalizePattern` gives the matcher's
 * form of either, as it leaves a normal pattern as it is. A pattern with non-ASCII text stored
 * as written would make a file's whole text two bytes a character (the corpus benchmark's
 * retained heap rose from 0.82 to 0.84 bytes per corpus byte when every file kept its
 * patterns as written), and normalising every ASCII file's patterns while parsing costs parse
 * time for the rules of files never asked about.
 *
 * `table`, with R rules, E entries, G groups:
 * - `[0..3)`: R, E, G.
 * - `ruleStart` [R + 1] at 3: offset of each pattern in `text`; the last is the end.
 * - `ruleInfo` [R] at R + 4: `line * 4 + kind` (a `RULE_*` number). `Content-Usage` /
 *   `Content-Signal` rules are rules of their group like Allow/Disallow; their pattern is the
 *   value's path (empty when it has none), their value is in `usageValues`.
 * - `entryStart` [E] at 2R + 4: offset of each entry's kind character in `text`.
 * - `entryLine` [E] at 2R + E + 4: line number of each entry.
 * - `groupEntryStart` [G + 1] at 2R + 2E + 4, then `groupRuleStart` [G + 1]: each
 *   group's first entry and first rule.
 */
export interface ScanResult {
  readonly text: string;
  readonly table: Uint32Array;
  /** What few files have, in an object of its own (`undefined` when none) to keep the parsed object small. */
  readonly extras: ScanExtras | undefined;
}

/** The rare parts of a {@link ScanResult}. */
export interface ScanExtras {
  /** Triples: group, entries before the crawl-delay line (exclusive end, file-wide), seconds. */
  readonly delays: number[] | undefined;
  /** Sitemap URLs, each followed by `'\n'`. */
  readonly sitemapText: string | undefined;
  /**
   * What a linter would say, in the order found, one line each: `line<TAB>code<TAB>detail`,
   * the code by its number in `DIAGNOSTIC_CODES` (see `materializeDiagnostics`);
   * `undefined` when nothing. One short string per file:
   * an object per diagnostic would cost the corpus about 0.08 bytes of heap per byte.
   */
  readonly diagnosticLog: string | undefined;
  /** Patterns as written, for the rules whose normalised form differs. */
  readonly rawPatterns: Map<number, string> | undefined;
  /**
   * The value as written (path and statement) of each `Content-Usage` / `Content-Signal` rule,
   * by rule index, in file order.
   */
  readonly usageValues: Map<number, string> | undefined;
}

/** The section offsets of a table built by the scanner (see {@link ScanResult.table}). */
export function tableLayout(rules: number, entries: number, groups: number) {
  const ruleStartAt = 3;
  const ruleInfoAt = ruleStartAt + rules + 1;
  const entryStartAt = ruleInfoAt + rules;
  const entryLineAt = entryStartAt + entries;
  const groupEntryAt = entryLineAt + entries;
  const groupRuleAt = groupEntryAt + groups + 1;
  return {
    rules,
    entries,
    groups,
    ruleStartAt,
    ruleInfoAt,
    entryStartAt,
    entryLineAt,
    groupEntryAt,
    groupRuleAt,
  };
}

export type TableLayout = ReturnType<typeof tableLayout>;

function isWhitespace(c: number): boolean {
  return c === 32 || c === 9 || c === 11 || c === 12;
}

const SITEMAP_URL = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#]/;
const CRAWL_DELAY = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Reads every line of `decoded.text` into a {@link ScanResult}. Never throws on content. */
export function scanRobotsTxt(
  decoded: DecodedBody,
  limits: ScanLimits,
  observe?: LineObserver,
): ScanResult {
  return new Scanner(decoded, limits).run(observe);
}

/**
 * The scanner's state. The per-line loop lives in {@link Scanner.run}; everything rare
 * (diagnostics, sitemaps, crawl-delay, normalisation) is in methods of its own so that the
 * hot loop stays small and its optimised code stays stable.
 */
class Scanner {
  readonly text: string;
  readonly latin1: boolean;
  /** Store patterns as written (pure-ASCII file): see ScanResult. */
  readonly raw: boolean;
  readonly limits: ScanLimits;
  readonly invalidAt: number;
  readonly truncated: boolean;
  // What the parse keeps is gathered with `+=` (pieces of `text` among it) and copied once,
  // in finish: see copied-text.ts.
  /** `'\n'` + the entries: kind character, token as written, `'\n'`. */
  entryText = '\n';
  /** The patterns, normalised unless `raw`, back to back. */
  patternText = '';
  /** The next ':' at or after the last line searched (the text's length when none). */
  nextColon = -1;
  ruleCount = 0;
  entryCount = 0;
  groupCount = 0;
  rawPatterns: Map<number, string> | undefined = undefined;
  delays: number[] | undefined = undefined;
  /** The sitemap URLs, each followed by `'\n'`. */
  sitemapText: string | undefined = undefined;
  /** See ScanResult.diagnosticLog. */
  diagnosticLog: string | undefined = undefined;
  diagnosticCount = 0;
  groupOpen = false;
  inRules = false;
  usageValues: Map<number, string> | undefined = undefined;

  constructor(decoded: DecodedBody, limits: ScanLimits) {
    this.text = decoded.text;
    this.latin1 = decoded.latin1;
    this.raw = decoded.ascii;
    this.limits = limits;
    this.invalidAt = decoded.invalidUtf8At;
    this.truncated = decoded.truncated;
    if (decoded.bomBytes > 0) this.report(1, 'byte-order-mark', String(decoded.bomBytes));
  }

  report(line: number, code: DiagnosticCode, detail?: string): void {
    const max = this.limits.maxDiagnostics;
    this.diagnosticLog = logDiagnostic(
      this.diagnosticLog,
      this.diagnosticCount++,
      max,
      line,
      code,
      detail,
    );
  }

  run(observe: LineObserver | undefined): ScanResult {
    const text = this.text;
    const n = text.length;
    const longLineChars = this.latin1
      ? this.limits.longLineBytes
      : Math.floor(this.limits.longLineBytes / 3);
    const invalidAt = this.invalidAt;
    let pos = 0;
    let line = 1;
    // Line breaks and '#' are found with indexOf (native, far faster than a char loop) and
    // remembered until passed, so each is searched for once per occurrence.
    let nextLF = -1;
    let nextCR = text.indexOf('\r') < 0 ? n : -1;
    let nextHash = -1;

    for (;;) {
      if (nextLF < pos) {
        nextLF = text.indexOf('\n', pos);
        if (nextLF < 0) nextLF = n;
      }
      if (nextCR < pos) {
        nextCR = text.indexOf('\r', pos);
        if (nextCR < 0) nextCR = n;
      }
      const eol = nextLF < nextCR ? nextLF : nextCR;
      if (nextHash < pos) {
        nextHash = text.indexOf('#', pos);
        if (nextHash < 0) nextHash = n;
      }
      const hasComment = nextHash < eol;
      const contentEnd = hasComment ? nextHash : eol;

      let ks = pos;
      while (ks < contentEnd && isWhitespace(text.charCodeAt(ks))) ks++;
      let ce = contentEnd;
      while (ce > ks && isWhitespace(text.charCodeAt(ce - 1))) ce--;

      let isLineTooLong = false;
      if (eol - pos > longLineChars) isLineTooLong = this.longLine(line, pos, eol);
      if (invalidAt >= pos && invalidAt <= eol) this.report(line, 'invalid-utf8');

      let key = -1;
      let keyEnd = ks;
      let vs = ce;
      let typo = false;
      let missingColon = false;
      if (ks < ce) {
        // The key through the automaton of its spellings (classifyKey's, unrolled here): on
        // nearly every line a known key in a standard spelling, then ':' at once. Anything
        // else (a typo, space before the ':', no ':', an unknown key) goes to splitLine.
        // (Read within the line only: one read past the text's end makes the optimised loop slow.)
        let state = 0;
        let next = 0;
        let c = 0;
        while (
          keyEnd < ce &&
          (c = text.charCodeAt(keyEnd)) < 128 &&
          (next = KEY_NEXT[state * 128 + c]!) >= 0
        ) {
          state = next;
          keyEnd++;
        }
        const found = KEY_FOUND[state]!;
        key = c === 58 && found < KEY_TYPO ? found : KEY_UNKNOWN;
        if (key !== KEY_UNKNOWN) {
          vs = keyEnd + 1;
          while (vs < ce && isWhitespace(text.charCodeAt(vs))) vs++;
          this.directive(line, key, ks, keyEnd, vs, ce);
        } else if ((key = this.splitLine(line, ks, ce)) >= 0) {
          keyEnd = this.keyEnd;
          vs = this.valueStart;
          missingColon = this.missingColon;
          typo = this.typo;
          this.directive(line, key, ks, keyEnd, vs, ce);
        }
      }
      if (observe !== undefined) {
        observe({
          line,
          text: text.slice(pos, eol),
          key: key >= 0 ? KEY_NAMES[key] : undefined,
          keyText: key >= 0 ? text.slice(ks, keyEnd) : undefined,
          value: key >= 0 ? text.slice(vs, ce) : undefined,
          isEmpty: ks === ce && !hasComment,
          hasComment,
          isComment: hasComment && ks === ce,
          hasDirective: key >= 0,
          isAcceptableTypo: typo,
          isLineTooLong,
          isMissingColonSeparator: missingColon,
        });
      }

      if (eol >= n) break;
      pos = eol + 1;
      if (text.charCodeAt(eol) === 13 && pos < n && text.charCodeAt(pos) === 10) pos++;
      line++;
    }
    return this.finish(line);
  }

  // Outputs of splitLine besides the key.
  keyEnd = 0;
  valueStart = 0;
  missingColon = false;
  typo = false;

  /**
   * The key of a line that is not a standard spelling and ':' (see run): up to the line's first
   * ':' (or, without a colon, the first of exactly two words), classified as run classifies.
   * Returns the key number, or -1 for a line that is not a directive (reported).
   */
  splitLine(line: number, ks: number, ce: number): number {
    const text = this.text;
    this.missingColon = false;
    this.typo = false;
    // Searched on from where the last search stopped: lines without a colon would each send a
    // fresh search to the end of the text (quadratic in their number).
    if (this.nextColon < ks) {
      this.nextColon = text.indexOf(':', ks);
      if (this.nextColon < 0) this.nextColon = text.length;
    }
    const colon = this.nextColon < ce ? this.nextColon : -1;
    let keyEnd: number;
    let vs: number;
    if (colon >= 0) {
      keyEnd = colon;
      while (keyEnd > ks && isWhitespace(text.charCodeAt(keyEnd - 1))) keyEnd--;
      if (keyEnd === ks) {
        this.report(line, 'unparseable-line');
        return -1;
      }
      vs = colon + 1;
    } else {
      // No colon: accepted only when the line is exactly two words (as Google does).
      keyEnd = twoWordsKeyEnd(text, ks, ce);
      if (keyEnd === ks) {
        this.report(line, 'unparseable-line');
        return -1;
      }
      vs = keyEnd;
      this.missingColon = true;
    }
    while (vs < ce && isWhitespace(text.charCodeAt(vs))) vs++;
    this.keyEnd = keyEnd;
    this.valueStart = vs;
    const classified = classifyKey(text, ks, keyEnd);
    const key = classified & ~KEY_TYPO;
    this.typo = classified !== key;
    if (this.typo || this.missingColon) {
      const keyText = text.slice(ks, keyEnd);
      if (this.typo) this.report(line, 'accepted-typo', `${keyText} → ${KEY_NAMES[key]!}`);
      if (this.missingColon) this.report(line, 'missing-colon', keyText);
    }
    return key;
  }

  /** Reports a line longer than `longLineBytes`; returns whether it is. */
  longLine(line: number, start: number, end: number): boolean {
    const bytes = this.latin1 ? end - start : utf8Length(this.text, start, end);
    if (bytes <= this.limits.longLineBytes) return false;
    this.report(line, 'line-too-long', String(bytes));
    return true;
  }

  /**
   * A rule of the group: Allow/Disallow, or a `Content-Usage` / `Content-Signal` rule, recorded
   * with its path as pattern and its value as written (read when preferences are first asked
   * for). A user-agent line after any rule starts a new group.
   */
  rule(line: number, ks: number, ke: number, vs: number, ve: number, kind: number): void {
    if (!this.groupOpen) {
      this.report(line, 'rule-outside-group', this.text.slice(ks, ke));
      return;
    }
    this.inRules = true;
    const text = this.text;
    if (kind >= RULE_CONTENT_USAGE) {
      const value = copyText(text, vs, ve);
      this.pattern(line, kind, vs, vs + usagePathLength(value));
      (this.usageValues ??= new Map()).set(this.ruleCount - 1, value);
      return;
    }
    if (vs === ve) return; // an empty pattern matches nothing (RFC 9309 §2.2.2)
    const first = text.charCodeAt(vs);
    if (first !== 47 && first !== 42)
      this.report(line, 'pattern-not-starting-with-slash', text.slice(vs, ve));
    this.pattern(line, kind, vs, ve);
  }

  /**
   * Records rule `kind` at `line` with the pattern `text[vs, ve)`: as written in a pure-ASCII
   * file, else normalised (see ScanResult), the form as written kept aside when it differs.
   */
  pattern(line: number, kind: number, vs: number, ve: number): void {
    const r = this.ruleCount++;
    work.ruleStart[r] = this.patternText.length;
    work.ruleInfo[r] = line * 4 + kind;
    const written = this.text.slice(vs, ve);
    if (this.raw) {
      this.patternText += written;
      return;
    }
    const normalized = normalizeRange(this.text, vs, ve, false, this.latin1);
    this.patternText += normalized;
    if (written !== normalized) (this.rawPatterns ??= new Map()).set(r, copyText(written));
  }

  agent(line: number, ks: number, ke: number, vs: number, ve: number, product: boolean): void {
    if (!this.groupOpen || this.inRules) {
      const g = this.groupCount++;
      work.groupEntryStart[g] = this.entryCount;
      work.groupRuleStart[g] = this.ruleCount;
      this.groupOpen = true;
      this.inRules = false;
    }
    const text = this.text;
    const e = this.entryCount++;
    work.entryStart[e] = this.entryText.length;
    work.entryLine[e] = line;
    let token: string;
    if (vs === ve) {
      this.report(line, 'empty-value', text.slice(ks, ke));
      token = '';
    } else if (
      product &&
      text.charCodeAt(vs) === 42 &&
      (ve - vs === 1 || isWhitespace(text.charCodeAt(vs + 1)))
    ) {
      // '*', alone or followed by whitespace and more (as Google reads it), is the global
      // group; '*bot*' is not: it names no crawler (below), as with Google.
      token = '*';
      if (ve - vs > 1) this.report(line, 'invalid-product-token', '*');
    } else {
      // Product tokens: A-Z a-z _ -; purpose tokens also 0-9.
      const table = product ? PRODUCT_CHARS : PURPOSE_CHARS;
      let i = vs;
      for (; i < ve; i++) {
        const c = text.charCodeAt(i);
        if (c >= 128 || table[c] === 0) break;
      }
      // Kept as written (for a verdict's `groupLineTexts`); matched case-insensitively.
      token = text.slice(vs, i);
      if (i < ve)
        this.report(line, product ? 'invalid-product-token' : 'invalid-purpose-token', token);
    }
    this.entryText += (product ? ENTRY_PRODUCT : ENTRY_PURPOSE) + token + '\n';
  }

  /**
   * The one dispatch on the key of a directive line: `text[ks, ke)` is the key, `text[vs, ve)`
   * the value. A new key is a `KEY_*` number and its spellings in directive-keys.ts, plus a
   * case here. Only user-agent lines start a group; no other line ends one.
   */
  directive(line: number, key: number, ks: number, ke: number, vs: number, ve: number): void {
    switch (key) {
      case KEY_ALLOW:
        this.rule(line, ks, ke, vs, ve, RULE_ALLOW);
        return;
      case KEY_DISALLOW:
        this.rule(line, ks, ke, vs, ve, RULE_DISALLOW);
        return;
      case KEY_CONTENT_USAGE:
        this.rule(line, ks, ke, vs, ve, RULE_CONTENT_USAGE);
        return;
      case KEY_CONTENT_SIGNAL:
        this.rule(line, ks, ke, vs, ve, RULE_CONTENT_SIGNAL);
        return;
      case KEY_USER_AGENT:
      case KEY_USER_AGENT_PURPOSE:
        this.agent(line, ks, ke, vs, ve, key === KEY_USER_AGENT);
        return;
      case KEY_SITEMAP:
        this.sitemap(line, ks, ke, vs, ve);
        return;
      case KEY_CRAWL_DELAY:
        this.crawlDelay(line, ks, ke, vs, ve);
        return;
      case KEY_HOST:
      case KEY_OTHER_KNOWN:
        // Known and ignored: say so, with the reason (diagnostics.ts).
        this.report(line, 'ignored-key', this.text.slice(ks, ke).toLowerCase());
        return;
      default:
        this.report(line, 'unknown-key', this.text.slice(ks, ke));
    }
  }

  sitemap(line: number, ks: number, ke: number, vs: number, ve: number): void {
    const text = this.text;
    if (vs === ve) {
      this.report(line, 'empty-value', text.slice(ks, ke));
      return;
    }
    const value = text.slice(vs, ve);
    if (SITEMAP_URL.test(value)) this.sitemapText = (this.sitemapText ?? '') + value + '\n';
    else this.report(line, 'invalid-sitemap-url', value);
  }

  crawlDelay(line: number, ks: number, ke: number, vs: number, ve: number): void {
    const text = this.text;
    if (vs === ve) {
      this.report(line, 'empty-value', text.slice(ks, ke));
      return;
    }
    const value = text.slice(vs, ve);
    if (!this.groupOpen) this.report(line, 'rule-outside-group', text.slice(ks, ke));
    else if (!CRAWL_DELAY.test(value)) this.report(line, 'invalid-crawl-delay', value);
    else (this.delays ??= []).push(this.groupCount - 1, this.entryCount, Number(value));
  }

  /** Packs the output: one flat ASCII string (entries, then patterns) and one number table. */
  finish(line: number): ScanResult {
    if (this.truncated) this.report(line, 'input-truncated', String(this.limits.maxBytes));
    const { ruleStart, ruleInfo, entryStart, entryLine, groupEntryStart, groupRuleStart } = work;
    const R = this.ruleCount;
    const E = this.entryCount;
    const G = this.groupCount;
    const patternsOffset = this.entryText.length;
    const table = new Uint32Array(2 * (R + E + G) + 6);
    table[0] = R;
    table[1] = E;
    table[2] = G;
    let at = 3;
    for (let i = 0; i < R; i++) table[at++] = ruleStart[i]! + patternsOffset;
    table[at++] = patternsOffset + this.patternText.length;
    for (let i = 0; i < R; i++) table[at++] = ruleInfo[i]!;
    for (let i = 0; i < E; i++) table[at++] = entryStart[i]!;
    for (let i = 0; i < E; i++) table[at++] = entryLine[i]!;
    for (let i = 0; i < G; i++) table[at++] = groupEntryStart[i]!;
    table[at++] = E;
    for (let i = 0; i < G; i++) table[at++] = groupRuleStart[i]!;
    table[at] = R;
    if (R > KEEP_ARRAYS || E > KEEP_ARRAYS) work = new WorkArrays();

    // The pieces gathered may share the body's memory: copy them (copied-text.ts), all
    // three in one call, since a call costs more than its bytes. Slices of the copy share
    // at most the copy, all of which the parsed file keeps.
    const text = this.entryText + this.patternText;
    const sitemaps = this.sitemapText ?? '';
    const log = this.diagnosticLog ?? '';
    const copy = copyText(text + sitemaps + log);
    const sitemapsEnd = text.length + sitemaps.length;
    const sitemapText = sitemaps === '' ? undefined : copy.slice(text.length, sitemapsEnd);
    const diagnosticLog = log === '' ? undefined : copy.slice(sitemapsEnd);
    const { rawPatterns, delays, usageValues } = this;
    const any = rawPatterns ?? delays ?? sitemapText ?? diagnosticLog ?? usageValues;
    return {
      text: copy.length === text.length ? copy : copy.slice(0, text.length),
      table,
      extras:
        any === undefined
          ? undefined
          : { rawPatterns, delays, sitemapText, diagnosticLog, usageValues },
    };
  }
}

/** For a line without a colon: the end of the key when the line is exactly two words, else `ks`. */
function twoWordsKeyEnd(text: string, ks: number, ce: number): number {
  let ws = ks;
  while (ws < ce && !isWhitespace(text.charCodeAt(ws))) ws++;
  if (ws === ce) return ks;
  let vs = ws;
  while (vs < ce && isWhitespace(text.charCodeAt(vs))) vs++;
  let k = vs;
  while (k < ce && !isWhitespace(text.charCodeAt(k))) k++;
  return k === ce ? ws : ks;
}

/**
 * The scanner's arrays, reused by every parse (parsing is synchronous, and nothing a scanner
 * calls parses): only the first ruleCount / entryCount / groupCount items belong to the parse
 * under way. Fresh arrays per parse cost the corpus parse about a sixth more instructions
 * (their garbage collected). Dropped after a parse that made them longer than KEEP_ARRAYS.
 */
class WorkArrays {
  readonly entryStart: number[] = [];
  readonly entryLine: number[] = [];
  readonly ruleStart: number[] = [];
  readonly ruleInfo: number[] = [];
  readonly groupEntryStart: number[] = [];
  readonly groupRuleStart: number[] = [];
}
let work = new WorkArrays();
const KEEP_ARRAYS = 4096;
