import { createReadStream } from 'node:fs';
import type { CacheState, RobotsStatus, RobotsTxtReport } from '@polite-crawler/fetch';
import type { ParseOptions } from '@polite-crawler/robots-txt';
import {
  defaultDispatcher,
  fetchRobotsTxt,
  readCapped,
  systemClock,
} from '@polite-crawler/fetch/internal';
import { CliError } from './cli-error.js';
import { CLI_DEFAULTS } from './defaults.js';
import { looksLikeUrl, parseHttpUrl } from './http-url.js';
import { describeFailure, formatSeconds } from './network-error.js';

/**
 * Where a robots.txt came from and how it was obtained: the library's `RobotsTxtReport` (its
 * `status`, `redirects`, `truncated`), for a file or a `--robots` URL too. JSON-serialisable:
 * this is the `robotsTxt` object of every `--json` output (see the README).
 */
export interface RobotsTxtInfo extends Pick<RobotsTxtReport, 'status' | 'redirects' | 'truncated'> {
  /** `file`: read from disk; `url`: fetched by the CLI from `--robots <url>`; `policy`: fetched through the polite policy. */
  readonly source: 'file' | 'url' | 'policy';
  /** The file path, or the robots.txt URL. */
  readonly location: string;
  /** HTTP status, for `url` and `policy`. */
  readonly httpStatus: number | null;
  /** The policy's cache state, for `policy`. */
  readonly cache: CacheState | null;
  /** Bytes parsed (at most the byte limit): the report's `parsedBytes`. */
  readonly bytes: number;
  /** Why robots.txt could not be read, when `status` is not `ok`. */
  readonly failure: string | null;
}

/** A robots.txt read from a file or URL and parsed: `parsed` is what `parse` returned. */
export interface LoadedRobots<T> {
  readonly info: RobotsTxtInfo;
  readonly parsed: T;
}

/**
 * The CLI's {@link RobotsTxtInfo} for a robots.txt the policy obtained.
 *
 * @example
 * ```ts
 * robotsInfoFromReport((await policy.explain(url)).robotsTxt).cache; // 'miss'
 * ```
 */
export function robotsInfoFromReport(report: RobotsTxtReport): RobotsTxtInfo {
  return {
    source: 'policy',
    location: report.url,
    status: report.status,
    httpStatus: report.httpStatus ?? null,
    redirects: report.redirects,
    cache: report.cache,
    bytes: report.parsedBytes,
    truncated: report.truncated,
    failure: report.latest.failure === undefined ? null : describeFailure(report.latest.failure),
  };
}

/**
 * Why nothing could be requested from an origin whose robots.txt never answered (unreachable
 * without an HTTP status: `fetch` and `crawl` exit 4 with it), or undefined when it answered.
 *
 * @example
 * ```ts
 * neverAnswered(info); // 'robots.txt unreachable (connection refused); nothing was requested'
 * ```
 */
export function neverAnswered(info: RobotsTxtInfo): string | undefined {
  return info.status === 'unreachable' && info.httpStatus === null
    ? `robots.txt unreachable (${info.failure ?? 'no answer'}); nothing was requested`
    : undefined;
}

/**
 * The status of a robots.txt that could not be used, e.g. `HTTP 503` or `connection refused`.
 *
 * @example
 * ```ts
 * statusPhrase(info); // 'HTTP 503'
 * ```
 */
export function statusPhrase(info: RobotsTxtInfo): string {
  if (info.httpStatus !== null) return `HTTP ${info.httpStatus}`;
  return info.failure ?? info.status;
}

/**
 * Reads robots.txt from a file path or an http(s) URL (`--robots`, `lint`) and parses it with
 * `parse` (robots-txt's `parseRobotsTxt`, or `reportRobotsTxtLines` for `lint`). Reads at most
 * {@link CLI_DEFAULTS.maxRobotsBytes} + 1 bytes; refuses binary input; a URL must answer 2xx.
 * Every failure is a {@link CliError} (exit code 4, or 2 for a malformed URL).
 *
 * @example
 * ```ts
 * const { parsed, info } = await loadRobots('./robots.txt', { userAgent: 'polite-crawler-cli' }, parseRobotsTxt);
 * parsed.isAllowed('/private', 'ExampleBot');
 * ```
 */
