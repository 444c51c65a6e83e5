// Imported first by each entry of the package, before any module that imports undici: undici 8
// fails on an older Node with a stack trace from its own internals, far from the cause. ESM
// evaluates an entry's imports in order, so this check runs before undici is loaded.
import { RobotsUnsupportedNodeError } from '../errors/errors.js';

/** The Node.js versions the package supports (its `engines` range, in words). */
export const SUPPORTED_NODE = '^22.19.0 || ^24.0.0 || ^26.0.0';

/**
 * Whether `version` (`process.version`) is a Node.js this package runs on: 22.19 or later. Lines
 * beyond 26 are let through: the engines range is what CI tests, not a ceiling at run time.
 * @example
 * isSupportedNode('v20.19.0'); // false
 */
export function isSupportedNode(version: string): boolean {
  const match = /^v?(\d+)\.(\d+)\./.exec(version);
  if (match === null) return true; // not Node.js's own format: nothing to judge by
  const major = Number(match[1]);
  const minor = Number(match[2]);
  return major > 22 || (major === 22 && minor >= 19);
}

// Only in Node.js (a bundler's target without `process.versions.node` is not judged here).
const running = globalThis.process?.versions?.node;
if (typeof running === 'string' && !isSupportedNode(running)) {
  throw new RobotsUnsupportedNodeError(`v${running}`, SUPPORTED_NODE);
}
