import { booleanOption, integerOption, oneOfOption } from './validate-option.js';

/** Options read before this one, by name (`productToken` must appear in `userAgent`). */
type Earlier = Readonly<Record<string, unknown>>;

/**
 * One row of the option table (`option-table.ts`): how an option is read, written once. An
 * integer has a default and inclusive bounds (and may be one of a pair: `atMost` names the
 * option it may not exceed); a string has a default and the values allowed; a boolean has a
 * default; anything else reads itself. `DEFAULTS`, `OPTION_BOUNDS`, validation, the resolved
 * types and the README's options table derive from the table.
 * @example
 * const minInterval: OptionSpec = { default: 1_000, bounds: [0, 3_600_000] };
 */
export type OptionSpec<Option extends string = string> =
  | {
      readonly default: number;
      readonly bounds: readonly [min: number, max: number];
      /**
       * The option of a pair this one may not exceed. Of the two, the one left out defaults to
       * what fits the one given (a lower `robotsMaxTtl` lowers the default `robotsMinTtl`); two
       * given that contradict each other are refused, naming the lower one.
       */
      readonly atMost?: Option;
    }
  | { readonly default: string; readonly allowed: readonly string[] }
  | { readonly default: boolean }
  | {
      readonly default?: unknown;
      /** The value: the default when `value` is `undefined`, else `value` checked. */
      readonly read: (name: string, value: unknown, earlier: Earlier) => unknown;
    };

/**
 * The value of one option: its default when `value` is `undefined`, else `value` checked against
 * `spec`. Throws {@link RobotsInvalidOptionError} naming the option.
 * @example
 * readOption('minInterval', { default: 1_000, bounds: [0, 3_600_000] }, undefined); // 1000
 */
export function readOption<Spec extends OptionSpec>(
  name: string,
  spec: Spec,
  value: unknown,
  earlier: Earlier = {},
): ValueOf<Spec> {
  const row: OptionSpec = spec;
  if ('read' in row) return row.read(name, value, earlier) as ValueOf<Spec>;
  if ('bounds' in row) return integerOption(name, value, row.bounds, row.default) as ValueOf<Spec>;
  if ('allowed' in row) return oneOfOption(name, value, row.allowed, row.default) as ValueOf<Spec>;
  return booleanOption(name, value, row.default) as ValueOf<Spec>;
}

/** The type an option of `Spec` has once read. */
export type ValueOf<Spec> = Spec extends { read: (...args: never[]) => infer T }
  ? T
  : Spec extends { bounds: unknown }
    ? number
    : Spec extends { allowed: readonly (infer T)[] }
      ? T
      : boolean;
