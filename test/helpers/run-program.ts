/**
 * Runs a TypeScript program in a Node process of its own (through tsx), as a user would run it,
 * and collects what it printed. For behaviour that depends on what a fresh process loads
 * first, and for the examples.
 */
import { spawn } from 'node:child_process';

export interface ProgramRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `file` (relative to `cwd`, or absolute) to its end.
 * @example
 * const { code, stdout } = await runProgram('examples/fetch-crawler/main.ts', { cwd: root });
 */
export function runProgram(
  file: string,
  options: { readonly cwd?: string; readonly env?: Readonly<Record<string, string>> } = {},
): Promise<ProgramRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file], {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: { ...process.env, NODE_OPTIONS: '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
