import { RobotsTagUsageError } from './errors.js';
import { HeadDecoder } from './head-decoder.js';
import type { TextSink } from './head-decoder.js';
import { HeadState } from './head-state.js';
import type { TextContent } from './head-state.js';
import { HeadTokenizer } from './head-tokenizer.js';
import type { HeadAttribute, HeadTokenListener } from './head-tokenizer.js';
import { MetaCollector, isMetaName, parseMeta } from './meta-collector.js';
import { MetaContentCache } from './meta-content-cache.js';
import { resolveScanOptions } from './scan-options.js';
import type { ScanConfig } from './scan-options.js';
import type { MetaScanner, MetaScanOptions, MetaScanStopReason, RobotsTagRules } from './types.js';

/**
 * Creates a streaming reader of the robots metas in a document's head: feed it the body as it
 * arrives (bytes in any split, or text) and stop when `write` returns `true`. Reads
 * `<meta name="robots">` and `<meta name="<product token>">` (names case-insensitive, content
 * in the legacy comma syntax, entities decoded). Only the head counts: the scan ends at the
 * first thing the HTML parser would not put in the head — `<body>`, non-blank text, any
 * element not allowed there — and at `maxHeadBytes`. Like browsers, metas between `</head>`
 * and `<body>` are still read. Metas in comments, `<template>`, `<noframes>`, `<script>`,
 * `<style>` and `<title>` are not; metas in a `<noscript>` in the head are (a crawler parses
 * with scripting off, where they are part of the head).
 *
 * @example
 * ```ts
 * const scanner = createMetaScanner({ productTokens: ['ExampleBot'] });
 * for await (const chunk of response.body) {
 *   if (scanner.write(chunk)) break;
 * }
 * scanner.end();
 * const directives = directivesFor(scanner.result(), 'ExampleBot');
 * ```
 */
export function createMetaScanner(options?: MetaScanOptions): MetaScanner {
  return new HeadMetaScanner(resolveScanOptions(options));
}

/**
 * Validates `options` once and returns a function that creates scanners with them: for a
 * caller that scans every response (no option checks per response).
 * Throws {@link RobotsTagUsageError} for invalid options, as {@link createMetaScanner} does.
 *
 * @example
 * ```ts
 * const newScanner = createMetaScannerFactory({ productTokens: ['ExampleBot'] });
 * const scanner = newScanner();
 * scanner.write('<head><meta name="robots" content="noindex"></head><body>');
 * ```
 */
export function createMetaScannerFactory(options?: MetaScanOptions): () => MetaScanner {
  const config: ScanConfig = {
    ...resolveScanOptions(options),
    metaCache: new MetaContentCache(parseMeta),
  };
  return () => new HeadMetaScanner(config);
}

/**
 * Reads the robots metas of a whole document (string or bytes) at once. See
 * {@link createMetaScanner} for what is read.
 *
 * @example
 * ```ts
 * const rules = scanRobotsMeta('<head><meta name="robots" content="noindex, nofollow"></head>');
 * directivesFor(rules, 'ExampleBot').nofollow; // true
 * ```
 */
export function scanRobotsMeta(
  html: string | Uint8Array,
  options?: MetaScanOptions,
): RobotsTagRules {
  const scanner = createMetaScanner(options);
  scanner.write(html);
  scanner.end();
  return scanner.result();
}

/**
 * Reads the `content` of one meta element named `name`, for callers that find metas
 * themselves (a DOM, Playwright's `page.$$eval`). `robots` becomes the `*` token. A name that
 * is not a product token, and `*` (not a meta name: `robots` is the one for every crawler),
 * yields no rules and an `unparseable-member` diagnostic.
 *
 * @example
 * ```ts
 * const rules = parseRobotsMetaContent('robots', 'max-snippet:20, noarchive');
 * directivesFor(rules, 'ExampleBot').maxSnippet; // 20
 * ```
 */
