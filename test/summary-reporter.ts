/**
 * Ends the run with one plain line, `tests: N passed, N failed[, N skipped]`, that any CI log
 * reader understands, whatever vitest's own summary looks like.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    const skipped = counts.skipped > 0 ? `, ${counts.skipped} skipped` : '';
    const line = `tests: ${counts.passed} passed, ${counts.failed} failed${skipped}`;
    // After vitest's own summary, so that it is the run's closing line.
    process.once('exit', () => process.stdout.write(`\n${line}\n`));
  }
}
