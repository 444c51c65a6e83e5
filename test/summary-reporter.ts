/**
 * Ends the run with one plain line, `tests: N passed, N failed[, N skipped][, N files failed
 * to load]`, that any CI log reader understands, whatever vitest's own summary looks like. A
 * file that fails before its tests are collected (a syntax error) has no tests to count, so
 * it is counted on its own: otherwise the line would say `0 failed` for a broken file.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    let unloaded = 0;
    for (const module of testModules) {
      if (module.errors().length > 0) unloaded++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : '';
    const files =
      unloaded > 0 ? `, ${unloaded} file${unloaded === 1 ? '' : 's'} failed to load` : '';
    const line = `tests: ${counts.passed} passed, ${counts.failed} failed${skipped}${files}`;
    // After vitest's own summary, so that it is the run's closing line.
    process.once('exit', () => process.stdout.write(`\n${line}\n`));
  }
}
