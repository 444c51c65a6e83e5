/**
 * Turning one statement of preference into {@link UsagePreferences} (vocab §6.5), and
 * combining several (vocab §5.1). The same steps as @polite-crawler/robots-tag's
 * `parseContentUsage` / `combineUsage`, over this package's own dictionary parser.
 */
import type {
  UsageCategory,
  UsageLabel,
  UsagePreference,
  UsagePreferences,
  UsageSource,
} from './content-usage-types.js';
import { parseStructuredDictionary } from './structured-dictionary.js';

const NONE: readonly never[] = Object.freeze([]);

/** All categories unknown, no sources, no labels: what no statement (or a failed one) gives. */
export const UNKNOWN_USAGE: UsagePreferences = Object.freeze({
  'train-ai': 'unknown',
  search: 'unknown',
  sources: Object.freeze({ 'train-ai': NONE, search: NONE }),
  extensions: NONE,
});

/**
 * How the keys and values of one syntax map onto the vocabulary: `Content-Usage` uses the
 * vocabulary's own labels and Tokens `y` / `n` (vocab §6.1, §6.2); `Content-Signal` uses
 * `ai-train` and `search` with `yes` / `no` (our mapping: Cloudflare defines no relation to
 * the vocabulary).
 */
interface Syntax {
  readonly categories: ReadonlyMap<string, UsageCategory>;
  readonly allow: string;
  readonly disallow: string;
}
export const CONTENT_USAGE_SYNTAX: Syntax = {
  categories: new Map<string, UsageCategory>([
    ['train-ai', 'train-ai'],
    ['search', 'search'],
  ]),
  allow: 'y',
  disallow: 'n',
};
export const CONTENT_SIGNAL_SYNTAX: Syntax = {
  categories: new Map<string, UsageCategory>([
    ['ai-train', 'train-ai'],
    ['search', 'search'],
  ]),
  allow: 'yes',
  disallow: 'no',
};

/** A processed statement and what was wrong with it, for lint. */
export interface ProcessedStatement {
  readonly preferences: UsagePreferences;
  /** The value did not parse as a Structured Fields Dictionary. */
  readonly invalid: boolean;
  /** Keys of vocabulary categories whose value was not one of the two Tokens. */
  readonly unknownValues: readonly string[];
}

/**
 * Processes `value` (a statement of preference as text) with `syntax`: a Dictionary parse,
 * then for each category only the Token `allow` / `disallow` counts; anything else, and a
 * failed parse, is `unknown`. Labels outside the vocabulary are kept raw.
 * @example
 * processStatement('train-ai=n', CONTENT_USAGE_SYNTAX, { kind: 'content-usage-field' }).preferences['train-ai']; // 'disallowed'
 */
export function processStatement(
  value: string,
  syntax: Syntax,
  source: UsageSource,
): ProcessedStatement {
  const members = parseStructuredDictionary(value);
  if (members === undefined)
    return { preferences: UNKNOWN_USAGE, invalid: true, unknownValues: NONE };
  const found: Record<UsageCategory, UsagePreference> = {
    'train-ai': 'unknown',
    search: 'unknown',
  };
  const extensions: UsageLabel[] = [];
  const unknownValues: string[] = [];
  for (const [key, member] of members) {
    const category = syntax.categories.get(key);
    if (category === undefined) {
      extensions.push(Object.freeze({ label: key, value: member.raw, source }));
      continue;
    }
    if (member.token === syntax.allow) found[category] = 'allowed';
    else if (member.token === syntax.disallow) found[category] = 'disallowed';
    else unknownValues.push(key);
  }
  const sourcesOf = (c: UsageCategory): readonly UsageSource[] =>
    found[c] === 'unknown' ? NONE : Object.freeze([source]);
  const preferences: UsagePreferences = Object.freeze({
    'train-ai': found['train-ai'],
    search: found.search,
    sources: Object.freeze({ 'train-ai': sourcesOf('train-ai'), search: sourcesOf('search') }),
    extensions: extensions.length === 0 ? NONE : Object.freeze(extensions),
  });
  return { preferences, invalid: false, unknownValues };
}

function combineCategory(
  statements: readonly UsagePreferences[],
  category: UsageCategory,
): [UsagePreference, readonly UsageSource[]] {
  for (const result of ['disallowed', 'allowed'] as const) {
    const sources: UsageSource[] = [];
    let any = false;
    for (const s of statements) {
      if (s[category] !== result) continue;
      any = true;
      sources.push(...s.sources[category]);
    }
    if (any) return [result, Object.freeze(sources)];
  }
  return ['unknown', NONE];
}

/**
 * Combines statements per vocab §5.1, for each category: any `disallowed` → `disallowed`;
 * else any `allowed` → `allowed`; else `unknown`. The sources of the result are those of
 * the statements that gave it; extension labels are concatenated in argument order.
 * @example
 * combinePreferences([a, b])['train-ai'];
 */
export function combinePreferences(statements: readonly UsagePreferences[]): UsagePreferences {
  if (statements.length === 0) return UNKNOWN_USAGE;
  if (statements.length === 1) return statements[0]!;
  const [train, trainSources] = combineCategory(statements, 'train-ai');
  const [search, searchSources] = combineCategory(statements, 'search');
  const extensions = statements.flatMap((s) => s.extensions);
  return Object.freeze({
    'train-ai': train,
    search,
    sources: Object.freeze({ 'train-ai': trainSources, search: searchSources }),
    extensions: extensions.length === 0 ? NONE : Object.freeze(extensions),
  });
}
