import { isProductToken } from './known-rules.js';
import type { MetaContentCache } from './meta-content-cache.js';
import { parseFieldValue } from './parse-field.js';
import type { FieldSink } from './parse-field.js';
import type { HeadAttribute } from './head-tokenizer.js';
import type { RobotsTagDiagnostic, RobotsTagRules } from './types.js';

const HTML_SPACE_AROUND = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

/** What a collector reads: which metas, and the cache of parsed contents it may share. */
export interface CollectConfig {
  /** Product tokens read besides `robots` (lower case); `undefined`: every product token. */
  readonly productTokens: ReadonlySet<string> | undefined;
  /** Shared by the scanners of one factory (a single scanner has no use for it). */
  readonly metaCache: MetaContentCache | undefined;
}

/** The result of a scan that found nothing (shared: it is frozen). */
export const NO_RULES: RobotsTagRules = Object.freeze({
  rules: Object.freeze([]),
  diagnostics: Object.freeze([]),
});

/**
 * Whether a meta of this (normalised) name can be a robots meta: `robots`, or a crawler's
 * product token. `*` is the global token of the header syntax only: in a meta, `robots` is.
 * @example
 * isMetaName('examplebot'); // true
 */
export function isMetaName(field: string): boolean {
  return field === 'robots' || (field !== '*' && isProductToken(field));
}

/**
 * The rules of one meta's `content` (`field`: its normalised name; `line`: its index).
 * @example
 * parseMeta('robots', 'noindex', 1, false).rules[0]?.token; // '*'
 */
export function parseMeta(
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
      token: field === 'robots' ? '*' : field,
      maxChars: Number.POSITIVE_INFINITY,
      knownOnly,
    },
    sink,
  );
  return freezeRules(sink);
}

/** A meta `name` as compared: HTML spaces around it dropped, lower case. */
function metaField(name: string): string {
  // Most names have no space around them: no regular expression run for them.
  const trimmed =
    name === '' || (name.charCodeAt(0) > 0x20 && name.charCodeAt(name.length - 1) > 0x20)
      ? name
      : name.replace(HTML_SPACE_AROUND, '');
  return trimmed.toLowerCase();
}

function freezeRules(sink: FieldSink): RobotsTagRules {
  if (sink.rules.length === 0 && sink.diagnostics.length === 0) return NO_RULES;
  return Object.freeze({
    rules: Object.freeze([...sink.rules]),
    diagnostics: Object.freeze([...sink.diagnostics]),
  });
}

/** Adds `parsed` to `sink`, one by one: a long content can give more rules than a call takes arguments. */
function appendRules(sink: FieldSink, parsed: RobotsTagRules): void {
  for (const rule of parsed.rules) sink.rules.push(rule);
  for (const diagnostic of parsed.diagnostics) sink.diagnostics.push(diagnostic);
}

/**
 * The collecting step of a meta scan: given the metas of the head in document order, keeps
 * the rules of those named `robots` or a product token read, with their diagnostics.
 * @example
 * const collector = new MetaCollector({ productTokens: undefined, metaCache: undefined });
 * collector.meta([{ name: 'name', value: 'robots' }, { name: 'content', value: 'noindex' }]);
 * collector.result().rules[0]?.name; // 'noindex'
 */
export class MetaCollector {
  readonly #config: CollectConfig;
  #metaCount = 0;
  /**
   * The rules of the first meta that had any, from the factory's cache: while nothing else is
   * found, `result()` returns them as they are (nothing is copied, nothing made).
   */
  #only: RobotsTagRules | undefined;
  /** Made when a second meta with rules (or a diagnostic) joins the first. */
  #sink: FieldSink | undefined;

  constructor(config: CollectConfig) {
    this.#config = config;
  }

  /** One `<meta>` of the head, with its attributes (first of each name, as HTML keeps). */
  meta(attrs: readonly HeadAttribute[]): void {
    const line = ++this.#metaCount;
    let rawName: string | undefined;
    let content: string | undefined;
    for (const { name, value } of attrs) {
      if (name === 'name') rawName ??= value;
      else if (name === 'content') content ??= value;
    }
    if (rawName === undefined) return;
    const field = metaField(rawName);
    if (!this.#reads(field)) return;
    const knownOnly = field !== 'robots' && this.#config.productTokens === undefined;
    if (content === undefined) {
      if (!knownOnly) {
        this.diagnostic({
          code: 'invalid-value',
          message: `meta "${field}" has no content attribute: ignored`,
          source: 'meta',
          field,
          line,
        });
      }
      return;
    }
    const cache = this.#config.metaCache;
    const parsed =
      cache === undefined
        ? parseMeta(field, content, line, knownOnly)
        : cache.rulesFor(field, content, line, knownOnly);
    if (parsed.rules.length === 0 && parsed.diagnostics.length === 0) return;
    if (this.#sink === undefined && this.#only === undefined) this.#only = parsed;
    else appendRules(this.#sinkNow(), parsed);
  }

  diagnostic(diagnostic: RobotsTagDiagnostic): void {
    this.#sinkNow().diagnostics.push(Object.freeze(diagnostic));
  }

  /** The rules read so far, frozen. */
  result(): RobotsTagRules {
    const sink = this.#sink;
    if (sink === undefined) return this.#only ?? NO_RULES;
    return freezeRules(sink);
  }

  /** Whether a meta of this (normalised) name is read at all. */
  #reads(field: string): boolean {
    if (field === 'robots') return true;
    if (!isMetaName(field)) return false;
    const listed = this.#config.productTokens;
    return listed === undefined || listed.has(field);
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
}
