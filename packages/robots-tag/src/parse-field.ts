import { DisplayString, isInnerList, parseDictionary, parseList, Token } from 'structured-headers';
import type { Parameters } from 'structured-headers';

/*
 * structured-headers types a bare item as a union that includes the DOM's `BufferSource`,
 * which this package's lib settings do not define; bare items are therefore handled as
 * `unknown` and narrowed here.
 */
import {
  isKnownRule,
  isProductToken,
  parseImagePreviewValue,
  parseLimitValue,
  ruleKind,
} from './known-rules.js';
import { parseRobotsDate } from './robots-date.js';
import {
  closesAfterCut,
  dateText,
  isDateMember,
  joinDatePieces,
  splitMembers,
  splitOutsideQuotes,
} from './split-members.js';
import type {
  RobotsTagDiagnostic,
  RobotsTagDiagnosticCode,
  RobotsTagRule,
  RuleSource,
  RuleSyntax,
} from './types.js';

/** Where a field value comes from and how to read it. */
export interface FieldContext {
  readonly source: RuleSource;
  /** Header field name or meta name (lower-case), when known. */
  readonly field: string | undefined;
  /** 1-based field line / meta index. */
  readonly line: number;
  /**
   * Token the rules are for unless the value names one: `*` for headers, the meta's token for
   * metas.
   */
  readonly token: string;
  /** Characters parsed; past this the value is cut at a member boundary. */
  readonly maxChars: number;
  /**
   * Keep only known rules and report nothing (metas of other names when the caller did not
   * list its product tokens).
   */
  readonly knownOnly: boolean;
}

/** Output sink shared by all field values of one parse. */
export interface FieldSink {
  readonly rules: RobotsTagRule[];
  readonly diagnostics: RobotsTagDiagnostic[];
}

const RAW_MAX = 200;
/** Whitespace after the cut that is looked through to see whether the member was complete. */
const CUT_LOOKAHEAD = 256;

/** One rule before it is attributed to a token. */
interface NamedRule {
  readonly name: string;
  readonly value?: string;
}
/** A rule, or why a part of a member gives none (`?0`, a byte sequence, a malformed parameter). */
type RuleSpec =
  | NamedRule
  | { readonly problem: { readonly code: RobotsTagDiagnosticCode; readonly why: string } };

type Member =
  | { readonly kind: 'prefix'; readonly token: string; readonly rest: string }
  | { readonly kind: 'rules'; readonly rules: readonly RuleSpec[] }
  | { readonly kind: 'bare'; readonly name: string }
  | { readonly kind: 'structured'; readonly token: string; readonly rules: readonly RuleSpec[] }
  | { readonly kind: 'invalid'; readonly why: string };

const WORD = /^[A-Za-z][\w.-]*$/;
const LEGACY_PREFIX = /^([A-Za-z0-9_*-]+)\s*:\s*([^]*)$/;
const NAME_VALUE = /^([A-Za-z][\w.-]*)\s*[:=]\s*([^]*)$/;

/**
 * Parses one field value (a header line, or a meta's `content`) into `sink`. Never throws on
 * content.
 */
export function parseFieldValue(value: string, ctx: FieldContext, sink: FieldSink): void {
  let text = value;
  let truncated = false;
  let cutInsideMember = false;
  if (value.length > ctx.maxChars) {
    truncated = true;
    text = value.slice(0, ctx.maxChars);
    cutInsideMember = !memberEndsAt(value, ctx.maxChars);
  }
  const { pieces, unbalancedFrom } = splitMembers(text);
  const joined = joinDatePieces(pieces);
  let members = joined.members;
  if (truncated) {
    // Keep whole members only: drop the one the cut went through. A quote or parenthesis open
    // at the cut that closes after it makes one member from where it opened to past the cut;
    // one that does not close is stray, and the pieces from it are members of their own.
    let keep = pieces.length;
    if (unbalancedFrom >= 0 && closesAfterCut(value, ctx.maxChars, ctx.maxChars))
      keep = unbalancedFrom;
    else if (cutInsideMember) keep = pieces.length - 1;
    members = members.filter((_, i) => (joined.lastPiece[i] ?? 0) < keep);
    const last = members.at(-1);
    // A date ending at the cut may go on past it (`Friday` | `, 25-Jun-10 …`).
    if (last !== undefined && isDateMember(last) && parseRobotsDate(dateText(last)) === undefined) {
      members.pop();
    }
    report(
      sink,
      ctx,
      'field-truncated',
      `field value longer than ${ctx.maxChars} characters: members past the limit were ignored`,
      undefined,
    );
  }

  const parsed = members.map((m) =>
    ctx.source === 'header' ? classifyHeaderMember(m) : classifyMetaMember(m),
  );
  const structuredLine = parsed.some((p) => p.kind === 'structured');
  let current = ctx.token;
  for (let i = 0; i < parsed.length; i++) {
    const p = parsed[i];
    const raw = (members[i] ?? '').trim();
    if (p === undefined || raw === '') continue;
    switch (p.kind) {
      case 'prefix': {
        current = p.token;
        if (p.rest.trim() === '') break;
        const rules = parseRuleText(p.rest);
        if (rules === undefined)
          report(sink, ctx, 'unparseable-member', `cannot read the rules after "${p.token}:"`, raw);
        else emit(sink, ctx, current, rules, 'legacy', raw);
        break;
      }
      case 'rules':
        emit(sink, ctx, current, p.rules, 'legacy', raw);
        break;
      case 'bare':
        // A bare `*`, or an unknown token in a line written in the structured form, is a
        // product token with no rules (`*;noindex, ExampleBot`).
        if (p.name === '*' || (structuredLine && !isKnownRule(p.name))) break;
        emit(sink, ctx, current, [{ name: p.name }], 'legacy', raw);
        break;
      case 'structured':
        // A structured member names its own token and ends a legacy `token:` run.
        current = ctx.token;
        emit(sink, ctx, p.token, p.rules, 'structured', raw);
        break;
      case 'invalid':
        report(sink, ctx, 'unparseable-member', p.why, raw);
        break;
    }
  }
}

