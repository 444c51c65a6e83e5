/**
 * Public types of @polite-crawler/robots-tag. This file is the contract the other packages
 * build on: add fields freely, never remove or rename one.
 */

/** Where a rule was found. */
export type RuleSource = 'header' | 'meta';
/** Which grammar read it: the draft's structured-field form, or the legacy comma/colon form. */
export type RuleSyntax = 'structured' | 'legacy';

export interface RobotsTagRule {
  /** Lower-cased product token the rule is for; `'*'` for everyone (also `robots` metas). */
  readonly token: string;
  /** Lower-cased rule name, e.g. `noindex`, `max-snippet`, `unavailable_after`. */
  readonly name: string;
  /** The rule's value, when it has one (`max-snippet: 20` → `'20'`). */
  readonly value?: string;
  readonly source: RuleSource;
  readonly syntax: RuleSyntax;
  /** Whether the rule name is one this package knows; unknown rules carry no meaning. */
  readonly known: boolean;
  /**
   * Where it was read: the header field name (`robots-tag` / `x-robots-tag`, lower-cased) when
   * the input named it, or the meta element's `name` attribute (lower-cased, trimmed).
   */
  readonly field?: string;
  /** 1-based index of the field line (headers) or of the meta element (metas) it came from. */
  readonly line?: number;
  /** The member as written (`max-snippet: 20`, `*;noindex;nosnippet`), at most 200 characters. */
  readonly raw?: string;
}

/** Every diagnostic code; each is documented in the package README. */
export type RobotsTagDiagnosticCode =
  'field-truncated' | 'scan-byte-cap' | 'invalid-value' | 'unparseable-member';

export interface RobotsTagDiagnostic {
  readonly code: RobotsTagDiagnosticCode;
  readonly message: string;
  /** Whether a header or a meta element produced it. */
  readonly source?: RuleSource;
  /** Header field name or meta `name`, lower-cased, when known. */
  readonly field?: string;
  /** 1-based index of the field line or meta element. */
  readonly line?: number;
  /** The offending text, at most 200 characters. */
  readonly text?: string;
}

/** All rules read from headers or metas, for every token. */
export interface RobotsTagRules {
  readonly rules: readonly RobotsTagRule[];
  readonly diagnostics: readonly RobotsTagDiagnostic[];
}

export type ImagePreviewSize = 'none' | 'standard' | 'large';

/**
 * Why a page is `noindex`: a `noindex`/`none` rule, or an `unavailable_after` date that has
 * passed at the `now` given to {@link directivesFor} (a rule wins when both hold).
 */
export type NoindexReason = 'rule' | 'unavailable_after';

/** What one crawler may do with a page: rules for its token and for everyone, united. */
export interface RobotsDirectives {
  /**
   * The page must not be indexed: a `noindex` or `none` rule applies, or its
   * `unavailable_after` date has passed at the `now` given to `directivesFor` (without `now`,
   * dates are not compared: see {@link isUnavailable}). The one field to branch on.
   */
  readonly noindex: boolean;
  /** Why `noindex` is true; absent when it is false. */
  readonly noindexReason?: NoindexReason;
  readonly nofollow: boolean;
  readonly nosnippet: boolean;
  readonly noarchive: boolean;
  readonly noimageindex: boolean;
  readonly notranslate: boolean;
  readonly indexIfEmbedded: boolean;
  /** Characters; 0 = no snippet, -1 = no limit. Undefined when not set. */
  readonly maxSnippet?: number;
  readonly maxImagePreview?: ImagePreviewSize;
  /** Seconds; 0 = static image only, -1 = no limit. */
  readonly maxVideoPreview?: number;
  readonly unavailableAfter?: Date;
  /**
   * How long these rules stay valid: the freshness the response declared, as given to
   * `directivesFor` (see `rulesFreshness`). Absent when none was given.
   */
  readonly freshness?: RobotsTagFreshness;
  /** The rules that applied to this crawler, with where each came from. */
  readonly rules: readonly RobotsTagRule[];
}

/** Options of `directivesFor`. */
export interface DirectivesOptions {
  /**
   * The instant the directives are for (a `Date` or epoch milliseconds): an `unavailable_after`
   * date before it makes `noindex` true with `noindexReason: 'unavailable_after'`. Time is
   * passed in, never read from a clock; without it, dates are not compared.
   * @default undefined
   */
  readonly now?: Date | number;
  /** The response's freshness (from `rulesFreshness`), carried on the directives as is. @default undefined */
  readonly freshness?: RobotsTagFreshness;
}

/**
 * How long rules read from a response stay valid, from its `Cache-Control` / `Expires` (the
 * draft links their validity to the resource's HTTP freshness, RFC 9111 §4.2.1).
 */
