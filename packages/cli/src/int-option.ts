import { InvalidArgumentError } from 'commander';

/**
 * A commander argument parser for an integer option between `min` and `max`; anything else
 * is a usage error naming the accepted range.
 *
 * @example
 * ```ts
 * command.option('--max-pages <n>', 'pages to fetch', intOption(1, 100_000), 50);
 * ```
 */
export function intOption(min: number, max: number): (value: string) => number {
  return (value) => {
    if (!/^\d+$/.test(value.trim()))
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    const parsed = Number(value.trim());
    if (!Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    }
    return parsed;
  };
}
