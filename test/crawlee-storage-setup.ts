/**
 * A setup file for every test file: Crawlee's default storage folder is ./storage under the
 * working directory, and a crawler purges its default request queue there when it starts. Two
 * test files running at once (two vitest workers, one working directory) would purge each other's
 * queue mid-crawl. Each file gets a folder of its own through CRAWLEE_STORAGE_DIR, which Crawlee
 * reads when it opens its storage, removed after the file. A test of what a user sees in ./storage
 * unsets it (test/crawlee/polite-crawler.test.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'polite-crawler-crawlee-storage-'));
process.env.CRAWLEE_STORAGE_DIR = dir;

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
