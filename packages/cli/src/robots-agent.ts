import type { Agent } from '@polite-crawler/robots-txt';
import type { CliAgent } from './agent.js';

/**
 * The robots-txt `Agent` for a validated CLI agent.
 *
 * @example
 * ```ts
 * toRobotsAgent({ productToken: 'ExampleBot', purpose: 'search', userAgent: 'ExampleBot (search)' });
 * // { productToken: 'ExampleBot', purpose: 'search' }
 * ```
 */
export function toRobotsAgent(agent: CliAgent): Agent {
  return agent.purpose === undefined
    ? agent.productToken
    : { productToken: agent.productToken, purpose: agent.purpose };
}
