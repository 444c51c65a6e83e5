import type { DecodedBody } from './decode-body.js';
import {
  classifyKey,
  KEY_ALLOW,
  KEY_CRAWL_DELAY,
  KEY_DISALLOW,
  KEY_NAMES,
  KEY_SITEMAP,
  KEY_TYPO,
  KEY_UNKNOWN,
  KEY_USER_AGENT,
  KEY_USER_AGENT_PURPOSE,
} from './directive-keys.js';
import type { DiagnosticCode } from './types.js';
import { DIAGNOSTIC_CODES } from './diagnostics.js';
import { needsNormalizing, normalizeRange } from './percent-encoding.js';
import { isProductTokenChar, isPurposeTokenChar } from './product-token.js';

/** Kind character of an agent entry in {@link ScanResult.text}. */
export const ENTRY_PRODUCT = 'u';
export const ENTRY_PURPOSE = 'p';

/** What the scanner saw on one line; produced only when a line observer is passed. */
export interface ScannedLine {
  /** 1-based line number. */
  readonly line: number;
  /** `KEY_*` number of the directive, or -1 when the line carries no directive. */
  readonly key: number;
  /** The key as written (trimmed), when the line has one. */
  readonly keyText: string | undefined;
  readonly value: string | undefined;
  readonly isEmpty: boolean;
  readonly hasComment: boolean;
  readonly isComment: boolean;
  readonly hasDirective: boolean;
  readonly isAcceptableTypo: boolean;
  readonly isLineTooLong: boolean;
  readonly isMissingColonSeparator: boolean;
}

export type LineObserver = (line: ScannedLine) => void;

export interface ScanLimits {
  readonly maxBytes: number;
  readonly longLineBytes: number;
  readonly maxDiagnostics: number;
}

/**
 * The parsed file, compact: one string and one typed array hold all rules and groups.
 *
 * `text` = `'\n'` + one entry per user-agent / user-agent-purpose line (kind character,
 * lower-cased token, `'\n'`), followed by every rule's normalised pattern, back to back.
 *
 * `nums` sections, in order (R rules, E entries, G groups):
 * - `ruleStart` [R + 1]: offset of each pattern in `text`; the last is the end.
 * - `ruleInfo` [R]: `line * 2 + (allow ? 1 : 0)`.
 * - `entryStart` [E]: offset of each entry's kind character in `text`.
 * - `entryLine` [E]: line number of each entry.
 * - `groupEntryStart` [G + 1], `groupRuleStart` [G + 1]: each group's first entry and rule.
 */
export interface ScanResult {
  readonly text: string;
  readonly nums: Uint16Array | Uint32Array;
  readonly ruleCount: number;
  readonly entryCount: number;
  readonly groupCount: number;
  /** Patterns as written, for the rules whose normalised form differs. */
  readonly rawPatterns: Map<number, string> | undefined;
  /** Triples: group, entries of that group before the line (exclusive end), seconds. */
  readonly delays: number[] | undefined;
  readonly sitemaps: string[];
  /** Diagnostics: `line * 32 + code number`, each optionally followed by a detail string. */
  readonly diagnostics: (number | string)[] | undefined;
  readonly diagnosticCount: number;
}

const CODE_NUMBER = new Map(DIAGNOSTIC_CODES.map((code, i) => [code, i]));

const EMPTY_SITEMAPS: string[] = [];

