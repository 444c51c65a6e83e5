import { ROBOTS_TAG_DEFAULTS } from './defaults.js';
import { checkOptionsObject, positiveIntegerOption, RobotsTagUsageError } from './errors.js';
import { isProductToken } from './known-rules.js';
import type { MetaContentCache } from './meta-content-cache.js';
import type { MetaScanOptions } from './types.js';

/** {@link MetaScanOptions}, checked, with their defaults. */
export interface ScanConfig {
  readonly maxHeadBytes: number;
  readonly productTokens: ReadonlySet<string> | undefined;
  readonly encoding: string;
  /** Shared by the scanners of one factory (a single scanner has no use for it). */
  readonly metaCache: MetaContentCache | undefined;
}

/**
 * Checks `options` once (throws {@link RobotsTagUsageError} naming the bad one).
 * @example
 * resolveScanOptions({ maxHeadBytes: 4096 }).maxHeadBytes; // 4096
 */
export function resolveScanOptions(options: MetaScanOptions | undefined): ScanConfig {
  return options === undefined ? DEFAULT_CONFIG : validateScanOptions(options);
}

function validateScanOptions(options: MetaScanOptions | undefined): ScanConfig {
  checkOptionsObject(options);
  const maxHeadBytes = positiveIntegerOption(
    'maxHeadBytes',
    options?.maxHeadBytes ?? ROBOTS_TAG_DEFAULTS.maxHeadBytes,
  );
  let productTokens: Set<string> | undefined;
  if (options?.productTokens !== undefined) {
    const tokens: unknown = options.productTokens;
    if (!Array.isArray(tokens)) {
      throw new RobotsTagUsageError(
        'ERR_ROBOTS_TAG_INVALID_OPTION',
        'productTokens',
        tokens,
        'expected an array of product tokens',
      );
    }
    productTokens = new Set();
    for (const token of tokens as unknown[]) {
      if (typeof token !== 'string' || token === '*' || !isProductToken(token)) {
        throw new RobotsTagUsageError(
          'ERR_ROBOTS_TAG_INVALID_OPTION',
          'productTokens',
          token,
          `"${String(token)}" is not a crawler's product token (letters, digits, "_" and "-")`,
        );
      }
      productTokens.add(token.toLowerCase());
    }
  }
  const encoding = options?.encoding ?? 'utf-8';
  try {
    new TextDecoder(encoding);
  } catch (cause) {
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_OPTION',
      'encoding',
      encoding,
      `not an encoding TextDecoder knows`,
      { cause },
    );
  }
  return { maxHeadBytes, productTokens, encoding, metaCache: undefined };
}

const DEFAULT_CONFIG: ScanConfig = Object.freeze(validateScanOptions({}));
