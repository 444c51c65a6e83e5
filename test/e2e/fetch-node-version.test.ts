/**
 * A user's program on a Node.js older than 22.19 importing @polite-crawler/fetch gets a clear,
 * typed error naming the Node it needs, thrown before undici is loaded — not a stack trace from
 * inside undici. A real child process on such a Node: the first `node` on the system's path (or
 * PATH) older than 22.19. The built entry is imported, as a user's program does.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const entry = join(root, 'packages/fetch/dist/index.js');
const program = fileURLToPath(new URL('./programs/import-on-old-node.mjs', import.meta.url));

/** The first `node` binary found whose version is below 22.19, if any. */
function olderNode(): string | undefined {
  const dirs = ['/usr/bin', '/usr/local/bin', ...(process.env.PATH ?? '').split(delimiter)];
  for (const dir of dirs) {
    const candidate = join(dir, 'node');
    if (!existsSync(candidate)) continue;
    const version = execFileSync(candidate, ['-p', 'process.versions.node']).toString().trim();
    const [major = 0, minor = 0] = version.split('.').map(Number);
    if (major < 22 || (major === 22 && minor < 19)) return candidate;
  }
  return undefined;
}

const node = olderNode();

describe('on a Node.js older than 22.19', () => {
  // Runs where such a Node is installed (CI's machine ships Node 20); skipped, and so reported,
  // elsewhere.
  it.skipIf(node === undefined)(
    'importing the package throws RobotsUnsupportedNodeError first',
    () => {
      expect(existsSync(entry), 'packages/fetch/dist: run `pnpm run build` first').toBe(true);
      const run = spawnSync(node!, [program, entry], {
        encoding: 'utf8',
        env: { ...process.env, NODE_OPTIONS: '' },
      });
      expect(run.status, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as Record<string, string | boolean>;
      const running = execFileSync(node!, ['-p', 'process.version']).toString().trim();
      expect(result).toMatchObject({
        loaded: false,
        name: 'RobotsUnsupportedNodeError',
        code: 'ERR_ROBOTS_UNSUPPORTED_NODE',
        running,
        required: '^22.19.0 || ^24.0.0 || ^26.0.0',
      });
      expect(result.message).toContain(`this is Node.js ${running}`);
      // Thrown by the package's own check, before any of undici's modules ran.
      expect(result.stack).toContain('node-version.js');
      expect(result.stack).not.toContain('undici');
    },
  );
});

describe('the supported versions', () => {
  it('22.19 is the first, 22.18 is refused; later lines pass', async () => {
    const { isSupportedNode } = await import('../../packages/fetch/src/runtime/node-version.js');
    expect(isSupportedNode('v22.18.9')).toBe(false);
    expect(isSupportedNode('v22.19.0')).toBe(true);
    expect(isSupportedNode('v20.20.2')).toBe(false);
    expect(isSupportedNode('v24.0.0')).toBe(true);
    expect(isSupportedNode('v26.10.0')).toBe(true);
    expect(isSupportedNode('v27.0.0')).toBe(true);
  });
});