export interface RobotsTagFreshness {
  /**
   * When the rules stop being fresh: `now` + the freshness lifetime, less the response's
   * `Age`; `now` itself for `no-store`/`no-cache` or a lifetime already used up. `undefined`
   * when the response declares none (a crawler may use a heuristic, e.g. its recrawl interval).
   */
  readonly freshUntil: Date | undefined;
  /** The freshness lifetime in seconds (`max-age`, or `Expires` − `Date`); `undefined` as above. */
  readonly lifetimeSeconds: number | undefined;
  /** What declared it. */
  readonly source: 'max-age' | 'expires' | 'no-store' | 'no-cache' | 'none';
}

/**
 * Anything with a fetch-style `get(name)`: the WHATWG `Headers` class, undici's `Headers`.
 * Note that `Headers` joins repeated field lines with `, `: pass raw lines when you have them.
 */
export interface HeadersLike {
  get(name: string): string | null;
}

/**
 * One header: a `[name, value]` pair or a Playwright-style `{ name, value }`; an array value is
 * one element per field line (`Object.entries(res.headersDistinct)`).
 */
export type HeaderEntry =
  | readonly [name: string, value: string | readonly string[]]
  | { readonly name: string; readonly value: string | readonly string[] };

/**
 * A Node-style header object (`IncomingHttpHeaders`, undici `request()`'s `headers`): names are
 * matched case-insensitively; an array value is one element per field line.
 */
export type HeadersRecord = Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * What {@link parseRobotsTagHeaders} reads.
 * - `string` / `string[]`: the field *values* of `robots-tag` / `x-robots-tag` lines, one per line.
 * - {@link HeadersLike}: both `robots-tag` and `x-robots-tag` are read.
 * - `Iterable<HeaderEntry>`: every line with either name (any case) is read, the rest skipped.
 * - {@link HeadersRecord}: likewise, from a Node-style object.
 */
export type RobotsTagHeaderInput =
  string | readonly string[] | HeadersLike | Iterable<HeaderEntry> | HeadersRecord;

/** Options of {@link parseRobotsTagHeaders}. */
export interface HeaderParseOptions {
  /**
   * Characters of each field value that are parsed (HTTP field values reach JavaScript as one
   * character per octet, so this is the byte count). Past it, the whole members before the cut
   * are kept and a `field-truncated` diagnostic is reported. Values below 8192 are raised to
   * 8192 (the draft's floor); a value that is not a positive integer throws.
   * @default 16384
   */
  readonly maxFieldBytes?: number;
}

/** Options of {@link createMetaScanner} and {@link scanRobotsMeta}. */
export interface MetaScanOptions {
  /**
   * Bytes of the document read while looking for the end of the head (for string input:
   * UTF-16 code units). Reaching it ends the scan with a `scan-byte-cap` diagnostic when more
   * input follows. A positive integer.
   * @default 262144
   */
  readonly maxHeadBytes?: number;
  /**
   * Meta names read besides `robots`: the product tokens of the crawlers you care about
   * (not `*`: in a meta, `robots` is the name for every crawler, and `name="*"` is never read).
   * When omitted, every meta whose name is a product token is read, but only the *known*
   * rules of non-`robots` metas are kept and their diagnostics are dropped (so
   * `<meta name="description">` text does not produce noise).
   * @default undefined
   */
  readonly productTokens?: readonly string[];
  /**
   * Character encoding of byte input (any WHATWG label `TextDecoder` accepts). `<meta charset>`
   * is not followed: robots metas are ASCII and read the same in every ASCII-compatible
   * encoding; set this for UTF-16 pages or when names/values are non-ASCII.
   * @default 'utf-8'
   */
  readonly encoding?: string;
}

/** Why a meta scan stopped. */
export type MetaScanStopReason =
  | 'head-end' // `</head>` + next content, `<body>`, or an element that cannot be in a head
  | 'byte-cap' // `maxHeadBytes` reached with more input following
  | 'input-end'; // `end()` was called before the head was over

/** A streaming reader of the robots metas in a document's head. */
export interface MetaScanner {
  /**
   * Feeds the next chunk (bytes in any split, or text). Returns `true` once the head is over:
   * the caller can stop feeding. Writes after that are ignored. Tiny writes are gathered before
   * the tokenizer sees them (so that the work stays linear): `true` may then come a few writes
   * after the one that ended the head, never later than an eighth more input.
   */
  write(chunk: string | Uint8Array): boolean;
  /** Marks the end of input: flushes what is buffered. Idempotent. */
  end(): void;
  /** The rules read so far (complete once `done`). */
  result(): RobotsTagRules;
  /** Bytes (or code units, for string input) taken from the input; never above `maxHeadBytes`. */
  readonly bytesScanned: number;
  /** Whether the scan is over (head ended, byte cap reached, or `end()` called). */
  readonly done: boolean;
  /** Why the scan is over; `undefined` while it is not. */
  readonly stopReason: MetaScanStopReason | undefined;
}
