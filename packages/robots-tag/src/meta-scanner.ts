import { Parser } from 'htmlparser2';
import { ROBOTS_TAG_DEFAULTS } from './defaults.js';
import { RobotsTagUsageError } from './errors.js';
import { byteOrderMarkEncoding } from './byte-order-mark.js';
import { createFastHeadState, fastPathOverBudget, scanHeadFast } from './fast-head-scan.js';
import type { FastHeadState, HeadMeta } from './fast-head-scan.js';
import { AFTER_HEAD, ENDS_HEAD, IN_HEAD, TEXT_CONTENT } from './head-elements.js';
import { isProductToken } from './known-rules.js';
import { MetaContentCache } from './meta-content-cache.js';
import { parseFieldValue } from './parse-field.js';
import { referenceWrites } from './pending-references.js';
import { BrowserTokenizer } from './browser-tokenizer.js';
import type { FieldSink } from './parse-field.js';
import type { MetaScanner, MetaScanOptions, MetaScanStopReason, RobotsTagRules } from './types.js';

/** Input is handed to the tokenizer in slices of this size, so work stops soon after the head. */
const SLICE = 16_384;

const HTML_BLANK = /^[\t\n\f\r ]*$/;
const HTML_SPACE_AROUND = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

interface ScanConfig {
  readonly maxHeadBytes: number;
  readonly productTokens: ReadonlySet<string> | undefined;
  readonly encoding: string;
  /** Shared by the scanners of one factory (a single scanner has no use for it). */
  readonly metaCache: MetaContentCache | undefined;
}

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
  return new HeadMetaScanner(resolveScanOptions(options), true);
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
  return () => new HeadMetaScanner(config, true);
}

/**
 * A scanner that always tokenizes with htmlparser2 (no fast path): the reference the fast path
 * is tested against. Not exported from the package.
 * @example
 * const reference = createFullParseMetaScanner({ productTokens: ['ExampleBot'] });
 */
export function createFullParseMetaScanner(options?: MetaScanOptions): MetaScanner {
  return new HeadMetaScanner(resolveScanOptions(options), false);
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
 * Whether a meta of this (normalised) name can be a robots meta: `robots`, or a crawler's
 * product token. `*` is the global token of the header syntax only: in a meta, `robots` is.
 */
function isMetaName(field: string): boolean {
  return field === 'robots' || (field !== '*' && isProductToken(field));
}

function metaToken(name: string): string {
  return name === 'robots' ? '*' : name;
}

/** The result of a scan that found nothing (shared: it is frozen). */
const NO_RULES: RobotsTagRules = Object.freeze({
  rules: Object.freeze([]),
  diagnostics: Object.freeze([]),
});

/** Adds `parsed` to `sink`, one by one: a long content can give more rules than a call takes arguments. */
function appendRules(sink: FieldSink, parsed: RobotsTagRules): void {
  for (const rule of parsed.rules) sink.rules.push(rule);
  for (const diagnostic of parsed.diagnostics) sink.diagnostics.push(diagnostic);
}

function freezeRules(sink: FieldSink): RobotsTagRules {
  if (sink.rules.length === 0 && sink.diagnostics.length === 0) return NO_RULES;
  return Object.freeze({
    rules: Object.freeze([...sink.rules]),
    diagnostics: Object.freeze([...sink.diagnostics]),
  });
}

/** The rules of one meta's `content` (`field`: its normalised name, read by this scan). */
function parseMeta(
  field: string,
  content: string,
  line: number,
  knownOnly: boolean,
): RobotsTagRules {
  const sink: FieldSink = { rules: [], diagnostics: [] };
  parseFieldValue(
    content,
    {
      source: 'meta',
      field,
      line,
      token: metaToken(field),
      maxChars: Number.POSITIVE_INFINITY,
      knownOnly,
    },
    sink,
  );
  return freezeRules(sink);
}

/** Encoding labels TextDecoder has accepted, so they are not checked again (bounded). */
const knownEncodings = new Set<string>(['utf-8']);
const MAX_KNOWN_ENCODINGS = 64;

function resolveScanOptions(options: MetaScanOptions | undefined): ScanConfig {
  return options === undefined ? DEFAULT_CONFIG : validateScanOptions(options);
}

function validateScanOptions(options: MetaScanOptions | undefined): ScanConfig {
  if (options !== undefined && (typeof options !== 'object' || options === null)) {
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_OPTION',
      'options',
      options,
      'expected an object',
    );
  }
  const maxHeadBytes = options?.maxHeadBytes ?? ROBOTS_TAG_DEFAULTS.maxHeadBytes;
  if (
    typeof maxHeadBytes !== 'number' ||
    !Number.isSafeInteger(maxHeadBytes) ||
    maxHeadBytes <= 0
  ) {
    throw new RobotsTagUsageError(
      'ERR_ROBOTS_TAG_INVALID_OPTION',
      'maxHeadBytes',
      maxHeadBytes,
      `expected a positive integer, got ${String(maxHeadBytes)}`,
    );
  }
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
  if (!knownEncodings.has(encoding)) {
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
    if (typeof encoding === 'string' && knownEncodings.size < MAX_KNOWN_ENCODINGS) {
      knownEncodings.add(encoding);
    }
  }
  return { maxHeadBytes, productTokens, encoding, metaCache: undefined };
}

