import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { run } from '@polite-crawler/cli';

/** The built bin, run the way a user runs it. */
export const BIN = fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url));

/** What one run of the bin produced. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runCli} and {@link callCli}. */
export interface RunCliOptions {
  /** Extra environment variables; `NO_COLOR`, `FORCE_COLOR` and `TERM` are removed unless given here. */
  readonly env?: Readonly<Record<string, string>>;
  /** The bin's working directory ({@link runCli} only: a call runs in the test's). */
  readonly cwd?: string;
}

/** This process's environment without the variables that change the CLI's output, then `extra`. */
function cliEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !['NO_COLOR', 'FORCE_COLOR', 'TERM', 'POLITE_DEBUG'].includes(key)) {
      env[key] = value;
    }
  }
  return Object.assign(env, extra);
}

/**
 * Runs the command line `args` in this process, through the CLI's exported `run(argv, io)` (what
 * the bin calls) with stdout and stderr captured as pipes are (no terminal: no colours, no
 * progress line) and the environment {@link runCli} gives the bin. The same result as the bin's
 * for what `run` decides (output, exit code) without a Node process started for each case; the
 * bin's own part (a process's exit code, pipes, a terminal, signals) is {@link runCli}'s.
 */
export async function callCli(
  args: readonly string[],
  options: Omit<RunCliOptions, 'cwd'> = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, {
    stdout: { write: (chunk: string) => (stdout += chunk) },
    stderr: { write: (chunk: string) => (stderr += chunk) },
    env: cliEnv(options.env),
  });
  return { code, stdout, stderr };
}

/**
 * Spawns `node packages/cli/dist/bin.js ...args` with pipes for stdout and stderr (so that
 * the bin sees no terminal) and resolves when it exits.
 */
export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  if (!existsSync(BIN)) {
    throw new Error(
      `${BIN} is missing: build first (pnpm --filter @polite-crawler/cli... run build)`,
    );
  }
  const env = cliEnv(options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Parses stdout as JSON, failing the test with stdout and stderr when it is not. */
export function parseJson<T>(result: CliResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(
      `stdout is not JSON\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
    );
  }
}

/** `ESC [` — any colour or cursor sequence. */
export const ESCAPE = '\u001b[';
