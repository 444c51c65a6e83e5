/** Runs an example program of examples/ and matches the lines it prints (examples tests). */
import { fileURLToPath } from 'node:url';
import { runProgram } from '../helpers/run-program.js';
import type { ProgramRun } from '../helpers/run-program.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const ORIGIN = String.raw`http://127\.0\.0\.1:\d+`;

/** Runs examples/`name`/main.ts from the repository's root, with `env` added. */
export const runExample = (name: string, env: Record<string, string> = {}): Promise<ProgramRun> =>
  runProgram(`examples/${name}/main.ts`, { cwd: root, env });

/** Lines matching `pattern` (written with ORIGIN for the local site's origin). */
export const line = (pattern: string): RegExp =>
  new RegExp(`^${pattern.replaceAll('ORIGIN', ORIGIN)}$`, 'm');
