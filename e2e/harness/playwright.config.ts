import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../tooling/chromium';
import { HOST_URL } from '../support/topology';

/**
 * The suite's own harness under test (e2e/tests/suite-harness.spec.ts runs this): a test that
 * changes every kind of shared state and then times out, and after it a test that must see the
 * suite's baseline. It uses the servers the suite already runs (no global set-up of its own).
 */
export default defineConfig({
  testDir: '.',
  testMatch: /\d\d-.*\.spec\.ts$/,
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  reporter: [['json']],
  outputDir: '../../test-results/harness',
  use: {
    baseURL: HOST_URL,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    serviceWorkers: 'block',
  },
});
