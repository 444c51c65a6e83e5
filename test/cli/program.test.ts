import { readFileSync } from 'node:fs';
import { ExitCode } from '@polite-crawler/cli';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

const { version } = JSON.parse(
  readFileSync(new URL('../../packages/cli/package.json', import.meta.url), 'utf8'),
) as { version: string };

describe('polite', () => {
  it('prints its version', async () => {
    const result = await runCli(['--version']);
    expect(result).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('prints help with every command and the exit codes', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['check', 'explain', 'lint', 'fetch', 'crawl', 'demo']) {
      expect(result.stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'));
    }
    expect(result.stdout).toContain('Exit codes:');
    expect(result.stdout).toContain(`  ${ExitCode.lintErrors}   lint: errors`);
  });

  it('prints a command’s help', async () => {
    const result = await runCli(['help', 'crawl']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('--max-pages <n>');
    expect(result.stdout).toContain('--concurrency <n>');
  });

  it('shows the help on stderr and exits 2 without a command', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: polite [options] [command]');
  });

  it('rejects an unknown command in one line, with a suggestion', async () => {
    const result = await runCli(['chek']);
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr: "polite: unknown command 'chek' (Did you mean check?)\n",
    });
  });

  it('never prints a stack trace', async () => {
    const results = await Promise.all([
      runCli(['lint', '/definitely/not/here']),
      runCli(['check', 'http://[::1', '--agent', 'A']),
      runCli(['explain', 'https://example.org/', '--agent', 'A', '--robots', '/']),
      runCli(['crawl', 'nope', '--agent', 'A']),
      runCli(['fetch', 'https://example.org/', '--agent', '']),
    ]);
    for (const result of results) {
      expect(result.stderr).toMatch(/^polite: [^\n]+\n$/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
      expect([ExitCode.usage, ExitCode.input]).toContain(result.code);
    }
  });
});
