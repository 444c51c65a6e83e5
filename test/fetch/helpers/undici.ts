/**
 * undici exactly as @polite-crawler/fetch resolves it (the package's own dependency), so that
 * tests build Agents and dispatchers of the same undici the package uses. The repo root does
 * not depend on undici itself.
 */
import { createRequire } from 'node:module';
import type * as Undici from '../../../packages/fetch/node_modules/undici/index.js';

const requireFromFetch = createRequire(
  new URL('../../../packages/fetch/package.json', import.meta.url),
);

export const undici = requireFromFetch('undici') as typeof Undici;
export type { Undici };