const DEFAULT_CONFIG: ScanConfig = Object.freeze(validateScanOptions({}));

/** A meta `name` as compared: HTML spaces around it dropped, lower case. */
function metaField(name: string): string {
  // Most names have no space around them: no regular expression run for them.
  const trimmed =
    name === '' || (name.charCodeAt(0) > 0x20 && name.charCodeAt(name.length - 1) > 0x20)
      ? name
      : name.replace(HTML_SPACE_AROUND, '');
  return trimmed.toLowerCase();
}

type HeadState = 'in-head' | 'after-head';

class HeadMetaScanner implements MetaScanner {
  readonly #config: ScanConfig;
  /** Created when first needed: the fast path reads most heads without it. */
  #parser: Parser | undefined;
  /** Created when the first bytes arrive. */
  #decoder: InstanceType<typeof TextDecoder> | undefined;
  /**
   * What the scan found, made when a second meta with rules (or a diagnostic) joins the first:
   * until then {@link #only} is the whole result.
   */
  #sink: FieldSink | undefined;
  #bytes = 0;
  #stopReason: MetaScanStopReason | undefined;
  #state: HeadState = 'in-head';
  /** Depth of `<template>`: its content is inert. */
  #templateDepth = 0;
  /** Inside `<noframes>`: raw text to a browser, markup to htmlparser2, so ignored. */
  #inNoframes = false;
  /** The `title` / `script` / `style` element whose text content is being read. */
  #textElement: string | undefined;
  /** Bytes are buffered in the decoder (a character split across chunks). */
  #decoderDirty = false;
  /**
   * A character reference at the end of the text parsed so far that may still go on, not yet
   * written to htmlparser2 (see {@link #parse}).
   */
  #heldReference = '';
  /** The first bytes, held while they could still start a byte-order mark. */
  #markBytes: Uint8Array | undefined;
  #metaCount = 0;
  /** The fast path's progress; `undefined` when htmlparser2 reads (see fast-head-scan.ts). */
  #fast: FastHeadState | undefined;
  /** The text after the fast path's last complete token. */
  #pending = '';
  /** Characters given to the fast path so far, re-read ones included. */
  #fastRead = 0;
  /**
   * Every text fed while the fast path ran, write by write (htmlparser2 reads it all if it takes
   * over, split as it came: at the end of input, its events depend on the split): the first,
   * then the others (most heads end within the first).
   */
  #fedFirst = '';
  #fedMore: string[] | undefined;
  /**
   * The rules of the first meta that had any, from the factory's cache: while nothing else is
   * found, `result()` returns them as they are (nothing is copied, nothing made).
   */
  #only: RobotsTagRules | undefined;

  constructor(config: ScanConfig, fastPath: boolean) {
    this.#config = config;
    this.#fast = fastPath ? createFastHeadState() : undefined;
  }

  get bytesScanned(): number {
    return this.#bytes;
  }

  get done(): boolean {
    return this.#stopReason !== undefined;
  }

