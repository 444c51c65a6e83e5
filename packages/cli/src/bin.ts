#!/usr/bin/env node
import { run } from './run.js';

// A closed pipe (`polite crawl … | head`) is a normal way for a reader to stop listening.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
}

const code = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
});
process.exitCode = code;
// Everything the commands open is closed before run() resolves; this only guards against a
// stray keep-alive socket holding the process open after the work is done.
setTimeout(() => process.exit(code), 2_000).unref();
