import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The built bin, run the way a user runs it. */
export const BIN = fileURLToPath(new URL('../../../packages/cli/dist/bin.js', import.meta.url));

/** What one run of the bin produced. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of {@link runCli}. */
export interface RunCliOptions {
  /** Extra environment variables; `NO_COLOR`, `FORCE_COLOR` and `TERM` are removed unless given here. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
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
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !['NO_COLOR', 'FORCE_COLOR', 'TERM', 'POLITE_DEBUG'].includes(key)) {
      env[key] = value;
    }
  }
  Object.assign(env, options.env);
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
