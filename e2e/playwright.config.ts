import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tooling/chromium';
import { selectedEngines } from './support/engines/driver';
import type { EngineOptions } from './support/engines/fixtures';
import { HOST_URL } from './support/topology';

/**
 * Cross-engine specs with a twin for every check in e2e/tests (the Chromium project):
 * accessibility (tests/accessibility), journey (tests/sign-up-journey, tests/prerender), phone
 * (tests/phone-accessibility) and release (tests/releases).
 */
const CHROMIUM_PROJECT_TWINS = /[\\/](accessibility|journey|phone|release)\.spec\.ts$/;

export default defineConfig<EngineOptions>({
  // One worker: the tests share the served apps and some stop and start them.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  // Twice what the slowest default-timeout tests (axe on every overlay) take with one of the two
  // cores kept busy: a slower machine must not turn a passing test into a timeout (issue 38).
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // The list as it goes, then the 15 slowest tests (where the minutes go).
  // An absolute path: the stack's and kube's configs spread this one from their own folders.
  reporter: [['list'], [join(__dirname, 'support', 'slowest-reporter.ts')]],
  globalSetup: './support/global-setup.ts',
  globalTeardown: './support/global-teardown.ts',
  outputDir: '../test-results',
  use: {
    ...devices['Pixel 7'],
    browserName: 'chromium',
    baseURL: HOST_URL,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    // Playwright's routes do not see what a service worker answers, and many specs inject failures
    // with routes: the offline worker runs in e2e/tests/offline.spec.ts, which allows it.
    serviceWorkers: 'block',
  },
  projects: [
    // The full suite (chaos matrix, releases, performance...), in Chromium.
    { name: 'chromium', testDir: './tests' },
    // The cross-engine suite (docs/browsers.md): the same checks in each engine SG_ENGINES names.
    ...selectedEngines().map((engine) => ({
      name: `engines:${engine}`,
      testDir: './engines',
      use: { engine },
      // Specs whose every check the Chromium project already makes in Chromium (docs/testing.md,
      // "Not twice in Chromium"): only Firefox and WebKit need them from this suite.
      ...(engine === 'chromium' && { testIgnore: CHROMIUM_PROJECT_TWINS }),
    })),
  ],
});
