/**
 * The undici the tests build Agents with: the root's own devDependency, the same copy
 * @polite-crawler/fetch resolves. Kept for the benchmark's import; tests import `undici` by name.
 */
import * as undici from 'undici';

export { undici };
export type * as Undici from 'undici';