/** Whether the member running into index `at` ends there (only blanks before a comma or the end). */
function memberEndsAt(value: string, at: number): boolean {
  const stop = Math.min(value.length, at + CUT_LOOKAHEAD);
  for (let i = at; i < stop; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x2c) return true;
    if (c !== 0x20 && c !== 0x09) return false;
  }
  return stop === value.length;
}

function classifyHeaderMember(member: string): Member {
  const t = member.trim();
  if (t === '') return { kind: 'rules', rules: [] };
  const prefix = LEGACY_PREFIX.exec(t);
  if (prefix !== null) {
    const name = (prefix[1] ?? '').toLowerCase();
    const rest = prefix[2] ?? '';
    if (isKnownRule(name)) return { kind: 'rules', rules: [{ name, value: rest.trim() }] };
    if (!isProductToken(name))
      return { kind: 'invalid', why: `"${prefix[1] ?? ''}" is not a product token` };
    return { kind: 'prefix', token: name, rest };
  }
  const structured = readSfList(t) ?? (t.includes('=') ? readSfDictionary(t) : undefined);
  if (structured !== undefined) return structured;
  if (t.includes(';') || t.endsWith('=')) return readLenientStructured(t);
  const rules = parseRuleText(t);
  if (rules === undefined)
    return { kind: 'invalid', why: 'not a rule, a "token: rule" pair or a structured member' };
  const only = rules.length === 1 ? rules[0] : undefined;
  if (only !== undefined && only.value === undefined) return { kind: 'bare', name: only.name };
  return { kind: 'rules', rules };
}

function classifyMetaMember(member: string): Member {
  const t = member.trim();
  if (t === '') return { kind: 'rules', rules: [] };
  const rules = parseRuleText(t);
  return rules === undefined
    ? { kind: 'invalid', why: 'not a rule or a "rule: value" pair' }
    : { kind: 'rules', rules };
}

/**
 * The legacy rule text: `noindex`, `max-snippet: 20`, `max-snippet=20`, or blank-separated
 * known rules (`noindex nofollow`, a common mistake read the way its author meant it).
 */
function parseRuleText(text: string): NamedRule[] | undefined {
  const t = text.trim();
  if (t === '') return [];
  if (t.includes(';')) return parseSemicolonRules(t);
  return parseOneRuleText(t);
}

/**
 * `noindex; nofollow` after a `token:` prefix or in a meta: `;` for `,` after a rule, read as in
 * a header's bare member (no crawler is named after a rule). Anything else with `;` is not
 * legacy rule text.
 */
function parseSemicolonRules(t: string): NamedRule[] | undefined {
  const parts = t
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const first = /^[A-Za-z][\w.-]*/.exec(parts[0] ?? '');
  if (first === null || !isKnownRule(first[0].toLowerCase())) return undefined;
  const rules: NamedRule[] = [];
  for (const part of parts) {
    const read = parseOneRuleText(part);
    if (read === undefined) return undefined;
    rules.push(...read);
  }
  return rules;
}

