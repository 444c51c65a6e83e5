import { pageRobots } from '@polite-crawler/fetch';
import { isHtml } from '@polite-crawler/fetch/internal';
import { parseRobotsMetaContent, scanRobotsMeta } from '@polite-crawler/robots-tag';
import type { RobotsTagRules } from '@polite-crawler/robots-tag';
import type { Response } from 'playwright-core';
import type { ResolvedGateOptions } from './resolve-options.js';
import type { ServedRecord } from './route-handler.js';
import type { NavigationRobots } from './types.js';

/** The little of the DOM that {@link renderedMetas} uses in the page. */
interface BrowserDocument {
  readonly head: {
    querySelectorAll(selector: string): Iterable<{ getAttribute(name: string): string | null }>;
  } | null;
}

function merge(parts: readonly RobotsTagRules[]): RobotsTagRules {
  return {
    rules: parts.flatMap((part) => part.rules),
    diagnostics: parts.flatMap((part) => part.diagnostics),
  };
}

/** The robots metas of the HTML as served: the body the browser received, up to the byte cap. */
async function servedMetas(
  response: Response,
  options: ResolvedGateOptions,
): Promise<RobotsTagRules> {
  const body = await response.body();
  return scanRobotsMeta(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), {
    maxHeadBytes: options.maxHeadBytes,
    productTokens: [options.policy.productToken],
  });
}

/** The robots metas in the live DOM's `<head>`, read in the page, up to `maxHeadBytes` chars. */
async function renderedMetas(
  response: Response,
  options: ResolvedGateOptions,
): Promise<RobotsTagRules> {
  const pairs = await response.frame().evaluate(
    ({ names, cap }) => {
      const found: [string, string][] = [];
      let used = 0;
      // Runs in the page: the DOM types are described here, the package compiles without lib.dom.
      const { document } = globalThis as unknown as { document: BrowserDocument };
      const metas =
        document.head === null ? [] : Array.from(document.head.querySelectorAll('meta[name]'));
      for (const meta of metas) {
        const name = meta.getAttribute('name') ?? '';
        if (!names.includes(name.trim().toLowerCase())) continue;
        const content = meta.getAttribute('content') ?? '';
        used += name.length + content.length;
        if (used > cap) break;
        found.push([name.trim(), content]);
      }
      return found;
    },
    { names: ['robots', options.policy.productToken.toLowerCase()], cap: options.maxHeadBytes },
  );
  return merge(pairs.map(([name, content]) => parseRobotsMetaContent(name, content)));
}

/**
 * Reads the robots directives of a navigation's response: the header lines the gate received
 * (else `response.headersArray()`), one field line at a time, and the `<head>` metas of `metas`.
 * @example
 * const robots = await readNavigationRobots(response, options, served.get(response.request()));
 * if (robots.directives.noindex) skip();
 */
export async function readNavigationRobots(
  response: Response,
  options: ResolvedGateOptions,
  record: ServedRecord | undefined,
): Promise<NavigationRobots> {
  const headers =
    record?.headers ??
    (await response.headersArray()).map((header) => [header.name, header.value] as const);
  const contentType = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
  const metas: RobotsTagRules[] = [];
  if (isHtml(contentType)) {
    if (options.metas !== 'rendered') metas.push(await servedMetas(response, options));
    if (options.metas !== 'served') metas.push(await renderedMetas(response, options));
  }
  const url = record?.finalUrl ?? response.url();
  return {
    ...pageRobots(options.policy, { url, headers, metas: merge(metas) }),
    url,
    redirects: record?.redirects ?? [],
    status: response.status(),
  };
}
