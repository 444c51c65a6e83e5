// The option readers of this package's factories and the adapters' (through the internal
// subpath). Each returns `fallback` for `undefined`, else the value checked, and otherwise throws
// RobotsInvalidOptionError naming the option.
import { RobotsInvalidOptionError } from '../errors/errors.js';
import type { RobotsPolicy } from '../policy/robots-policy.js';

/**
 * An integer option within inclusive `[min, max]`.
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
 * A string option that must be one of `allowed` (the error lists them).
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
 * A boolean option.
 * @example
 * const scanMeta = booleanOption('scanMeta', options.scanMeta, true);
 */
export function booleanOption(name: string, value: unknown, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') throw new RobotsInvalidOptionError(name, value, 'a boolean');
  return value;
}

/**
 * An optional callback option: a function, or `undefined`.
 * @example
 * const onEvent = functionOption('onEvent', options.onEvent); // the function, or undefined
 */
export function functionOption<F>(name: string, value: F | undefined): F | undefined {
  if (value !== undefined && typeof value !== 'function') {
    throw new RobotsInvalidOptionError(name, value, 'a function');
  }
  return value;
}

// Objects are checked by shape, so that one from another copy of a library passes.
const hasMethods = (value: unknown, methods: readonly string[]): boolean =>
  typeof value === 'object' &&
  value !== null &&
  methods.every((method) => typeof (value as Record<string, unknown>)[method] === 'function');

/**
 * An object option checked by shape (each of `methods` a function); `fallback` when left out.
 * `expected` says what it must be, in the error.
 * @example
 * shaped<Clock, Clock>(['now', 'sleep'], 'an object with now() and sleep(ms, signal)', systemClock);
 */
export function shaped<T, D extends T | undefined = undefined>(
  methods: readonly string[],
  expected = `an object with ${methods.slice(0, -1).join(', ')} and ${methods.at(-1)} methods`,
  fallback: D = undefined as D,
): { readonly default: D; readonly read: (name: string, value: unknown) => T | D } {
  return {
    default: fallback,
    read: (name, value) => {
      if (value === undefined) return fallback;
      if (!hasMethods(value, methods)) throw new RobotsInvalidOptionError(name, value, expected);
      return value as T;
    },
  };
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
 * A {@link RobotsPolicy} option (required): anything shaped like one from `createRobotsPolicy()`.
 * @example
 * const policy = robotsPolicyOption('policy', options.policy);
 */
export function robotsPolicyOption(name: string, value: unknown): RobotsPolicy {
  const policy = value as RobotsPolicy;
  if (
    !hasMethods(value, POLICY_METHODS) ||
    typeof policy.userAgent !== 'string' ||
    typeof policy.productToken !== 'string'
  ) {
    throw new RobotsInvalidOptionError(name, value, 'a RobotsPolicy from createRobotsPolicy()');
  }
  return policy;
}
