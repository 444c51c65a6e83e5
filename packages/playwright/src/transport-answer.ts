import { requestThrough } from '@polite-crawler/fetch/internal';
import type { TransportHop } from '@polite-crawler/fetch/internal';
import type { APIRequestContext, Route } from 'playwright-core';

/** The policy's transport dispatcher, as `requestThrough` takes it. */
export type TransportDispatcher = Parameters<typeof requestThrough>[0];

/**
 * One hop's response as the route handler walks it, whichever client sent it: Playwright's
 * request API (the browser context's cookies, proxy and TLS settings) or the policy's transport
 * (undici's HTTP cache and deduplication, with `cache` on).
 */
export interface HopAnswer {
  readonly status: number;
  /**
   * The HTTP cache gave it without a request (a fresh copy, or an identical GET's in flight): it
   * is not noted as the origin's response.
   */
  readonly fromStore: boolean;
  /** Header field lines, one entry per line, as received. */
  readonly headers: readonly (readonly [string, string])[];
  /** Reads the whole body (the hop is over once it is in). */
  read(): Promise<void>;
  /** Fulfils the browser's request with this response (read first). */
  fulfil(route: Route): Promise<void>;
  /** Throws the response away unread (a redirect). */
  discard(): unknown;
}

/** A hop sent with Playwright's request API of the browser context. */
export async function apiAnswer(
  api: APIRequestContext,
  url: URL,
  hop: TransportHop,
): Promise<HopAnswer> {
  const response = await api.fetch(url.href, {
    method: hop.method,
    headers: hop.headers as Record<string, string>,
    ...(hop.body === undefined ? {} : { data: hop.body }),
    maxRedirects: 0,
    failOnStatusCode: false,
    ...(hop.signal === undefined ? {} : { signal: hop.signal }),
  });
  return {
    status: response.status(),
    fromStore: false,
    headers: response.headersArray().map((header) => [header.name, header.value] as const),
    // `api.fetch` has read the whole body already.
    read: () => Promise.resolve(),
    fulfil: (route) => route.fulfill({ response }),
    discard: () => response.dispose(),
  };
}

/** Header lines from undici's header object (a repeated field is an array of its lines). */
function linesOf(
  headers: Record<string, string | string[] | undefined>,
): (readonly [string, string])[] {
  const lines: (readonly [string, string])[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const line of Array.isArray(value) ? value : [value]) lines.push([name, line] as const);
  }
  return lines;
}

/**
 * The headers `route.fulfill` takes (one value per name): `set-cookie` lines joined with a
 * newline, as Playwright's own `headers()` gives them, other repeated fields with a comma.
 */
function fulfilHeaders(lines: readonly (readonly [string, string])[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of lines) {
    const previous = out[name];
    out[name] =
      previous === undefined ? value : `${previous}${name === 'set-cookie' ? '\n' : ', '}${value}`;
  }
  return out;
}

/** A hop sent with undici through the policy's transport (signed, cached, deduplicated, decoded). */
export async function transportAnswer(
  dispatcher: TransportDispatcher,
  url: URL,
  hop: TransportHop,
): Promise<HopAnswer> {
  const mark = { sent: false };
  const answer = await requestThrough(dispatcher, url, { ...hop, mark });
  const headers = linesOf(answer.headers);
  let body: Buffer | undefined;
  return {
    status: answer.statusCode,
    fromStore: !mark.sent,
    headers,
    read: async () => {
      body ??= Buffer.from(await answer.body.arrayBuffer());
    },
    fulfil: (route) =>
      route.fulfill({
        status: answer.statusCode,
        headers: fulfilHeaders(headers),
        body: body ?? Buffer.alloc(0),
      }),
    discard: () => answer.body.dump().catch(() => undefined),
  };
}
