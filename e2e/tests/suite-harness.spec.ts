import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../tooling/serve/local-topology';
import { expect, test } from '../support/fixtures';

interface JsonReport {
  suites: { file: string; specs: { title: string; tests: { results: { status: string }[] }[] }[] }[];
}

/**
 * No test leaks state into another (docs/testing.md): the harness's own run, with a test that
 * changes every kind of shared state and times out, then a test that checks the baseline.
 */
test('a test that leaves shared state changed and times out does not change what the next test sees', async () => {
  test.setTimeout(180_000);
  const run = spawnSync(
    process.execPath,
    [
      join(REPO_ROOT, 'node_modules', '@playwright', 'test', 'cli.js'),
      'test',
      '--config',
      'e2e/harness/playwright.config.ts',
    ],
    { cwd: REPO_ROOT, encoding: 'utf8', env: process.env, maxBuffer: 64 * 1024 * 1024, timeout: 170_000 },
  );
  const report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as JsonReport;
  const statuses = Object.fromEntries(
    report.suites.flatMap((suite) =>
      suite.specs.map((spec) => [suite.file, spec.tests[0]?.results.map((result) => result.status).join()]),
    ),
  );
  console.log(
    `harness run: ${JSON.stringify(statuses)}; restored: ${/suite state restored[^\n\\]*/.exec(run.stdout)?.[0]}`,
  );
  expect(statuses).toEqual({
    '01-leaks-then-times-out.spec.ts': 'timedOut',
    '02-sees-the-baseline.spec.ts': 'passed',
  });
  expect(run.status, 'the harness run fails (its first test timed out)').toBe(1);
});
