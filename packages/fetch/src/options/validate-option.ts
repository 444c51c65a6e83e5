import { RobotsInvalidOptionError } from '../errors/errors.js';
import type { RobotsPolicy } from '../policy/robots-policy.js';

/**
 * An integer option within inclusive `[min, max]`; `fallback` when `undefined`. Throws
 * {@link RobotsInvalidOptionError} naming the option otherwise. For factories (this package's
 * and the adapters') that validate their options once.
 * @example
 * const maxRedirects = integerOption('maxRedirects', options.maxRedirects, OPTION_BOUNDS.maxRedirects, DEFAULTS.maxRedirects);
 */
export function integerOption(
  name: string,
  value: unknown,
  bounds: readonly [min: number, max: number],
  fallback: number,
): number {
  if (value === undefined) return fallback;
  const [min, max] = bounds;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RobotsInvalidOptionError(name, value, `an integer from ${min} to ${max}`);
  }
  return value;
}

/**
 * A string option that must be one of `allowed`; `fallback` when `undefined`. Throws
 * {@link RobotsInvalidOptionError} naming the option and listing the allowed values otherwise.
 * @example
 * const pace = oneOfOption('pace', options.pace, ['all', 'documents'], 'all'); // 'all' | 'documents'
 */
export function oneOfOption<const T extends string>(
  name: string,
  value: unknown,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw new RobotsInvalidOptionError(
      name,
      value,
      `one of ${allowed.map((a) => `'${a}'`).join(', ')}`,
    );
  }
  return value as T;
}

/**
 * A boolean option; `fallback` when `undefined`. Throws {@link RobotsInvalidOptionError}
 * naming the option otherwise.
 * @example
 * const scanMeta = booleanOption('scanMeta', options.scanMeta, true);
 */
export function booleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new RobotsInvalidOptionError(name, value, 'a boolean');
  return value;
}

/**
 * An optional callback option: returned as it is when it is a function or `undefined`. Throws
 * {@link RobotsInvalidOptionError} naming the option otherwise.
 * @example
 * const onEvent = functionOption('onEvent', options.onEvent); // the function, or undefined
 */
export function functionOption<F>(name: string, value: F | undefined): F | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new RobotsInvalidOptionError(name, value, 'a function');
  }
  return value;
}

/** Every method of a {@link RobotsPolicy}. */
const POLICY_METHODS = [
  'check',
  'assertAllowed',
  'enter',
  'explain',
  'peek',
  'prefetch',
  'schedule',
  'noteResponse',
  'directives',
  'forget',
  'close',
] as const satisfies readonly (keyof RobotsPolicy)[];

/**
 * A {@link RobotsPolicy} option: anything shaped like one from `createRobotsPolicy()` (checked
 * by shape, so that a policy from another copy of this package passes). Throws
 * {@link RobotsInvalidOptionError} naming the option otherwise.
 * @example
 * const policy = robotsPolicyOption('policy', options.policy);
 */
export function robotsPolicyOption(name: string, value: unknown): RobotsPolicy {
  const isPolicy =
    typeof value === 'object' &&
    value !== null &&
    POLICY_METHODS.every(
      (method) => typeof (value as Record<string, unknown>)[method] === 'function',
    ) &&
    typeof (value as RobotsPolicy).userAgent === 'string' &&
    typeof (value as RobotsPolicy).productToken === 'string';
  if (!isPolicy) {
    throw new RobotsInvalidOptionError(name, value, 'a RobotsPolicy from createRobotsPolicy()');
  }
  return value as RobotsPolicy;
}
