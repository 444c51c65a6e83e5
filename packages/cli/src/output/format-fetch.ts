import type {
  PoliteResponse,
  RobotsDeniedError,
  RobotsDirectives,
  UsagePreferences,
  UsageSource,
} from '@polite-crawler/fetch';
import type { CappedBody } from '@polite-crawler/fetch/internal';
import type { RobotsTagRule } from '@polite-crawler/robots-tag';
import { USAGE_CATEGORIES } from '@polite-crawler/robots-txt';
import type { CliAgent } from '../agent.js';
import type { DeniedInfo } from './verdict-json.js';
import { deniedInfo } from './verdict-json.js';
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
 * (`response.usage`): the library's `response.usage` as it is (robots.txt's for the URL
 * combined with the `Content-Usage` header, most restrictive first; each source with its
 * line's text).
 */
export type UsageJson = UsagePreferences;

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
 * What `fetch` got from the library: the refusal (and, for an unreachable robots.txt, why it
 * was), or the response with the part of its body that was read.
 */
export type FetchOutcome =
  | { readonly denied: RobotsDeniedError; readonly unreachable: string | null }
  | { readonly response: PoliteResponse; readonly body: CappedBody; readonly url: URL };

/**
 * The JSON form of a directives object.
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
 * The `--json` document of `fetch`.
 */
export function fetchJson(agent: CliAgent, url: string, outcome: FetchOutcome): FetchJson {
  const head = { agent: agentJson(agent), url };
  if ('denied' in outcome) {
    const denied = { ...deniedInfo(outcome.denied), unreachable: outcome.unreachable };
    return { ...head, allowed: false, denied, response: null };
  }
  const { response, body } = outcome;
  return {
    ...head,
    allowed: true,
    denied: null,
    response: {
      finalUrl: finalUrl(outcome),
      redirected: response.redirected,
      status: response.status,
      statusText: response.statusText,
      contentType: response.headers.get('content-type'),
      bytes: body.bytes.byteLength,
      complete: !body.truncated,
      robots: directivesJson(response.robots),
      usage: response.usage,
    },
  };
}

/** The URL of the final response (undici leaves `url` empty for a response it did not fetch). */
const finalUrl = ({ response, url }: { response: PoliteResponse; url: URL }): string =>
  response.url === '' ? url.href : response.url;

const LABEL_WIDTH = 14;
const label = (name: string): string => name.padEnd(LABEL_WIDTH);
const cont = ' '.repeat(LABEL_WIDTH);

/**
 * The text report of `fetch`: status, size, content type and the robots directives for
 * the agent, or the refusal with its rule.
 */
export function formatFetch(url: string, outcome: FetchOutcome, style: Style): string {
  const lines: string[] = [];
  if ('denied' in outcome) {
    const denied = { ...deniedInfo(outcome.denied), unreachable: outcome.unreachable };
    lines.push(`${style.red('DENIED')}  ${url}`);
    lines.push(`        ${describeDenied(denied)}`);
    if (denied.reason !== 'redirect-disallowed') lines.push('        nothing was sent to this URL');
    return `${lines.join('\n')}\n`;
  }
  const { response, body } = outcome;
  lines.push(`${label('URL')}${url}`);
  if (response.redirected) lines.push(`${label('Final URL')}${finalUrl(outcome)}`);
  const statusText = response.statusText === '' ? '' : ` ${response.statusText}`;
  const paintStatus = response.status < 400 ? style.green : style.red;
  lines.push(`${label('Status')}${paintStatus(`${response.status}${statusText}`)}`);
  lines.push(`${label('Content-Type')}${response.headers.get('content-type') ?? '-'}`);
  lines.push(
    `${label('Size')}${plural(body.bytes.byteLength, 'byte')}${body.truncated ? ' (stopped reading at the limit)' : ''}`,
  );
  const robots = response.robots;
  const known = robots.rules.filter((rule) => rule.known);
  if (known.length === 0) {
    lines.push(`${label('Robots')}no directives for this agent`);
  } else {
    known.forEach((rule, index) => {
      const value = rule.value === undefined ? '' : `: ${rule.value}`;
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
function describeSource(source: UsageSource): string {
  if (source.kind === 'content-usage-field') return 'Content-Usage header';
  return `robots.txt line ${source.line}: ${quoteLine(source)}`;
}

/**
 * The response's usage preferences, each with the statement(s) that set it; nothing when
 * neither robots.txt nor the `Content-Usage` header states one.
 */
function usageLines(usage: UsagePreferences, style: Style): string[] {
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
