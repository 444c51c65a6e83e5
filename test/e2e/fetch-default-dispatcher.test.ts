/**
 * The dispatcher a polite fetch uses when given none. Run in a process of its own: which
 * dispatcher is global depends on what the process loaded first, and vitest has long since
 * loaded undici here.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProgram } from '../helpers/run-program.js';

const program = fileURLToPath(new URL('./programs/global-fetch-first.ts', import.meta.url));

describe('the default dispatcher', () => {
  it("works after the program used Node's built-in fetch first", async () => {
    const { code, stdout, stderr } = await runProgram(program);
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout) as Record<string, unknown>;
    expect(result).toMatchObject({
      status: 200,
      noindex: true,
      body: '<head><meta name="robots" content="noindex"></head><p>hello</p>',
    });
    // On Node 22 the built-in fetch registered Node's own undici 6 Agent, under the global key
    // undici 6 uses, which undici 8 never hands out: the default is this undici's own Agent.
    // Node 24 (undici 7) and 26 (undici 8) register theirs where undici 8 finds it, and it
    // takes this package's handlers (the request above went through it).
    const major = Number(process.versions.node.split('.')[0]);
    if (major === 22) expect(result.globalIsThisUndici).toBe(true);
  });
});