  get stopReason(): MetaScanStopReason | undefined {
    return this.#stopReason;
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.#stopReason !== undefined) return true;
    // An empty write changes nothing: it must not make the decoder before the bytes that
    // could be a byte-order mark, nor flush held bytes or a character split across writes.
    if (typeof chunk === 'string') {
      if (chunk !== '') this.#writeText(chunk);
    } else if (chunk instanceof Uint8Array) {
      if (chunk.length !== 0) this.#writeBytes(chunk);
    } else {
      throw new RobotsTagUsageError(
        'ERR_ROBOTS_TAG_INVALID_ARGUMENT',
        'chunk',
        chunk,
        'expected a string or a Uint8Array',
      );
    }
    return this.#stopReason !== undefined;
  }

  end(): void {
    if (this.#stopReason !== undefined) return;
    this.#flushMarkBytes();
    if (this.#stopReason !== undefined) return;
    const rest = this.#decoder?.decode() ?? '';
    if (rest !== '') this.#feed(rest);
    if (this.#stopReason !== undefined) return;
    // Complete tokens only: htmlparser2 would end without another event.
    if (this.#pending === '' && this.#finishFast('input-end')) return;
    this.#handOver();
    if (this.#stopReason === undefined) {
      const parser = this.#parserNow();
      if (this.#heldReference !== '') parser.write(this.#heldReference);
      this.#heldReference = '';
      if (this.#stopReason === undefined) parser.end();
    }
    this.#stop('input-end');
  }

  result(): RobotsTagRules {
    // Metas the fast path holds are only final once it reaches a verdict.
    if (this.#stopReason === undefined) this.#handOver();
    const sink = this.#sink;
    if (sink === undefined) return this.#only ?? NO_RULES;
    return freezeRules(sink);
  }

  /** The sink, made (with the first meta's rules in it) when something joins them. */
  #sinkNow(): FieldSink {
    let sink = this.#sink;
    if (sink === undefined) {
      sink = { rules: [], diagnostics: [] };
      const only = this.#only;
      this.#only = undefined;
      if (only !== undefined) appendRules(sink, only);
      this.#sink = sink;
    }
    return sink;
  }

  /** Bytes held to tell whether they start a byte-order mark: decoded as they are after all. */
  #flushMarkBytes(): void {
    const held = this.#markBytes;
    if (held === undefined) return;
    this.#markBytes = undefined;
    this.#decoder = new TextDecoder(this.#config.encoding);
    this.#writeBytes(held);
  }

  #writeText(chunk: string): void {
    this.#flushMarkBytes();
    if (this.#decoderDirty) {
      this.#decoderDirty = false;
      const rest = this.#decoder!.decode();
      if (rest !== '') this.#feed(rest);
    }
    for (let at = 0; at < chunk.length && this.#stopReason === undefined;) {
      const room = this.#config.maxHeadBytes - this.#bytes;
      if (room <= 0) {
        this.#capReached();
        return;
      }
      const piece = chunk.slice(at, at + Math.min(SLICE, room));
      // A byte order mark is not content (decoding bytes drops it too).
      const text = this.#bytes === 0 && piece.charCodeAt(0) === 0xfeff ? piece.slice(1) : piece;
      at += piece.length;
      this.#bytes += piece.length;
      if (text !== '') this.#feed(text);
    }
  }

  #writeBytes(given: Uint8Array): void {
    let chunk = given;
    let decoder = this.#decoder;
    if (decoder === undefined) {
      const held = this.#markBytes;
      if (held !== undefined) {
        this.#markBytes = undefined;
        chunk = new Uint8Array(held.length + given.length);
        chunk.set(held);
        chunk.set(given, held.length);
      }
      let encoding = this.#config.encoding;
      if (this.#bytes === 0) {
        // A byte-order mark picks the encoding, whatever was declared (as in browsers).
        const marked = byteOrderMarkEncoding(chunk);
        if (marked === 'too-short') {
          this.#markBytes = chunk.slice();
          return;
        }
        if (marked !== undefined) encoding = marked;
      }
      decoder = this.#decoder = new TextDecoder(encoding);
    }
    for (let at = 0; at < chunk.length && this.#stopReason === undefined;) {
      const room = this.#config.maxHeadBytes - this.#bytes;
      if (room <= 0) {
        this.#capReached();
        return;
      }
      const piece = chunk.subarray(at, at + Math.min(SLICE, room));
      at += piece.length;
      this.#bytes += piece.length;
      this.#decoderDirty = true;
      const text = decoder.decode(piece, { stream: true });
      if (text !== '') this.#feed(text);
    }
  }

  /** Text to the fast path while it can read it, else to htmlparser2. */
  #feed(text: string): void {
    const fast = this.#fast;
    if (fast === undefined) {
      this.#parse(text);
      return;
    }
    if (this.#fedFirst === '') this.#fedFirst = text;
    else (this.#fedMore ??= []).push(text);
    const pending = this.#pending + text;
    this.#fastRead += pending.length;
    if (fastPathOverBudget(this.#fastRead, this.#bytes)) {
      this.#handOver();
      return;
    }
    const verdict = scanHeadFast(pending, fast);
    if (verdict === 'need-more') {
      this.#pending = pending.slice(fast.consumed);
    } else if (verdict === 'unsupported' || !this.#finishFast('head-end')) {
      this.#handOver();
    }
  }

  /**
   * Takes the fast path's metas and stops, unless a meta that is read holds an entity (then
   * returns `false` and changes nothing).
   */
  #finishFast(reason: MetaScanStopReason): boolean {
    const fast = this.#fast;
    if (fast === undefined || !this.#fastMetasAreExact(fast.metas)) return false;
    this.#fast = undefined;
    this.#fedFirst = '';
    this.#fedMore = undefined;
    this.#pending = '';
    for (const meta of fast.metas) this.#onMeta(meta.name, meta.content);
    this.#stop(reason);
    return true;
  }

  /** Whether every meta that is read has no entity in it (the fast path does not decode). */
  #fastMetasAreExact(metas: readonly HeadMeta[]): boolean {
    for (const { name, exact } of metas) {
      if (exact || name === undefined) continue;
      if (name.includes('&') || this.#reads(metaField(name))) return false;
    }
    return true;
  }

  /** Ends the fast path: htmlparser2 reads everything fed so far, from the start. */
  #handOver(): void {
    if (this.#fast === undefined) return;
    const first = this.#fedFirst;
    const more = this.#fedMore;
    this.#fast = undefined;
    this.#fedFirst = '';
    this.#fedMore = undefined;
    this.#pending = '';
    if (first === '') return;
    this.#parse(first);
    for (const text of more ?? []) {
      if (this.#stopReason !== undefined) return;
      this.#parse(text);
    }
  }

  /**
   * Writes `text` (after the reference held back from the text before) to htmlparser2, in up to
   * three writes when it ends in character references, holding back a last one that may still
   * go on (see pending-references.ts). htmlparser2 holds the text before a reference that may
   * still go on, so the writes end where any split of the input would have it report the most;
   * at the cap, {@link #capReached} ends the held reference. Text that is not blank then ends the
   * head where it is, and the verdict does not depend on where the input was split or capped.
   * (One write per `&` instead would cost htmlparser2 time quadratic in their number.)
   */
  #parse(given: string): void {
    const parser = this.#parserNow();
    const text = this.#heldReference === '' ? given : this.#heldReference + given;
    this.#heldReference = '';
    const { cuts, hold } = referenceWrites(text);
    let from = 0;
    for (const cut of cuts) {
      parser.write(text.slice(from, cut));
      from = cut;
      if (this.#stopReason !== undefined) return;
    }
    if (hold < text.length) {
      if (from < hold) parser.write(text.slice(from, hold));
      this.#heldReference = text.slice(hold);
    } else parser.write(from === 0 ? text : text.slice(from));
  }

  #parserNow(): Parser {
    return (this.#parser ??= new Parser(
      {
        onopentag: (name, attribs, isImplied) => this.#onOpenTag(name, attribs, isImplied),
        onclosetag: (name, isImplied) => this.#onCloseTag(name, isImplied),
        ontext: (text) => this.#onText(text),
      },
      {
        decodeEntities: true,
        lowerCaseTags: true,
        lowerCaseAttributeNames: true,
        Tokenizer: BrowserTokenizer,
      },
    ));
  }

  #capReached(): void {
    this.#handOver();
    if (this.#stopReason !== undefined) return;
    if (this.#heldReference !== '') {
      // What the held reference becomes lies past the cap. `<` ends the one before it just as
      // its `&` would, and has htmlparser2 report the text before it; the scan stops after.
      this.#heldReference = '';
      this.#parserNow().write('<');
      if (this.#stopReason !== undefined) return;
    }
    this.#sinkNow().diagnostics.push(
      Object.freeze({
        code: 'scan-byte-cap',
        message: `the head did not end within maxHeadBytes (${this.#config.maxHeadBytes}): metas past it were not read`,
        source: 'meta',
      }),
    );
    this.#stop('byte-cap');
  }

  #stop(reason: MetaScanStopReason): void {
    if (this.#stopReason !== undefined) return;
    this.#stopReason = reason;
    this.#parser?.pause();
  }

  #onOpenTag(name: string, attribs: Record<string, string>, isImplied: boolean): void {
    if (this.#stopReason !== undefined) return;
    // htmlparser2 invents an open tag for a stray `</p>` (ignored in a head) and `</br>` (a `<br>`).
    if (isImplied && name !== 'br') return;
    if (this.#templateDepth > 0) {
      if (name === 'template') this.#templateDepth++;
      return;
    }
    if (this.#inNoframes) return;
    const allowed = this.#state === 'in-head' ? IN_HEAD : AFTER_HEAD;
    if (!allowed.has(name)) {
      this.#stop('head-end');
      return;
    }
    if (name === 'meta') this.#onMeta(attribs['name'], attribs['content']);
    else if (name === 'template') this.#templateDepth = 1;
    else if (name === 'noframes') this.#inNoframes = true;
    else if (TEXT_CONTENT.has(name)) this.#textElement = name;
  }

  #onCloseTag(name: string, isImplied: boolean): void {
    if (this.#stopReason !== undefined) return;
    if (this.#templateDepth > 0) {
      if (name === 'template') this.#templateDepth--;
      return;
    }
    if (this.#inNoframes) {
      if (name === 'noframes') this.#inNoframes = false;
      return;
    }
    if (name === this.#textElement) {
      this.#textElement = undefined;
      return;
    }
    if (isImplied) return; // closes htmlparser2 infers are not in the source
    if (name === 'head') this.#state = 'after-head';
    else if (ENDS_HEAD.has(name)) this.#stop('head-end');
  }

  #onText(text: string): void {
    if (this.#stopReason !== undefined) return;
    if (this.#templateDepth > 0 || this.#inNoframes || this.#textElement !== undefined) return;
    if (!HTML_BLANK.test(text)) this.#stop('head-end');
  }

  /** Whether a meta of this (normalised) name is read at all. */
  #reads(field: string): boolean {
    if (field === 'robots') return true;
    if (!isMetaName(field)) return false;
    const listed = this.#config.productTokens;
    return listed === undefined || listed.has(field);
  }

  #onMeta(rawName: string | undefined, content: string | undefined): void {
    this.#metaCount++;
    if (rawName === undefined) return;
    const field = metaField(rawName);
    if (!this.#reads(field)) return;
    const isRobots = field === 'robots';
    const knownOnly = !isRobots && this.#config.productTokens === undefined;
    if (content === undefined) {
      if (!knownOnly) {
        this.#sinkNow().diagnostics.push(
          Object.freeze({
            code: 'invalid-value',
            message: `meta "${field}" has no content attribute: ignored`,
            source: 'meta',
            field,
            line: this.#metaCount,
          }),
        );
      }
      return;
    }
    const line = this.#metaCount;
    const cache = this.#config.metaCache;
    const parsed =
      cache === undefined
        ? parseMeta(field, content, line, knownOnly)
        : cache.rulesFor(field, content, line, knownOnly);
    if (parsed.rules.length === 0 && parsed.diagnostics.length === 0) return;
    if (this.#sink === undefined && this.#only === undefined) this.#only = parsed;
    else appendRules(this.#sinkNow(), parsed);
  }
}
