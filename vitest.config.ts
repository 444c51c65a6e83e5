import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import type { TestProjectInlineConfiguration } from 'vitest/config';

const pkg = (name: string, entry = 'index'): string =>
  fileURLToPath(new URL(`./packages/${name}/src/${entry}.ts`, import.meta.url));

/**
 * Files that each run alone, after every other file, as they did when the suite ran one file at
 * a time. Those that assert on real elapsed time (arrival gaps at a site, lease renewals on
 * Redis's own clock): a second file beside them would take CPU from the processes whose pacing
 * they measure, and a request granted on time would reach the site late. The Crawlee pacing files,
 * whose crawlers have a real one-second navigation timeout that a page must not reach (a retry
 * fails them). And the fleet example's paced run. Everything else waits on sockets, processes and
 * browsers with time injected, so two files at once overlap: the other examples, and Redis files
 * that assert no elapsed time (robots-entry: bytes and size limits, every timeout at its 30 s
 * default), run with them. Each group start costs a worker's start-up and the file's imports with
 * nothing beside them, so a file here must need it.
 */
const ALONE = [
  'test/examples/fleet-pacing.test.ts',
  'test/redis/cli-crawl.test.ts',
  'test/redis/cluster.test.ts',
  'test/redis/faults.test.ts',
  'test/redis/fleet-backoff.test.ts',
  'test/redis/fleet-processes.test.ts',
  'test/redis/key-loss.test.ts',
  'test/redis/pacer.test.ts',
  'test/redis/robots-store.test.ts',
  'test/cli/crawl.test.ts',
  'test/crawlee/queue-pacing.test.ts',
  'test/crawlee/playwright-pacing.test.ts',
];

/** One project per file of ALONE, each in a group of its own: vitest runs groups one by one. */
const alone: TestProjectInlineConfiguration[] = ALONE.map((file, index) => ({
  extends: true,
  test: {
    name: file.replace(/^test\//, '').replace(/\.test\.ts$/, ''),
    include: [file],
    sequence: { groupOrder: index + 1 },
  },
}));

export default defineConfig({
  resolve: {
    // Tests run against the sources; test/smoke covers the built output.
    alias: [
      { find: /^@polite-crawler\/([a-z-]+)$/, replacement: pkg('$1') },
      // The adapters' and the CLI's way into the fetch package's internals.
      { find: /^@polite-crawler\/([a-z-]+)\/internal$/, replacement: pkg('$1', 'internal') },
    ],
  },
  test: {
    exclude: ['test/bench/**', '**/node_modules/**'],
    reporters: ['default', './test/summary-reporter.ts'],
    setupFiles: ['./test/crawlee-storage-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // vitest's default is one worker fewer than the cores: one on a two-core CI machine, which
    // leaves a core idle while a file waits on a socket, a child process or a browser.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ALONE },
      },
      ...alone,
    ],
  },
});
