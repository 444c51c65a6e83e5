/** Spawns fleet worker processes (real Node processes, through tsx as a user would run them). */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const workerFile = fileURLToPath(new URL('../fixtures/fleet-worker.ts', import.meta.url));

export interface WorkerLine {
  readonly url?: string;
  readonly status?: number;
  readonly error?: string;
  readonly done?: boolean;
  readonly ready?: boolean;
  readonly events?: string[];
}

export interface Worker {
  readonly child: ChildProcess;
  readonly lines: WorkerLine[];
  /** Resolves with every line once the process exits. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

export function startWorker(config: Record<string, unknown>): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', workerFile], {
    cwd: root,
    env: { ...process.env, FLEET_WORKER: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: WorkerLine[] = [];
  let buffered = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let newline = buffered.indexOf('\n');
    while (newline >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.startsWith('{')) lines.push(JSON.parse(line) as WorkerLine);
      newline = buffered.indexOf('\n');
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { child, lines, exited };
}
