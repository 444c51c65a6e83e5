// @polite-crawler/cli as a user installs it: the `polite` bin of the installed package, run with
// this Node, checks and fetches URLs of the site.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSite } from './site.mjs';

const manifestUrl = import.meta.resolve('@polite-crawler/cli/package.json');
const manifest = JSON.parse(readFileSync(new URL(manifestUrl), 'utf8')) as {
  version: string;
  bin: { polite: string };
};
const bin = fileURLToPath(new URL(manifest.bin.polite, manifestUrl));

/** Runs the bin without blocking this process's event loop (the site answers from it). */
function polite(...args: string[]): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout }));
  });
}

const site = await startSite();
try {
  const version = await polite('--version');
  assert.equal(version.stdout.trim(), manifest.version);

  const check = await polite(
    'check',
    `${site.origin}/a`,
    `${site.origin}/private/x`,
    '--agent',
    'ExampleBot',
  );
  assert.equal(check.status, 1, check.stdout); // exit 1: a URL is denied
  assert.match(check.stdout, /Disallow: \/private\//);

  const fetched = await polite('fetch', `${site.origin}/meta`, '--agent', 'ExampleBot');
  assert.equal(fetched.status, 0, fetched.stdout);
  assert.ok(!site.requested.includes('/private/x'), 'the refused URL was requested');
  console.log('ok cli: polite --version, check (exit 1, rule cited), fetch (exit 0)');
} finally {
  await site.close();
}
