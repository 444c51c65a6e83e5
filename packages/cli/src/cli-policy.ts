import type { RobotsPolicy, RobotsPolicyOptions, RobotsStore } from '@polite-crawler/fetch';
import { createRobotsPolicy, isRobotsInvalidOptionError } from '@polite-crawler/fetch';
import type { CliAgent } from './agent.js';
import { CliError } from './cli-error.js';

/** Policy options the commands choose themselves (pacing, events). */
export type CliPolicySettings = Pick<
  RobotsPolicyOptions,
  | 'minInterval'
  | 'maxCrawlDelay'
  | 'concurrency'
  | 'onEvent'
  | 'robotsTimeout'
  | 'robotsHeadersTimeout'
  | 'robotsBodyTimeout'
  | 'dispatcher'
  | 'pacer'
>;

/**
 * The robots policy for a command: the agent's identity, a store the command can read
 * robots.txt bodies back from, and the command's pacing. An option the policy rejects is a
 * usage error (exit code 2).
 *
 * @example
 * ```ts
 * const policy = createCliPolicy(agent, createCaptureStore(64), { minInterval: 0 });
 * ```
 */
export function createCliPolicy(
  agent: CliAgent,
  store: RobotsStore,
  settings: CliPolicySettings = {},
): RobotsPolicy {
  try {
    return createRobotsPolicy({
      userAgent: agent.userAgent,
      productToken: agent.productToken,
      ...(agent.purpose === undefined ? {} : { purpose: agent.purpose }),
      store,
      ...settings,
    });
  } catch (error) {
    if (isRobotsInvalidOptionError(error))
      throw CliError.usage(`invalid option ${error.option}`, error.message);
    throw error;
  }
}
