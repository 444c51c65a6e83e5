import type { RobotsDirectives, UsagePreferences, UsageSource } from '@polite-crawler/fetch';
import type { RobotsTagRule } from '@polite-crawler/robots-tag';
import { USAGE_CATEGORIES, type UsageCategory } from '@polite-crawler/robots-txt';
import type { CliAgent } from '../agent.js';
import type { DeniedInfo } from './verdict-json.js';
import type { AgentJson } from './agent-json.js';
import { agentJson } from './agent-json.js';
import { describeDenied, quoteLine } from './describe-verdict.js';
import type { Style } from './style.js';
import { categoryLines } from './usage-lines.js';
import { plural } from './plural.js';

/** `T` with each optional field present, `null` when absent (as JSON has no `undefined`). */
type NullWhenAbsent<T> = {
  readonly [K in keyof T]-?: undefined extends T[K] ? Exclude<T[K], undefined> | null : T[K];
};

/**
 * The robots directives in `polite fetch --json` (`response.robots`): the library's
 * `RobotsDirectives` with `null` for what is not set, `unavailableAfter` as an ISO 8601 date,
 * and every rule that applied to this agent (without where in the input it was read).
 */
export type DirectivesJson = NullWhenAbsent<
  Omit<RobotsDirectives, 'unavailableAfter' | 'freshness' | 'rules'>
> & {
  readonly unavailableAfter: string | null;
  readonly rules: readonly NullWhenAbsent<
    Pick<RobotsTagRule, 'token' | 'name' | 'value' | 'source' | 'syntax' | 'known'>
  >[];
};

/**
 * One statement that set a usage preference: robots-txt's `UsageSource` (a robots.txt
 * `Content-Usage` or `Content-Signal` rule with its line and the line's text, or the
 * response's `Content-Usage` header field).
 */
export type UsageSourceJson = UsageSource;

/**
 * The usage preferences (IETF AIPREF) of the response in `polite fetch --json`
 * (`response.usage`): robots.txt's for the URL combined with the `Content-Usage` header,
 * most restrictive first — the library's `response.usage`, each source with its line's text.
 */
export type UsageJson = Pick<UsagePreferences, UsageCategory> & {
  /** Per category, the statements whose preference is the result (empty when `unknown`). */
  readonly sources: Readonly<Record<UsageCategory, readonly UsageSourceJson[]>>;
  /** Labels outside the vocabulary, raw, not applied. */
  readonly extensions: readonly {
    readonly label: string;
    readonly value: string;
    readonly source: UsageSourceJson;
  }[];
};

/** The response part of `polite fetch --json`. */
export interface FetchedJson {
  /** The URL of the final response (after redirects). */
  readonly finalUrl: string;
  readonly redirected: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly contentType: string | null;
  /** Body bytes read. */
  readonly bytes: number;
  /** False when the body was longer than the read limit (`bytes` is then the limit). */
  readonly complete: boolean;
  readonly robots: DirectivesJson;
  readonly usage: UsageJson;
}

/** The shape of `polite fetch --json`. */
export interface FetchJson {
  readonly agent: AgentJson;
  readonly url: string;
  /** False when robots.txt refused the request (nothing was sent). */
  readonly allowed: boolean;
  readonly denied: DeniedInfo | null;
  readonly response: FetchedJson | null;
}

/**
 * The JSON form of a directives object.
 *
 * @example
 * ```ts
 * directivesJson(response.robots).noindex;
 * ```
 */
export function directivesJson(directives: RobotsDirectives): DirectivesJson {
  return {
    noindex: directives.noindex,
    noindexReason: directives.noindexReason ?? null,
    nofollow: directives.nofollow,
    nosnippet: directives.nosnippet,
    noarchive: directives.noarchive,
    noimageindex: directives.noimageindex,
    notranslate: directives.notranslate,
    indexIfEmbedded: directives.indexIfEmbedded,
    maxSnippet: directives.maxSnippet ?? null,
    maxImagePreview: directives.maxImagePreview ?? null,
    maxVideoPreview: directives.maxVideoPreview ?? null,
    unavailableAfter: directives.unavailableAfter?.toISOString() ?? null,
    rules: directives.rules.map((rule) => ({
      token: rule.token,
      name: rule.name,
      value: rule.value ?? null,
      source: rule.source,
      syntax: rule.syntax,
      known: rule.known,
    })),
  };
}

/**
 * The JSON form of a response's usage preferences.
 *
 * @example
 * ```ts
 * usageJson(response.usage)['train-ai'];
 * ```
 */
