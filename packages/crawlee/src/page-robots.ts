import { pageRobots } from '@polite-crawler/fetch';
import { isHtml } from '@polite-crawler/fetch/internal';
import { rawHeaderPairs, scanRobotsMeta } from '@polite-crawler/robots-tag';
import type { HttpNavigation } from './polite-http-client.js';
import type { ResolvedCrawleeOptions } from './resolve-options.js';
import type { PageRobots } from './types.js';

/** The parts of an HTTP crawling context (HttpCrawler, CheerioCrawler) that directives come from. */
export interface HttpContextLike {
  readonly body?: string | Uint8Array;
  readonly contentType?: { readonly type: string; readonly encoding?: string };
  readonly response?: { readonly url?: string; readonly rawHeaders?: readonly string[] };
}

/**
 * The robots directives of a page fetched by an HTTP crawler: the header lines the polite HTTP
 * client received (one entry per line) and the `<head>` robots metas of an HTML body.
 * @example
 * const robots = readHttpRobots(context, navigations.get(context.request), options);
 */
export function readHttpRobots(
  context: HttpContextLike,
  navigation: HttpNavigation | undefined,
  options: ResolvedCrawleeOptions,
): PageRobots {
  const { policy } = options;
  // The polite HTTP client recorded the lines; a response it did not see still has its raw lines.
  const raw = context.response?.rawHeaders;
  const headers: ReadonlyArray<readonly [string, string]> =
    navigation?.headers ?? (Array.isArray(raw) ? rawHeaderPairs(raw) : []);
  const metas =
    isHtml(context.contentType?.type) && context.body !== undefined
      ? scanRobotsMeta(context.body, {
          maxHeadBytes: options.maxHeadBytes,
          productTokens: [policy.productToken],
        })
      : undefined;
  const url = navigation?.url ?? context.response?.url ?? '';
  return {
    ...pageRobots(policy, { url, headers, metas, now: options.now() }),
    url,
    redirects: navigation?.redirects ?? [],
  };
}
