import { appendFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/** Lines of each failure's error kept for the summary: the assertion and its first frames. */
const ERROR_LINES = 14;
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

/**
 * Prints the suite's 15 slowest tests at the end, with their project, so whoever adds tests sees
 * where the minutes go (docs/testing.md). Hooks and fixtures count in the test they ran for.
 *
 * With SG_FAILURE_SUMMARY set (verify.sh sets it), each failed test's title and the head of its
 * error are appended to that file, which verify prints last: CI keeps only the tail of a run's
 * output, and the container logs a failed stack run prints would otherwise push them out of it.
 */
export default class SlowestTestsReporter implements Reporter {
  private readonly durations: { title: string; ms: number; status: string }[] = [];
  private readonly failures: string[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    const [, project, file] = test.titlePath();
    const title = `[${project}] ${file}:${test.location.line} ${test.title}`;
    this.durations.push({ title, ms: result.duration, status: result.status });
    if (result.status === test.expectedStatus) return;
    const errors = result.errors.map((error) =>
      (error.message ?? error.value ?? String(error))
        .replace(ANSI, '')
        .split('\n')
        .slice(0, ERROR_LINES)
        .map((line) => `      ${line}`)
        .join('\n'),
    );
    this.failures.push(`  ${result.status} (try ${result.retry + 1}): ${title}\n${errors.join('\n      --\n')}`);
  }

  onEnd(result: FullResult): void {
    const slowest = [...this.durations].sort((a, b) => b.ms - a.ms).slice(0, 15);
    const total = this.durations.reduce((sum, { ms }) => sum + ms, 0);
    console.log(
      `\nThe 15 slowest tests (of ${this.durations.length}, ${(total / 60_000).toFixed(1)} min in tests; run ${result.status}):`,
    );
    for (const { title, ms, status } of slowest)
      console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${status === 'passed' ? '' : `${status}  `}${title}`);
    const summary = process.env.SG_FAILURE_SUMMARY;
    if (summary && this.failures.length > 0) appendFileSync(summary, `${this.failures.join('\n')}\n`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
