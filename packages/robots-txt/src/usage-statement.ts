/**
 * Turning one statement of preference into {@link UsagePreferences} (vocab §6.5), and
 * combining several (vocab §5.1): the one place where the vocabulary's processing lives, for
 * robots.txt rules and for the `Content-Usage` field (`content-usage-field.ts`).
 */
import {
  USAGE_CATEGORIES,
  type UsageCategory,
  type UsageLabel,
  type UsagePreference,
  type UsagePreferences,
  type UsageSource,
} from './content-usage-types.js';
import { parseStructuredDictionary } from './structured-dictionary.js';

const NONE: readonly never[] = Object.freeze([]);

type PerCategory<T> = { -readonly [Category in UsageCategory]: T };

function perCategory<T>(of: (category: UsageCategory) => T): PerCategory<T> {
  const out = {} as PerCategory<T>;
  for (const category of USAGE_CATEGORIES) out[category] = of(category);
  return out;
}

function freezePreferences(
  values: PerCategory<UsagePreference>,
  sources: PerCategory<readonly UsageSource[]>,
  extensions: readonly UsageLabel[],
): UsagePreferences {
  return Object.freeze({
    ...values,
    sources: Object.freeze(sources),
    extensions: extensions.length === 0 ? NONE : Object.freeze(extensions),
  });
}

/** All categories unknown, no sources, no labels: what no statement (or a failed one) gives. */
export const UNKNOWN_USAGE: UsagePreferences = freezePreferences(
  perCategory(() => 'unknown'),
  perCategory(() => NONE),
  NONE,
);

/**
 * Every category `disallowed`, each sourced to `sources`: the fail-closed answer of a usage
 * query past the match budget.
 */
export function disallowEverything(sources: readonly UsageSource[]): UsagePreferences {
  const all = Object.freeze([...sources]);
  return freezePreferences(
    perCategory(() => 'disallowed'),
    perCategory(() => all),
    NONE,
  );
}

/**
 * How the keys and values of one syntax map onto the vocabulary: `Content-Usage` uses the
 * vocabulary's own labels and Tokens `y` / `n` (vocab-08 §6.1, §6.2); `Content-Signal` uses
 * `ai-train`, `ai-input` and `search` with `yes` / `no` (our mapping onto the vocabulary:
 * Cloudflare defines none; `ai-input`, content given to an AI model as input such as
 * retrieval-augmented generation, is vocab-08's AI Use). Any other key is an unknown label: kept raw, never applied.
 */
interface Syntax {
  readonly categories: ReadonlyMap<string, UsageCategory>;
  readonly allow: string;
  readonly disallow: string;
}
export const CONTENT_USAGE_SYNTAX: Syntax = {
  categories: new Map(USAGE_CATEGORIES.map((c) => [c, c])),
  allow: 'y',
  disallow: 'n',
};
export const CONTENT_SIGNAL_SYNTAX: Syntax = {
  categories: new Map<string, UsageCategory>([
    ['ai-train', 'train-ai'],
    ['ai-input', 'ai-use'],
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
 * failed parse (every category, vocab §6.5.1), is `unknown`. Labels outside the vocabulary
 * are kept raw, in canonical form.
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
  const found = perCategory<UsagePreference>(() => 'unknown');
  const extensions: UsageLabel[] = [];
  const unknownValues: string[] = [];
  for (const [key, member] of members) {
    const category = syntax.categories.get(key);
    if (category === undefined) {
      extensions.push(Object.freeze({ label: key, value: member.value, source }));
      continue;
    }
    if (member.token === syntax.allow) found[category] = 'allowed';
    else if (member.token === syntax.disallow) found[category] = 'disallowed';
    else unknownValues.push(key);
  }
  const one: readonly UsageSource[] = Object.freeze([source]);
  const preferences = freezePreferences(
    found,
    perCategory((c) => (found[c] === 'unknown' ? NONE : one)),
    extensions,
  );
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
 * Combines statements of preference as vocab §5.1 says, for each category on its own: if any
 * says `disallowed`, `disallowed`; else if any says `allowed`, `allowed`; else `unknown`. The
 * most restrictive wins, whatever the order. `sources` of the result are those of the
 * statements that gave it; extension labels are concatenated in argument order. No argument:
 * everything `unknown`.
 *
 * This is how a robots.txt rule and a response's `Content-Usage` field are combined. It is
 * not how the field's own lines are combined: those are joined into one Dictionary first
 * (RFC 9651 §4.2), where a later duplicate key wins (see {@link parseContentUsage}).
 *
 * `search` overriding the other categories (vocab-08 §4) is not applied here: it says which
 * category governs a use, and changes no category's value.
 *
 * @example
 * ```ts
 * const usage = combineUsage(robots.contentUsage(url, 'ExampleBot'), parseContentUsage(response.headers));
 * if (usage['train-ai'] === 'disallowed') skipTraining(url);
 * ```
 */
export function combineUsage(...statements: UsagePreferences[]): UsagePreferences {
  if (statements.length === 0) return UNKNOWN_USAGE;
  if (statements.length === 1) return statements[0]!;
  const combined = perCategory((c) => combineCategory(statements, c));
  return freezePreferences(
    perCategory((c) => combined[c][0]),
    perCategory((c) => combined[c][1]),
    statements.flatMap((s) => s.extensions),
  );
}
