import { RobotsInvalidOptionError } from '@polite-crawler/fetch';
import type { RobotsPolicy } from '@polite-crawler/fetch';
import { BOUNDS, DEFAULTS } from './defaults.js';
import type { GateEvent, PlaywrightGateOptions } from './types.js';

/** Gate options after validation, every default applied. */
export interface ResolvedGateOptions {
  readonly policy: RobotsPolicy;
  readonly maxRedirects: number;
  readonly userAgent: 'policy' | 'browser';
  readonly pace: 'all' | 'documents';
  readonly metas: 'served' | 'rendered' | 'both';
  readonly maxHeadBytes: number;
  readonly onEvent: ((event: GateEvent) => void) | undefined;
}

const POLICY_METHODS = ['check', 'schedule', 'noteResponse', 'directives'] as const;

function integerIn(name: keyof typeof BOUNDS, value: number | undefined): number {
  const [min, max] = BOUNDS[name];
  if (value === undefined) return DEFAULTS[name];
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new RobotsInvalidOptionError(name, value, `an integer from ${min} to ${max}`);
  }
  return value;
}

function oneOf<T extends string>(
  name: string,
  value: T | undefined,
  allowed: readonly T[],
  fallback: T,
): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value)) {
    throw new RobotsInvalidOptionError(
      name,
      value,
      `one of ${allowed.map((v) => `'${v}'`).join(', ')}`,
    );
  }
  return value;
}

/**
 * Validates {@link PlaywrightGateOptions} once, naming the bad option, and applies defaults.
 * @example
 * resolveGateOptions({ policy, maxRedirects: 5 }).pace; // 'all'
 */
export function resolveGateOptions(options: PlaywrightGateOptions): ResolvedGateOptions {
  if (typeof options !== 'object' || options === null) {
    throw new RobotsInvalidOptionError('options', options, 'an object with a policy');
  }
  const { policy } = options;
  const isPolicy =
    typeof policy === 'object' &&
    policy !== null &&
    POLICY_METHODS.every(
      (method) => typeof (policy as unknown as Record<string, unknown>)[method] === 'function',
    ) &&
    typeof policy.userAgent === 'string';
  if (!isPolicy) {
    throw new RobotsInvalidOptionError(
      'policy',
      policy,
      'a RobotsPolicy from createRobotsPolicy()',
    );
  }
  if (options.onEvent !== undefined && typeof options.onEvent !== 'function') {
    throw new RobotsInvalidOptionError('onEvent', options.onEvent, 'a function');
  }
  return {
    policy,
    maxRedirects: integerIn('maxRedirects', options.maxRedirects),
    userAgent: oneOf('userAgent', options.userAgent, ['policy', 'browser'], DEFAULTS.userAgent),
    pace: oneOf('pace', options.pace, ['all', 'documents'], DEFAULTS.pace),
    metas: oneOf('metas', options.metas, ['served', 'rendered', 'both'], DEFAULTS.metas),
    maxHeadBytes: integerIn('maxHeadBytes', options.maxHeadBytes),
    onEvent: options.onEvent,
  };
}