export function usageJson(usage: UsagePreferences): UsageJson {
  const source = (from: UsageSource): UsageSourceJson =>
    from.kind === 'content-usage-field'
      ? { kind: from.kind }
      : { kind: from.kind, line: from.line, pattern: from.pattern, text: from.text };
  const per = <T>(of: (category: UsageCategory) => T): Record<UsageCategory, T> =>
    Object.fromEntries(USAGE_CATEGORIES.map((c) => [c, of(c)])) as Record<UsageCategory, T>;
  return {
    ...per((category) => usage[category]),
    sources: per((category) => usage.sources[category].map(source)),
    extensions: usage.extensions.map((extension) => ({
      label: extension.label,
      value: extension.value,
      source: source(extension.source),
    })),
  };
}

/**
 * The `--json` document of `fetch`.
 *
 * @example
 * ```ts
 * JSON.stringify(fetchJson(agent, url, { denied: null, response }));
 * ```
 */
export function fetchJson(
  agent: CliAgent,
  url: string,
  result: { readonly denied: DeniedInfo | null; readonly response: FetchedJson | null },
): FetchJson {
  return { agent: agentJson(agent), url, allowed: result.denied === null, ...result };
}

const LABEL_WIDTH = 14;
const label = (name: string): string => name.padEnd(LABEL_WIDTH);
const cont = ' '.repeat(LABEL_WIDTH);

/**
 * The text report of `fetch`: status, size, content type and the robots directives for
 * the agent, or the refusal with its rule.
 *
 * @example
 * ```ts
 * process.stdout.write(formatFetch(fetchJson(agent, url, result), createStyle(false)));
 * ```
 */
export function formatFetch(result: FetchJson, style: Style): string {
  const lines: string[] = [];
  if (result.denied !== null) {
    lines.push(`${style.red('DENIED')}  ${result.url}`);
    lines.push(`        ${describeDenied(result.denied)}`);
    if (result.denied.reason !== 'redirect-disallowed')
      lines.push('        nothing was sent to this URL');
    return `${lines.join('\n')}\n`;
  }
  const response = result.response;
  if (response === null) return `${result.url}\n`;
  lines.push(`${label('URL')}${result.url}`);
  if (response.redirected) lines.push(`${label('Final URL')}${response.finalUrl}`);
  const statusText = response.statusText === '' ? '' : ` ${response.statusText}`;
  const paintStatus = response.status < 400 ? style.green : style.red;
  lines.push(`${label('Status')}${paintStatus(`${response.status}${statusText}`)}`);
  lines.push(`${label('Content-Type')}${response.contentType ?? '-'}`);
  lines.push(
    `${label('Size')}${plural(response.bytes, 'byte')}${response.complete ? '' : ' (stopped reading at the limit)'}`,
  );
  const robots = response.robots;
  const known = robots.rules.filter((rule) => rule.known);
  if (known.length === 0) {
    lines.push(`${label('Robots')}no directives for this agent`);
  } else {
    known.forEach((rule, index) => {
      const value = rule.value === null ? '' : `: ${rule.value}`;
      const where = `${rule.source === 'header' ? 'header' : 'meta'}, ${rule.token === '*' ? 'all agents' : rule.token}`;
      lines.push(
        `${index === 0 ? label('Robots') : cont}${rule.name}${value} ${style.dim(`(${where})`)}`,
      );
    });
  }
  const yes = (allowed: boolean): string => (allowed ? style.green('yes') : style.red('no'));
  const expired =
    robots.noindexReason === 'unavailable_after' ? ' (unavailable_after has passed)' : '';
  lines.push(
    `${cont}index: ${yes(!robots.noindex)}${expired} · follow links: ${yes(!robots.nofollow)} · snippet: ${yes(!robots.nosnippet && robots.maxSnippet !== 0)} · archive: ${yes(!robots.noarchive)}`,
  );
  lines.push(...usageLines(response.usage, style));
  return `${lines.join('\n')}\n`;
}

/** Where a usage statement came from, in words. */
function describeSource(source: UsageSourceJson): string {
  if (source.kind === 'content-usage-field') return 'Content-Usage header';
  return `robots.txt line ${source.line}: ${quoteLine(source)}`;
}

/**
 * The response's usage preferences, each with the statement(s) that set it; nothing when
 * neither robots.txt nor the `Content-Usage` header states one.
 */
function usageLines(usage: UsageJson, style: Style): string[] {
  const stated =
    USAGE_CATEGORIES.some((category) => usage[category] !== 'unknown') ||
    usage.extensions.length > 0;
  if (!stated) return [];
  const lines = categoryLines(
    usage,
    (category) => usage.sources[category].map(describeSource),
    style,
    LABEL_WIDTH,
  );
  for (const extension of usage.extensions) {
    lines.push(
      `${cont}${extension.label}: ${extension.value} ${style.dim(`(not a vocabulary category, ${describeSource(extension.source)})`)}`,
    );
  }
  return lines;
}
