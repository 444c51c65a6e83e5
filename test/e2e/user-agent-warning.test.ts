// A `userAgent` without an http(s):// URL: one process warning with a documented code, raised
// once per process (each case runs in a fresh Node process).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const program = fileURLToPath(new URL('./programs/user-agent-warning.ts', import.meta.url));

interface Printed {
  readonly code: string;
  readonly warnings: readonly { name: string; code: string | undefined; message: string }[];
}

function run(agents: readonly string[]): Promise<Printed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', program, JSON.stringify(agents)], {
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => {
      try {
        resolve(JSON.parse(stdout) as Printed);
      } catch (error) {
        reject(new Error(`not JSON: ${stdout}`, { cause: error }));
      }
    });
  });
}

describe('a userAgent without a URL', () => {
  it('raises POLITE_CRAWLER_UA_NO_URL once per process, however many policies use it', async () => {
    const { code, warnings } = await run(['ExampleBot/1.0', 'ExampleBot/1.0', 'OtherBot/2.0']);
    expect(code).toBe('POLITE_CRAWLER_UA_NO_URL');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ name: 'PoliteCrawlerWarning', code });
    expect(warnings[0]!.message).toContain('"ExampleBot/1.0"');
    expect(warnings[0]!.message).toContain('ExampleBot/1.0 (+https://example.com/bot)');
  });

  it('http:// and https:// URLs, in any case, raise nothing', async () => {
    const { warnings } = await run([
      'ExampleBot/1.0 (+https://example.com/bot)',
      'ExampleBot/1.0 (+http://example.com/bot.html)',
      'ExampleBot/1.0 (compatible; +HTTPS://EXAMPLE.COM/bot)',
    ]);
    expect(warnings).toEqual([]);
  });
});