export async function loadRobots<
  T extends { readonly parsedBytes: number; readonly truncated: boolean },
>(
  spec: string,
  options: { readonly userAgent: string; readonly timeoutMs?: number },
  parse: (body: Uint8Array, options: ParseOptions) => T,
): Promise<LoadedRobots<T>> {
  const maxBytes = CLI_DEFAULTS.maxRobotsBytes;
  let bytes: Uint8Array;
  let info: Omit<RobotsTxtInfo, 'bytes' | 'truncated'>;
  if (looksLikeUrl(spec)) {
    const url = parseHttpUrl(spec, 'robots.txt URL');
    const timeoutMs = options.timeoutMs ?? CLI_DEFAULTS.requestTimeoutMs;
    // The policy's own robots.txt client: same redirects, decompression, byte limit and timeouts.
    const outcome = await fetchRobotsTxt(url.href, {
      userAgent: options.userAgent,
      dispatcher: defaultDispatcher(),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      timeout: timeoutMs,
      maxBytes,
      maxRedirects: CLI_DEFAULTS.maxRedirects,
      treat429AsUnreachable: true,
      clock: systemClock,
    });
    const what = `cannot fetch robots.txt ${url.href}`;
    if (outcome.failure !== undefined) {
      const { kind, message } = outcome.failure;
      const why =
        kind === 'http-status' && outcome.httpStatus !== undefined
          ? `HTTP ${outcome.httpStatus} (${statusMeaning(outcome.status)})`
          : kind === 'timeout'
            ? `timed out after ${formatSeconds(timeoutMs)}`
            : kind === 'too-many-redirects' ||
                kind === 'redirect-loop' ||
                kind === 'invalid-redirect'
              ? message
              : describeFailure(outcome.failure);
      throw CliError.input(what, why);
    }
    bytes = outcome.body ?? new Uint8Array();
    rejectBinary(bytes, `cannot read robots.txt ${url.href}`);
    info = {
      source: 'url',
      location: url.href,
      status: 'ok',
      httpStatus: outcome.httpStatus ?? null,
      redirects: outcome.redirects,
      cache: null,
      failure: null,
    };
  } else {
    bytes = await readFileStart(spec, maxBytes + 1);
    info = {
      source: 'file',
      location: spec,
      status: 'ok',
      httpStatus: null,
      redirects: [],
      cache: null,
      failure: null,
    };
  }
  const parsed = parse(bytes, { maxBytes });
  return { info: { ...info, bytes: parsed.parsedBytes, truncated: parsed.truncated }, parsed };
}

/**
 * The first `count` bytes of a text file (one more than the parser keeps, so that it sees the
 * cut), never holding more; every failure (missing, unreadable, a directory, binary content)
 * is one {@link CliError} with exit code 4.
 */
async function readFileStart(path: string, count: number): Promise<Uint8Array> {
  const what = `cannot read robots.txt file ${path}`;
  const stream = createReadStream(path, { end: count - 1 });
  let bytes: Uint8Array;
  try {
    bytes = (await readCapped(stream, count)).bytes;
  } catch (error) {
    throw CliError.input(what, describeFsError(error), error);
  } finally {
    stream.destroy();
  }
  rejectBinary(bytes, what);
  return bytes;
}

const FS_PHRASES: Readonly<Record<string, string>> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
};

function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const phrase = typeof code === 'string' ? FS_PHRASES[code] : undefined;
  return phrase ?? (error instanceof Error ? error.message : String(error));
}

/**
 * Refuses input whose first {@link CLI_DEFAULTS.binarySniffBytes} bytes hold a NUL byte: it
 * is not a text file, and parsing it would only produce noise.
 */
function rejectBinary(bytes: Uint8Array, what: string): void {
  const nul = bytes.subarray(0, CLI_DEFAULTS.binarySniffBytes).indexOf(0);
  if (nul !== -1) throw CliError.input(what, `not a text file (NUL byte at offset ${nul})`);
}

/** What a robots.txt status the policy's client reported means for a crawler. */
function statusMeaning(status: RobotsStatus): string {
  return status === 'unreachable'
    ? 'a crawler treats robots.txt as unreachable and disallows everything'
    : `a crawler treats robots.txt as ${status} and allows everything`;
}
