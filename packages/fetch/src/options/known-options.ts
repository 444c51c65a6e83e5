import { RobotsInvalidOptionError } from '../errors/errors.js';

/**
 * Refuses the first key of `options` that is not in `known`: in plain JavaScript a misspelt
 * option (`minIntervall`) would otherwise be ignored and its default silently used. The error
 * names the key and, when one is close, the known option it probably meant.
 * @example
 * refuseUnknownOptions({ minIntervall: 250 }, ['minInterval'], 'createRobotsPolicy');
 * // throws: Invalid option: minIntervall (not an option of createRobotsPolicy; did you mean minInterval?; got 250)
 */
export function refuseUnknownOptions(
  options: object,
  known: readonly string[],
  factory: string,
): void {
  for (const [key, value] of Object.entries(options)) {
    if (known.includes(key)) continue;
    throw new RobotsInvalidOptionError(key, value, `not an option of ${factory}`, {
      suggestion: closestName(key, known),
    });
  }
}

/**
 * The name in `names` closest to `name` (case-insensitive edit distance, a swap of two
 * neighbours counting as one edit), when it is within a third of `name`'s length (at least 1).
 * @example
 * closestName('concurency', ['concurrency', 'clock']); // 'concurrency'
 */
export function closestName(name: string, names: readonly string[]): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of names) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance: insertions, deletions, substitutions, adjacent swaps. */
function editDistance(a: string, b: string): number {
  // Three rows suffice: the swap looks two rows back.
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, before[j - 2]! + 1);
      row.push(value);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}