/** {@link parseRuleText} of text without `;`. */
function parseOneRuleText(t: string): NamedRule[] | undefined {
  const nv = NAME_VALUE.exec(t);
  if (nv !== null) return [{ name: (nv[1] ?? '').toLowerCase(), value: (nv[2] ?? '').trim() }];
  if (WORD.test(t)) return [{ name: t.toLowerCase() }];
  const words = t.split(/\s+/);
  if (words.every((w) => WORD.test(w) && isKnownRule(w.toLowerCase()))) {
    return words.map((w) => ({ name: w.toLowerCase() }));
  }
  return undefined;
}

/** A member that is valid RFC 9651 List syntax: `token;rule;rule=value` or `(token rule …)`. */
function readSfList(t: string): Member | undefined {
  let list;
  try {
    list = parseList(t);
  } catch {
    return undefined;
  }
  const member = list[0];
  if (list.length !== 1 || member === undefined) return undefined;
  if (isInnerList(member)) {
    const [items, params] = member as [ReadonlyArray<readonly [unknown, Parameters]>, Parameters];
    const token = bareName(items[0]?.[0]);
    if (token === undefined || !isProductToken(token)) return undefined;
    return structuredMember(token.toLowerCase(), items.slice(1), params);
  }
  const bare: unknown = member[0];
  const params = member[1];
  const name = bareName(bare);
  if (name === undefined) return undefined;
  const lower = name.toLowerCase();
  if (params.size === 0)
    return lower === '*' || WORD.test(lower) ? { kind: 'bare', name: lower } : undefined;
  // A rule's name is no crawler's: `noindex; nofollow` is a rule list (see readLenientStructured).
  if (!isProductToken(lower) || isKnownRule(lower)) return undefined;
  return { kind: 'structured', token: lower, rules: paramRules(params) };
}

/** A member that is valid RFC 9651 Dictionary syntax: `token=(rule rule)`, `max-snippet=20`. */
function readSfDictionary(t: string): Member | undefined {
  const key = /^[A-Za-z0-9_*.-]+(?==)/.exec(t);
  if (key === null) return undefined;
  let dict;
  try {
    dict = parseDictionary(key[0].toLowerCase() + t.slice(key[0].length));
  } catch {
    return undefined;
  }
  const entry = [...dict][0];
  if (dict.size !== 1 || entry === undefined) return undefined;
  const [name, value] = entry;
  if (isInnerList(value)) {
    const [items, params] = value as [ReadonlyArray<readonly [unknown, Parameters]>, Parameters];
    return isProductToken(name) ? structuredMember(name, items, params) : undefined;
  }
  const bare: unknown = value[0];
  const params = value[1];
  if (isKnownRule(name)) {
    const rule = paramRule(name, bare);
    return { kind: 'rules', rules: [rule] };
  }
  if (!isProductToken(name)) return undefined;
  return structuredMember(name, bare === true ? [] : [[bare, params]], params);
}

/** A crawler's token with its rules: inner-list items (`(examplebot noindex)`), then parameters. */
function structuredMember(
  token: string,
  items: ReadonlyArray<readonly [unknown, Parameters]>,
  params: Parameters,
): Member {
  return {
    kind: 'structured',
    token,
    rules: [...items.map((item) => itemRule(item[0])), ...paramRules(params)],
  };
}

/**
 * The draft's own examples that are not valid RFC 9651 (`ExampleBot;`, `;noindex;nosnippet`,
 * `ExampleBot=;`, upper-case rule names): `token[=];rule[=value];…`, an empty token meaning `*`.
 */
function readLenientStructured(t: string): Member {
  const parts = splitOutsideQuotes(t, ';');
  let head = (parts[0] ?? '').trim();
  const rules: RuleSpec[] = [];
  const eq = head.indexOf('=');
  if (eq >= 0) {
    const after = head.slice(eq + 1).trim();
    head = head.slice(0, eq).trim();
    if (after !== '') rules.push(lenientRule(after));
  }
  const token = head === '' ? '*' : head.toLowerCase();
  // `noindex;` or `noindex; nofollow`: no crawler is named after a rule, so this is a rule list
  // with `;` for `,` (read as one, rule `noindex` was lost as a crawler's empty rule set).
  if (eq < 0 && isKnownRule(token)) {
    const rest = parts.slice(1).filter((part) => part.trim() !== '');
    return { kind: 'rules', rules: [{ name: token }, ...rest.map(lenientRule)] };
  }
  if (!isProductToken(token)) return { kind: 'invalid', why: `"${head}" is not a product token` };
  for (const part of parts.slice(1)) {
    if (part.trim() !== '') rules.push(lenientRule(part));
  }
  return { kind: 'structured', token, rules };
}