export function parseRobotsMetaContent(name: string, content: string): RobotsTagRules {
  if (typeof name !== 'string' || typeof content !== 'string') {
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
      typeof name !== 'string' ? 'name' : 'content',
      typeof name !== 'string' ? name : content,
      'expected a string',
    );
  }
  const field = name.trim().toLowerCase();
  if (isMetaName(field)) return parseMeta(field, content, 1, false);
  return Object.freeze({
    rules: Object.freeze([]),
    diagnostics: Object.freeze([
      Object.freeze({
        code: 'unparseable-member',
        message:
          field === '*'
            ? 'meta name "*" names no crawler (only "robots" is for every crawler): ignored'
            : `meta name "${field.slice(0, 200)}" is not a product token: ignored`,
        source: 'meta',
        field,
        line: 1,
      }),
    ]),
  });
}

/**
 * A meta scan: decoding ({@link HeadDecoder}) → tokenizing ({@link HeadTokenizer}, parse5's
 * tokenizer) → head state ({@link HeadState}, the tree builder's insertion modes up to the
 * body) → collecting ({@link MetaCollector}). This class only wires them and keeps the
 * scanner's public state.
 */
class HeadMetaScanner implements MetaScanner, HeadTokenListener, TextSink {
  readonly #config: ScanConfig;
  readonly #decoder: HeadDecoder;
  readonly #tokenizer: HeadTokenizer;
  readonly #state = new HeadState();
  readonly #collector: MetaCollector;
  #stopReason: MetaScanStopReason | undefined;

  constructor(config: ScanConfig) {
    this.#config = config;
    this.#decoder = new HeadDecoder(config.encoding, config.maxHeadBytes);
    this.#tokenizer = new HeadTokenizer(this);
    this.#collector = new MetaCollector(config);
  }

  get bytesScanned(): number {
    return this.#decoder.bytes;
  }

  get done(): boolean {
    return this.#stopReason !== undefined;
  }

  get stopReason(): MetaScanStopReason | undefined {
    return this.#stopReason;
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.#stopReason !== undefined) return true;
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) {
      throw new RobotsTagUsageError(
        'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
        'chunk',
        chunk,
        'expected a string or a Uint8Array',
      );
    }
    // An empty write changes nothing: it must not make the decoder before the bytes that
    // could be a byte-order mark, nor flush held bytes or a character split across writes.
    if (chunk.length === 0) return false;
    if (this.#decoder.write(chunk, this) === 'cap') this.#capReached();
    else if (this.#stopReason === undefined) this.#tokenizer.writeDone(chunk.length);
    return this.#stopReason !== undefined;
  }

  end(): void {
    if (this.#stopReason !== undefined) return;
    this.#decoder.end(this);
    if (this.#stopReason === undefined) this.#tokenizer.end();
    this.#stop('input-end');
  }

  result(): RobotsTagRules {
    // Text held back for the tokenizer may hold metas: result() sees everything written.
    if (this.#stopReason === undefined) this.#tokenizer.flush();
    return this.#collector.result();
  }

  /** Decoded text, to the tokenizer; `false` once the scan is over. */
  text(text: string): boolean {
    this.#tokenizer.write(text);
    return this.#stopReason === undefined;
  }

  startTag(name: string, attrs: readonly HeadAttribute[]): TextContent | undefined {
    const effect = this.#state.startTag(name);
    if (effect === 'meta') this.#collector.meta(attrs);
    else if (effect === 'end') this.#stop('head-end');
    else return effect;
    return undefined;
  }

  endTag(name: string): void {
    if (this.#state.endTag(name) === 'end') this.#stop('head-end');
  }

  characters(blank: boolean): void {
    if (this.#state.characters(blank) === 'end') this.#stop('head-end');
  }

  #capReached(): void {
    // What the cap cut is unknown: the tokens before it count, a run of text ending at it not.
    this.#tokenizer.endCut();
    if (this.#stopReason !== undefined) return;
    this.#collector.diagnostic({
      code: 'scan-byte-cap',
      message: `the head did not end within maxHeadBytes (${this.#config.maxHeadBytes}): metas past it were not read`,
      source: 'meta',
    });
    this.#stop('byte-cap');
  }

  #stop(reason: MetaScanStopReason): void {
    if (this.#stopReason !== undefined) return;
    this.#stopReason = reason;
    this.#tokenizer.stop();
  }
}
