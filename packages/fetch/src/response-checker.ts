import { Response } from 'undici';
import {
  createMetaScanner,
  directivesFor,
  isUnavailable,
  parseRobotsTagHeaders,
} from '@polite-crawler/robots-tag';
import type { RobotsDirectives, RobotsTagRules } from '@polite-crawler/robots-tag';
import { RobotsNoIndexError } from './errors.js';
import type { RawHeaders } from './header-capture.js';
import type { Clock, PoliteResponse } from './types.js';

export interface ResponseCheckSettings {
  readonly productToken: string;
  readonly scanMeta: boolean;
  readonly maxHeadBytes: number;
  readonly noindex: 'annotate' | 'reject';
  readonly clock: Clock;
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);

/**
 * Whether a `Content-Type` names HTML (`text/html`, `application/xhtml+xml`), whose `<head>`
 * may hold robots metas.
 * @example
 * isHtml('text/html; charset=utf-8'); // true
 */
export function isHtml(contentType: string | null): boolean {
  if (contentType === null) return false;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return HTML_TYPES.has(essence);
}

/**
 * Every `Robots-Tag` and `X-Robots-Tag` field line of a response. From undici's raw headers
 * when available (each line apart); otherwise from fetch `Headers`, where repeated lines
 * arrive joined by `, ` (the robots-tag parser copes, but dates with commas are ambiguous).
 * @example
 * robotsTagLines({ 'x-robots-tag': ['noindex', 'unavailable_after: Mon, 01 Jan 2024 00:00:00 GMT'] }, headers);
 */
export function robotsTagLines(
  raw: RawHeaders | undefined,
  headers: { get(name: string): string | null },
): string[] {
  const lines: string[] = [];
  for (const name of ['robots-tag', 'x-robots-tag']) {
    if (raw !== undefined) {
      const value = raw[name];
      if (typeof value === 'string') lines.push(value);
      else if (value !== undefined) lines.push(...value);
    } else {
      const value = headers.get(name);
      if (value !== null) lines.push(value);
    }
  }
  return lines;
}

function refuses(directives: RobotsDirectives, settings: ResponseCheckSettings): boolean {
  return (
    settings.noindex === 'reject' &&
    (directives.noindex || isUnavailable(directives, new Date(settings.clock.now())))
  );
}

function annotate<R extends Response>(
  response: R,
  robots: RobotsDirectives,
  url: string,
  redirected: boolean,
): R & PoliteResponse {
  Object.defineProperty(response, 'robots', { value: robots, enumerable: true });
  if (response.url !== url)
    Object.defineProperty(response, 'url', { value: url, enumerable: true });
  if (redirected) Object.defineProperty(response, 'redirected', { value: true, enumerable: true });
  return response as R & PoliteResponse;
}

/**
 * Reads a final response's robots directives, from its header lines and, for HTML, the
 * robots metas in `<head>`, then hands the response on. The body is streamed: only the bytes
 * read to find the end of `<head>` (at most `maxHeadBytes`) are buffered, and they are
 * replayed, so the caller receives the body byte-for-byte. With `noindex: 'reject'`, a
 * noindex page rejects with {@link RobotsNoIndexError} and its body is cancelled.
 * @example
 * const polite = await checkResponse(response, rawHeaders, { url, redirected: false }, settings);
 * polite.robots.noindex;
 */
export async function checkResponse(
  response: Response,
  raw: RawHeaders | undefined,
  where: { readonly url: string; readonly redirected: boolean },
  settings: ResponseCheckSettings,
): Promise<PoliteResponse> {
  const headerRules = parseRobotsTagHeaders(robotsTagLines(raw, response.headers));
  const fromHeaders = directivesFor(headerRules, settings.productToken);
  const reject = async (directives: RobotsDirectives): Promise<never> => {
    await response.body?.cancel().catch(() => {});
    throw new RobotsNoIndexError({ url: where.url, status: response.status, directives });
  };
  if (refuses(fromHeaders, settings)) return reject(fromHeaders);
  const body = response.body;
  if (!settings.scanMeta || body === null || !isHtml(response.headers.get('content-type'))) {
    return annotate(response, fromHeaders, where.url, where.redirected);
  }
  const reader = body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const { buffered, done, metaRules } = await scanHead(
    reader,
    settings.maxHeadBytes,
    settings.productToken,
  );
  const directives = directivesFor([headerRules, metaRules], settings.productToken);
  if (refuses(directives, settings)) {
    await reader.cancel().catch(() => {});
    throw new RobotsNoIndexError({ url: where.url, status: response.status, directives });
  }
  const replay = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = buffered.shift();
        if (next !== undefined) {
          controller.enqueue(next);
          return;
        }
        if (done) {
          controller.close();
          return;
        }
        const chunk = await reader.read();
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      },
      cancel(reason) {
        buffered.length = 0;
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  const replayed = new Response(replay, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  return annotate(replayed, directives, where.url, where.redirected);
}

async function scanHead(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxHeadBytes: number,
  productToken: string,
): Promise<{ buffered: Uint8Array[]; done: boolean; metaRules: RobotsTagRules }> {
  const scanner = createMetaScanner({ maxHeadBytes, productTokens: [productToken] });
  const buffered: Uint8Array[] = [];
  let total = 0;
  let done = false;
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) {
        done = true;
        break;
      }
      buffered.push(chunk.value);
      total += chunk.value.byteLength;
      if (scanner.write(chunk.value) || total >= maxHeadBytes) break;
    }
  } catch (error) {
    await reader.cancel(error).catch(() => {});
    throw error;
  }
  scanner.end();
  return { buffered, done, metaRules: scanner.result() };
}
