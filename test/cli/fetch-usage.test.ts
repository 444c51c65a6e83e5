/**
 * `polite fetch` shows the response's usage preferences (IETF AIPREF): robots.txt's
 * `Content-Usage` / `Content-Signal` rules for the URL combined with the page's `Content-Usage`
 * header, each with the statement that set it, in the text report and in `--json`.
 */
import type { FetchJson } from '@polite-crawler/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callCli, parseJson } from './helpers/run-cli.js';
import { routes, send, startServer } from '../helpers/recording-server.js';
import type { RecordingServer } from '../helpers/recording-server.js';

const ROBOTS = `User-agent: *
Allow: /
Content-Usage: train-ai=n
Content-Usage: /open/ train-ai=y, search=y
Content-Signal: /open/ ai-train=no, ai-input=yes
`;

let site: RecordingServer;

beforeAll(async () => {
  site = await startServer(
    routes({
      '/robots.txt': send(ROBOTS, 'text/plain'),
      '/open/page': send('open', 'text/plain', { 'content-usage': 'search=n, genai=n' }),
      '/header-only': send('h', 'text/plain', { 'content-usage': 'train-ai=y' }),
    }),
  );
});

afterAll(async () => {
  await site.close();
});

const fetchAsExampleBot = (path: string, flags: readonly string[] = []) =>
  callCli(['fetch', `${site.origin}${path}`, '--agent', 'ExampleBot', ...flags]);

describe('fetch: usage preferences', () => {
  it('prints each preference with the robots.txt line or header that set it', async () => {
    const result = await fetchAsExampleBot('/open/page');
    expect(result.code, result.stderr).toBe(0);
    const usage = result.stdout.slice(result.stdout.indexOf('Usage'));
    expect(usage).toBe(
      [
        'Usage         train-ai: disallowed (robots.txt line 5: Content-Signal: /open/ ai-train=no, ai-input=yes)',
        '              ai-use: allowed (robots.txt line 5: Content-Signal: /open/ ai-train=no, ai-input=yes)',
        '              search: disallowed (Content-Usage header)',
        '              genai: n (not a vocabulary category, Content-Usage header)',
        '',
      ].join('\n'),
    );
  });

  it('the most restrictive statement wins: robots.txt says n, the header y', async () => {
    const result = await fetchAsExampleBot('/header-only');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(
      'Usage         train-ai: disallowed (robots.txt line 3: Content-Usage: train-ai=n)\n' +
        '              ai-use: unknown\n' +
        '              search: unknown\n',
    );
  });

  it('carries the preferences and their sources in --json', async () => {
    const json = parseJson<FetchJson>(await fetchAsExampleBot('/open/page', ['--json']));
    const signal = {
      kind: 'content-signal-rule',
      line: 5,
      pattern: '/open/',
      text: 'Content-Signal: /open/ ai-train=no, ai-input=yes',
    };
    expect(json.response?.usage).toEqual({
      'train-ai': 'disallowed',
      'ai-use': 'allowed',
      search: 'disallowed',
      sources: {
        'train-ai': [signal],
        'ai-use': [signal],
        search: [{ kind: 'content-usage-field' }],
      },
      extensions: [{ label: 'genai', value: 'n', source: { kind: 'content-usage-field' } }],
    });
  });
});
