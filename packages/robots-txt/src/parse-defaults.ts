/**
 * Every limit of the parser, in one frozen object. The code and the README both read
 * their defaults from here.
 *
 * - `maxBytes`: bytes of the body that are parsed (RFC 9309 §2.5 asks for at least
 *   500 KiB). Larger bodies are cut at the last line break before the limit, and the
 *   rest is ignored and reported as `input-truncated`.
 * - `minMaxBytes`: the floor for `maxBytes`; smaller values are raised to it.
 * - `longLineBytes`: lines longer than this many bytes are parsed in full but reported as
 *   `line-too-long`, because Google's parser cuts them there (its 16,664-byte line buffer
 *   holds 16,663 bytes), so the file means something else to Googlebot.
 * - `maxDiagnostics`: diagnostics kept per file; one more (`too-many-diagnostics`) says
 *   that the rest were dropped. Keeps hostile files from growing the parsed object.
 * - `maxCachedAgents`: compiled per-agent rule sets kept inside one parsed object; the
 *   oldest is dropped when a new agent would exceed it.
 * - `matchBudget`: path characters one query may spend testing wildcard rules (each one
 *   tested is charged the path's length). A wildcard rule reached after that is not tested:
 *   a `Disallow` (or a usage rule) counts as matching, an `Allow` as not matching, so the
 *   answer fails closed (`reason: 'match-budget'`). See `rule-matcher.ts`.
 * - `maxFieldBytes`: characters of a `Content-Usage` field value (its lines joined) that
 *   `parseContentUsage` parses; a longer value is not parsed (every preference `unknown`).
 * - `minFieldBytes`: the floor for `maxFieldBytes` (attach asks for at least 8 KiB).
 * @example
 * import { PARSE_DEFAULTS, parseRobotsTxt } from '@polite-crawler/robots-txt';
 * parseRobotsTxt(body, { maxBytes: PARSE_DEFAULTS.maxBytes * 2 });
 */
export const PARSE_DEFAULTS = Object.freeze({
  maxBytes: 512_000,
  minMaxBytes: 512_000,
  longLineBytes: 16_663,
  maxDiagnostics: 1_000,
  maxCachedAgents: 16,
  matchBudget: 131_072,
  maxFieldBytes: 16_384,
  minFieldBytes: 8_192,
} as const);
