import type {
  ContentUsageVerdict,
  UsageCategory,
  UsageSource,
  Verdict,
} from '@polite-crawler/robots-txt';
import type { CliAgent } from './agent.js';
import type { LoadedRobots, RobotsTxtInfo } from './robots-source.js';
import { toRobotsAgent } from './robots-agent.js';
import type { UrlVerdict, UsageInfo } from './url-verdict.js';

/**
 * Turns a robots-txt {@link Verdict} into the CLI's {@link UrlVerdict}, quoting the group and
 * rule lines with `line`.
 *
 * @example
 * ```ts
 * const verdict = toUrlVerdict(url, robots.explain(url, 'ExampleBot'), { robotsTxt, line, crawlDelay: null, stale: false });
 * ```
 */
export function toUrlVerdict(
  url: string,
  verdict: Verdict,
  context: {
    readonly robotsTxt: RobotsTxtInfo;
    readonly line: (n: number) => string | undefined;
    readonly crawlDelay: number | null;
    readonly stale: boolean;
    readonly usage?: ContentUsageVerdict;
  },
): UrlVerdict {
  const text = (n: number): string | null => context.line(n)?.trim() ?? null;
  return {
    url,
    allowed: verdict.allowed,
    reason: verdict.reason,
    selection: verdict.selection,
    groups: verdict.groupLines.map((line) => ({ line, text: text(line) })),
    groupCount: verdict.groups.length,
    rule:
      verdict.rule === undefined
        ? null
        : {
            kind: verdict.rule.kind,
            pattern: verdict.rule.pattern,
            line: verdict.rule.line,
            text: text(verdict.rule.line),
          },
    path: verdict.path,
    stale: context.stale,
    crawlDelay: context.crawlDelay,
    usage: context.usage === undefined ? null : usageInfo(context.usage, text),
    robotsTxt: context.robotsTxt,
  };
}

const lineOf = (source: UsageSource): number | null => ('line' in source ? source.line : null);

/**
 * The CLI's view of a robots-txt {@link ContentUsageVerdict}, quoting rule lines with `text`.
 *
 * @example
 * ```ts
 * usageInfo(robots.explainContentUsage(url, 'ExampleBot'), () => null)['train-ai'];
 * ```
 */
export function usageInfo(
  verdict: ContentUsageVerdict,
  text: (n: number) => string | null,
): UsageInfo {
  const { preferences } = verdict;
  const lines = (category: UsageCategory): number[] =>
    preferences.sources[category].map(lineOf).filter((line): line is number => line !== null);
  return {
    'train-ai': preferences['train-ai'],
    'ai-use': preferences['ai-use'],
    search: preferences.search,
    reason: verdict.reason,
    lines: { 'train-ai': lines('train-ai'), 'ai-use': lines('ai-use'), search: lines('search') },
    rules: verdict.rules.map((rule) => ({
      kind: rule.kind,
      pattern: rule.pattern,
      value: rule.value,
      line: rule.line,
      text: text(rule.line),
    })),
    extensions: preferences.extensions.map((extension) => ({
      label: extension.label,
      value: extension.value,
      line: lineOf(extension.source),
    })),
  };
}

/**
 * The verdict of a robots.txt read with `--robots` for one URL.
 *
 * @example
 * ```ts
 * const loaded = await loadRobots('./robots.txt', agent.userAgent);
 * verdictFromRobots(loaded, new URL('https://example.com/private'), agent).allowed;
 * ```
 */
export function verdictFromRobots(loaded: LoadedRobots, url: URL, agent: CliAgent): UrlVerdict {
  const robotsAgent = toRobotsAgent(agent);
  return toUrlVerdict(url.href, loaded.robots.explain(url, robotsAgent), {
    robotsTxt: loaded.info,
    line: loaded.line,
    crawlDelay: loaded.robots.crawlDelay(robotsAgent) ?? null,
    stale: false,
    usage: loaded.robots.explainContentUsage(url, robotsAgent),
  });
}
