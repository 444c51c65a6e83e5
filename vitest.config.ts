import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const pkg = (name: string, entry = 'index'): string =>
  fileURLToPath(new URL(`./packages/${name}/src/${entry}.ts`, import.meta.url));

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
    include: ['test/**/*.test.ts'],
    exclude: ['test/bench/**', '**/node_modules/**'],
    reporters: ['default', './test/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
