import type { RobotsPolicy, RobotsPolicyOptions } from '@polite-crawler/fetch';
import { createRobotsPolicy, isRobotsInvalidOptionError } from '@polite-crawler/fetch';
import type { CliAgent } from './agent.js';
import { CliError } from './cli-error.js';

/** Policy options the commands choose themselves (pacing, timeouts, events): all but the identity. */
export type CliPolicySettings = Omit<RobotsPolicyOptions, 'userAgent' | 'productToken' | 'purpose'>;

/**
 * The robots policy for a command: the agent's identity and the command's settings (pacing,
 * timeouts, a fleet's store and pacer). An option the policy rejects is a usage error (exit
 * code 2).
 */
export function createCliPolicy(agent: CliAgent, settings: CliPolicySettings = {}): RobotsPolicy {
  try {
    return createRobotsPolicy({
      userAgent: agent.userAgent,
      productToken: agent.productToken,
      ...(agent.purpose === undefined ? {} : { purpose: agent.purpose }),
      ...settings,
    });
  } catch (error) {
    if (isRobotsInvalidOptionError(error))
      throw CliError.usage(`invalid option ${error.option}`, error.message);
    throw error;
  }
}
