import { decodeBody } from './decode-body.js';
import { PARSE_DEFAULTS } from './parse-defaults.js';
import { ParsedRobotsTxt } from './parsed-robots-txt.js';
import { RobotsTxtUsageError } from './robots-txt-usage-error.js';
import { scanRobotsTxt, type LineObserver, type ScanLimits } from './scan-robots-txt.js';
import type { ParseOptions, RobotsTxt } from './types.js';

function invalidOption(option: string, value: unknown, why: string): RobotsTxtUsageError {
  return new RobotsTxtUsageError(
    `Invalid robots.txt parse option ${option}: ${String(value)} (${why})`,
    {
      reason: 'invalid-option',
      value,
      option,
    },
  );
}

function countOption(
  options: ParseOptions | undefined,
  name: 'maxBytes' | 'maxDiagnostics' | 'maxCachedAgents',
): number {
  const value = options?.[name];
  if (value === undefined) return PARSE_DEFAULTS[name];
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw invalidOption(name, value, 'expected a non-negative number');
  }
  return Math.floor(value);
}

/** @internal Validated limits. */
export interface ResolvedParseOptions extends ScanLimits {
  readonly maxCachedAgents: number;
}

/** @internal Validates `options` and fills in the defaults. */
export function resolveParseOptions(options: ParseOptions | undefined): ResolvedParseOptions {
  if (options === undefined) return PARSE_DEFAULTS;
  if (typeof options !== 'object' || options === null) {
    throw invalidOption('options', options, 'expected an object');
  }
  const maxBytes = Math.max(countOption(options, 'maxBytes'), PARSE_DEFAULTS.minMaxBytes);
  const maxDiagnostics = countOption(options, 'maxDiagnostics');
  const maxCachedAgents = Math.max(1, countOption(options, 'maxCachedAgents'));
  return { maxBytes, maxDiagnostics, maxCachedAgents, longLineBytes: PARSE_DEFAULTS.longLineBytes };
}

/** @internal Parses with an optional per-line observer (used by the line report). */
export function parseWith(
  body: string | Uint8Array,
  options: ParseOptions | undefined,
  observe?: LineObserver,
): ParsedRobotsTxt {
  const resolved = resolveParseOptions(options);
  const decoded = decodeBody(body, resolved.maxBytes);
  const scan = scanRobotsTxt(decoded, resolved, observe);
  return new ParsedRobotsTxt(scan, decoded.parsedBytes, decoded.truncated, resolved);
}

/**
 * Parses a robots.txt body (RFC 9309, plus the `user-agent-purpose` extension) into an
 * immutable object that answers "may this agent fetch this URL?" and explains why.
 *
 * Never throws on content: every line is read, problems become `diagnostics`. Bytes that
 * are not valid UTF-8 are still parsed (their non-ASCII octets are matched as raw
 * octets). Input past `maxBytes` is ignored and reported. Throws
 * {@link RobotsTxtUsageError} only for a body that is neither a string nor a Uint8Array,
 * or an invalid option.
 * @example
 * const robots = parseRobotsTxt('User-agent: *\nDisallow: /private/\n');
 * robots.isAllowed('https://example.com/private/x', 'ExampleBot'); // false
 * robots.explain('https://example.com/private/x', 'ExampleBot').rule?.line; // 2
 */
export function parseRobotsTxt(body: string | Uint8Array, options?: ParseOptions): RobotsTxt {
  return parseWith(body, options);
}
