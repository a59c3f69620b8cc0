import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * Prints the suite's 15 slowest tests at the end, with their project, so whoever adds tests sees
 * where the minutes go (docs/testing.md). Hooks and fixtures count in the test they ran for.
 */
export default class SlowestTestsReporter implements Reporter {
  private readonly durations: { title: string; ms: number; status: string }[] = [];

  onTestEnd(test: TestCase, result: TestResult): void {
    const [, project, file] = test.titlePath();
    const title = `[${project}] ${file}:${test.location.line} ${test.title}`;
    this.durations.push({ title, ms: result.duration, status: result.status });
  }

  onEnd(result: FullResult): void {
    const slowest = [...this.durations].sort((a, b) => b.ms - a.ms).slice(0, 15);
    const total = this.durations.reduce((sum, { ms }) => sum + ms, 0);
    console.log(
      `\nThe 15 slowest tests (of ${this.durations.length}, ${(total / 60_000).toFixed(1)} min in tests; run ${result.status}):`,
    );
    for (const { title, ms, status } of slowest)
      console.log(`  ${(ms / 1000).toFixed(1).padStart(6)} s  ${status === 'passed' ? '' : `${status}  `}${title}`);
  }

  printsToStdio(): boolean {
    return false;
  }
}