/** Copies `s` so that it does not keep a larger parent string alive (V8 sliced strings). */
export function detach(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

function isWhitespace(c: number): boolean {
  return c === 32 || c === 9 || c === 11 || c === 12;
}

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
const CRAWL_DELAY = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** Reads every line of `decoded.text` into a {@link ScanResult}. Never throws on content. */
export function scanRobotsTxt(
  decoded: DecodedBody,
  limits: ScanLimits,
  observe?: LineObserver,
): ScanResult {
  const text = decoded.text;
  const latin1 = decoded.latin1;
  const n = text.length;
  const longLine = limits.longLineBytes;
  const longLineChars = latin1 ? longLine : Math.floor(longLine / 3);

  // Output under construction.
  const entryParts: string[] = ['\n'];
  let entryLength = 1;
  const entryStart: number[] = [];
  const entryLine: number[] = [];
  const patternParts: string[] = [];
  let patternLength = 0;
  const ruleStart: number[] = [];
  const ruleInfo: number[] = [];
  const groupEntryStart: number[] = [];
  const groupRuleStart: number[] = [];
  let rawPatterns: Map<number, string> | undefined;
  let delays: number[] | undefined;
  let sitemaps = EMPTY_SITEMAPS;
  let diagnostics: (number | string)[] | undefined;
  let diagnosticCount = 0;
  let diagnosticsFull = false;

  const report = (line: number, code: DiagnosticCode, detail?: string): void => {
    if (diagnosticsFull) return;
    diagnostics ??= [];
    if (diagnosticCount === limits.maxDiagnostics) {
      diagnosticsFull = true;
      code = 'too-many-diagnostics';
      detail = String(limits.maxDiagnostics);
    }
    diagnostics.push(line * 32 + CODE_NUMBER.get(code)!);
    if (detail !== undefined) {
      diagnostics.push(detach(detail.length > 60 ? detail.slice(0, 60) + '…' : detail));
    }
    diagnosticCount++;
  };

  if (decoded.bomBytes > 0) report(1, 'byte-order-mark', String(decoded.bomBytes));
  const invalidAt = decoded.invalidUtf8At;

  let groupOpen = false;
  let inRules = false;

  let pos = 0;
  let line = 1;
  let nextLF = -1;
  let nextCR = -1;
  let nextHash = -1;
  let nextColon = -1;

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

    let key = -1;
    const keyStart = ks;
    let keyEnd = ks;
    let vs = ce;
    let missingColon = false;
    let isLineTooLong = false;
    if (eol - pos > longLineChars && lineBytes(text, pos, eol, latin1) > longLine) {
      isLineTooLong = true;
      report(line, 'line-too-long', String(lineBytes(text, pos, eol, latin1)));
    }
    if (invalidAt >= pos && invalidAt <= eol) report(line, 'invalid-utf8');

    if (ks < ce) {
      if (nextColon < ks) {
        nextColon = text.indexOf(':', ks);
        if (nextColon < 0) nextColon = n;
      }
      if (nextColon < ce) {
        keyEnd = nextColon;
        while (keyEnd > ks && isWhitespace(text.charCodeAt(keyEnd - 1))) keyEnd--;
        vs = nextColon + 1;
        while (vs < ce && isWhitespace(text.charCodeAt(vs))) vs++;
        if (keyEnd > ks) key = KEY_UNKNOWN;
      } else {
        // No colon: accepted only when the line is exactly two words (Google does too).
        let ws = ks;
        while (ws < ce && !isWhitespace(text.charCodeAt(ws))) ws++;
        if (ws < ce) {
          vs = ws;
          while (vs < ce && isWhitespace(text.charCodeAt(vs))) vs++;
          let k = vs;
          while (k < ce && !isWhitespace(text.charCodeAt(k))) k++;
          if (k === ce) {
            keyEnd = ws;
            key = KEY_UNKNOWN;
            missingColon = true;
          }
        }
      }
      if (key < 0) report(line, 'unparseable-line');
    }

    let typo = false;
    if (key >= 0) {
      const classified = classifyKey(text, keyStart, keyEnd);
      typo = (classified & KEY_TYPO) !== 0;
      key = classified & ~KEY_TYPO;
      const keyText = typo || missingColon || key === KEY_UNKNOWN ? text.slice(keyStart, keyEnd) : '';
      if (typo) report(line, 'accepted-typo', `${keyText} → ${KEY_NAMES[key]!}`);
      if (missingColon) report(line, 'missing-colon', keyText);
      const ve = ce;
      switch (key) {
        case KEY_USER_AGENT:
        case KEY_USER_AGENT_PURPOSE: {
          if (!groupOpen || inRules) {
            groupEntryStart.push(entryStart.length);
            groupRuleStart.push(ruleStart.length);
            groupOpen = true;
            inRules = false;
          }
          const product = key === KEY_USER_AGENT;
          let token: string;
          if (vs === ve) {
            report(line, 'empty-value', text.slice(keyStart, keyEnd));
            token = '';
          } else if (product && text.charCodeAt(vs) === 42) {
            token = '*';
            if (ve - vs > 1) report(line, 'invalid-product-token', '*');
          } else {
            let cut = vs;
            while (
              cut < ve &&
              (product ? isProductTokenChar(text.charCodeAt(cut)) : isPurposeTokenChar(text.charCodeAt(cut)))
            ) {
              cut++;
            }
            token = text.slice(vs, cut);
            if (cut < ve) report(line, product ? 'invalid-product-token' : 'invalid-purpose-token', token);
            token = token.toLowerCase();
          }
          entryStart.push(entryLength);
          entryLine.push(line);
          const entry = (product ? ENTRY_PRODUCT : ENTRY_PURPOSE) + token + '\n';
          entryParts.push(entry);
          entryLength += entry.length;
          break;
        }
        case KEY_ALLOW:
        case KEY_DISALLOW: {
          if (!groupOpen) {
            report(line, 'rule-outside-group', text.slice(keyStart, keyEnd));
            break;
          }
          inRules = true;
          if (vs === ve) break; // an empty pattern matches nothing (RFC 9309 §2.2.2)
          const first = text.charCodeAt(vs);
          if (first !== 47 && first !== 42) {
            report(line, 'pattern-not-starting-with-slash', text.slice(vs, ve));
          }
          let pattern: string;
          if (latin1 || needsNormalizing(text, vs, ve, false)) {
            pattern = normalizeRange(text, vs, ve, false, latin1);
            const raw = text.slice(vs, ve);
            if (pattern !== raw) (rawPatterns ??= new Map()).set(ruleStart.length, detach(raw));
          } else {
            pattern = text.slice(vs, ve);
          }
          ruleStart.push(patternLength);
          ruleInfo.push(line * 2 + (key === KEY_ALLOW ? 1 : 0));
          patternParts.push(pattern);
          patternLength += pattern.length;
          break;
        }
        case KEY_CRAWL_DELAY: {
          if (vs === ve) {
            report(line, 'empty-value', text.slice(keyStart, keyEnd));
            break;
          }
          const value = text.slice(vs, ve);
          if (!groupOpen) {
            report(line, 'rule-outside-group', text.slice(keyStart, keyEnd));
            break;
          }
          if (!CRAWL_DELAY.test(value)) {
            report(line, 'invalid-crawl-delay', value);
            break;
          }
          (delays ??= []).push(groupEntryStart.length - 1, entryStart.length, Number(value));
          break;
        }
        case KEY_SITEMAP: {
          if (vs === ve) {
            report(line, 'empty-value', text.slice(keyStart, keyEnd));
            break;
          }
          const value = text.slice(vs, ve);
          if (SCHEME.test(value) && URL.canParse(value)) {
            if (sitemaps === EMPTY_SITEMAPS) sitemaps = [];
            sitemaps.push(detach(value));
          } else {
            report(line, 'invalid-sitemap-url', value);
          }
          break;
        }
        case KEY_UNKNOWN:
          report(line, 'unknown-key', keyText);
          break;
        default:
          break; // host and other known keys: accepted, not used
      }
      if (observe !== undefined) {
        observe({
          line,
          key,
          keyText: text.slice(keyStart, keyEnd),
          value: text.slice(vs, ve),
          isEmpty: false,
          hasComment,
          isComment: false,
          hasDirective: true,
          isAcceptableTypo: typo,
          isLineTooLong,
          isMissingColonSeparator: missingColon,
        });
      }
    } else if (observe !== undefined) {
      observe({
        line,
        key: -1,
        keyText: undefined,
        value: undefined,
        isEmpty: ks === ce && !hasComment,
        hasComment,
        isComment: hasComment && ks === ce,
        hasDirective: false,
        isAcceptableTypo: false,
        isLineTooLong,
        isMissingColonSeparator: false,
      });
    }

    if (eol >= n) break;
    pos = eol + 1;
    if (text.charCodeAt(eol) === 13 && pos < n && text.charCodeAt(pos) === 10) pos++;
    line++;
  }
  if (decoded.truncated) report(line, 'input-truncated', String(limits.maxBytes));

  // Pack. The entry and pattern parts are joined into one new string (the join copies, so
  // no slice of the source survives: the parts list always has at least two items).
  const ruleCount = ruleStart.length;
  const entryCount = entryStart.length;
  const groupCount = groupEntryStart.length;
  groupEntryStart.push(entryCount);
  groupRuleStart.push(ruleCount);
  const patternsOffset = entryLength;
  for (let i = 0; i < patternParts.length; i++) entryParts.push(patternParts[i]!);
  const joined = entryParts.join('');
  const textOut = entryParts.length === 1 ? '\n' : joined;
  const size = ruleCount * 2 + 1 + entryCount * 2 + (groupCount + 1) * 2;
  const maxValue = Math.max(patternsOffset + patternLength, line * 2 + 1);
  const nums = maxValue < 0x10000 ? new Uint16Array(size) : new Uint32Array(size);
  let at = 0;
  for (let i = 0; i < ruleCount; i++) nums[at++] = ruleStart[i]! + patternsOffset;
  nums[at++] = patternLength + patternsOffset;
  for (let i = 0; i < ruleCount; i++) nums[at++] = ruleInfo[i]!;
  for (let i = 0; i < entryCount; i++) nums[at++] = entryStart[i]!;
  for (let i = 0; i < entryCount; i++) nums[at++] = entryLine[i]!;
  for (let i = 0; i <= groupCount; i++) nums[at++] = groupEntryStart[i]!;
  for (let i = 0; i <= groupCount; i++) nums[at++] = groupRuleStart[i]!;

  return {
    text: textOut,
    nums,
    ruleCount,
    entryCount,
    groupCount,
    rawPatterns,
    delays,
    sitemaps,
    diagnostics,
    diagnosticCount,
  };
}

function lineBytes(text: string, start: number, end: number, latin1: boolean): number {
  if (latin1) return end - start;
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes++;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}