function lenientRule(part: string): RuleSpec {
  const t = part.trim();
  const m = /^([A-Za-z][\w.-]*)\s*(?:[=:]\s*([^]*))?$/.exec(t);
  if (m === null) {
    return { problem: { code: 'unparseable-member', why: `"${t}" is not a rule` } };
  }
  const name = (m[1] ?? '').toLowerCase();
  const value = m[2]?.trim();
  return value === undefined ? { name } : { name, value: unquote(value) };
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return value;
}

/** A token or string bare item as text; `undefined` for other types. */
function bareName(bare: unknown): string | undefined {
  if (bare instanceof Token || typeof bare === 'string') return bare.toString();
  return undefined;
}

/** An inner-list item as a rule: its value names the rule (`(examplebot noindex)`). */
function itemRule(bare: unknown): RuleSpec {
  const name = bareName(bare);
  if (name === undefined) {
    return { problem: { code: 'unparseable-member', why: 'a rule must be a token or a string' } };
  }
  return { name: name.toLowerCase() };
}

function paramRules(params: Parameters): RuleSpec[] {
  return [...params].map(([name, value]) => paramRule(name, value));
}

/** A parameter as a rule: `noindex` (true) → flag; `max-snippet=20` → value `'20'`. */
function paramRule(name: string, value: unknown): RuleSpec {
  if (value === true) return { name };
  if (value === false)
    return { problem: { code: 'invalid-value', why: `"${name}=?0" turns the rule off: ignored` } };
  if (value instanceof Date) {
    // RFC 9651 allows 15-digit seconds; past ±8.64e15 ms JavaScript holds an Invalid Date.
    if (Number.isNaN(value.getTime()))
      return {
        problem: {
          code: 'invalid-value',
          why: `"${name}" has a date outside the range of JavaScript dates: ignored`,
        },
      };
    return { name, value: value.toISOString() };
  }
  if (
    typeof value === 'number' ||
    typeof value === 'string' ||
    value instanceof Token ||
    value instanceof DisplayString
  ) {
    return { name, value: value.toString() };
  }
  return {
    problem: { code: 'invalid-value', why: `"${name}" has a byte-sequence value: ignored` },
  };
}

function emit(
  sink: FieldSink,
  ctx: FieldContext,
  token: string,
  specs: readonly RuleSpec[],
  syntax: RuleSyntax,
  raw: string,
): void {
  for (const spec of specs) {
    if ('problem' in spec) {
      report(sink, ctx, spec.problem.code, spec.problem.why, raw);
      continue;
    }
    const known = isKnownRule(spec.name);
    if (ctx.knownOnly && !known) continue;
    const rule: RobotsTagRule = {
      token,
      name: spec.name,
      ...(spec.value === undefined ? {} : { value: spec.value }),
      source: ctx.source,
      syntax,
      known,
      ...(ctx.field === undefined ? {} : { field: ctx.field }),
      line: ctx.line,
      raw: clip(raw),
    };
    sink.rules.push(Object.freeze(rule));
    if (known) {
      const problem = valueProblem(spec.name, spec.value);
      if (problem !== undefined) report(sink, ctx, 'invalid-value', problem, raw);
    }
  }
}

/** Why a known rule's value is unusable, or `undefined` when it is fine. */
function valueProblem(name: string, value: string | undefined): string | undefined {
  switch (ruleKind(name)) {
    case 'integer':
      return parseLimitValue(value) === undefined
        ? `${name} needs an integer ≥ -1, got ${value === undefined ? 'nothing' : `"${clip(value)}"`}: ignored`
        : undefined;
    case 'image-preview':
      return parseImagePreviewValue(value) === undefined
        ? `${name} needs none, standard or large, got ${value === undefined ? 'nothing' : `"${clip(value)}"`}: ignored`
        : undefined;
    case 'date':
      return value === undefined || parseRobotsDate(value) === undefined
        ? `${name} needs a date (RFC 850, RFC 1123 or ISO 8601), got ${value === undefined ? 'nothing' : `"${clip(value)}"`}: ignored`
        : undefined;
    default:
      return undefined;
  }
}

function report(
  sink: FieldSink,
  ctx: FieldContext,
  code: RobotsTagDiagnosticCode,
  message: string,
  text: string | undefined,
): void {
  if (ctx.knownOnly) return;
  sink.diagnostics.push(
    Object.freeze({
      code,
      message,
      source: ctx.source,
      ...(ctx.field === undefined ? {} : { field: ctx.field }),
      line: ctx.line,
      ...(text === undefined ? {} : { text: clip(text) }),
    }),
  );
}

function clip(text: string): string {
  return text.length > RAW_MAX ? text.slice(0, RAW_MAX) : text;
}
