import { RobotsInvalidOptionError } from '../errors/errors.js';
import type { RobotsPolicyOptions } from '../options/option-types.js';
import { PAGE_OPTIONS, POLICY_OPTIONS } from '../options/option-table.js';
import { refuseUnknownOptions } from '../options/known-options.js';
import { robotsPolicyOption } from '../options/validate-option.js';
import { policyOf } from './policy.js';
import type { RobotsPolicy } from './robots-policy.js';

/** The option names each factory that takes policy options (or a `policy`) accepts. */
const KNOWN_OPTIONS = {
  createPoliteFetch: ['policy', ...Object.keys(POLICY_OPTIONS), ...Object.keys(PAGE_OPTIONS)],
  politeInterceptor: ['policy', ...Object.keys(POLICY_OPTIONS)],
} as const;

/**
 * The policy a factory works with: the shared `policy` it was given (then no policy option may
 * be given beside it), or one made from the options, which the factory then owns and closes.
 * Throws {@link RobotsInvalidOptionError} naming the first bad option, or the first key that is
 * not an option of `factory`.
 * @example
 * const { policy, owned } = policyFromOptions(options, 'politeInterceptor');
 */
export function policyFromOptions(
  options: object,
  factory: keyof typeof KNOWN_OPTIONS = 'createPoliteFetch',
): { policy: RobotsPolicy; owned: boolean } {
  if (typeof options !== 'object' || options === null) {
    throw new RobotsInvalidOptionError('options', options, 'an object');
  }
  refuseUnknownOptions(options, KNOWN_OPTIONS[factory], factory);
  const shared: unknown = (options as { policy?: unknown }).policy;
  if (shared === undefined) {
    return { policy: policyOf(options as RobotsPolicyOptions), owned: true };
  }
  const policy = robotsPolicyOption('policy', shared);
  // A policy has its own options: one given beside it would be silently ignored.
  const besides = Object.keys(POLICY_OPTIONS).find(
    (name) => (options as Record<string, unknown>)[name] !== undefined,
  );
  if (besides !== undefined) {
    throw new RobotsInvalidOptionError(
      'policy',
      'RobotsPolicy',
      `either a policy or policy options (${besides}, …), not both: the policy has its own`,
    );
  }
  return { policy, owned: false };
}
