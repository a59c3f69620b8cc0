import { defineConfig } from '@playwright/test';
import browserSuite from '../playwright.config';
import { HOST_URL } from '../stack/stack';

/**
 * The played development overlay (tooling/deployment/kubernetes/play.sh): the browser suite's settings
 * against the host pod's published port (SG_HOST_PORT, as for the compose stack). The play
 * script starts and removes the pods.
 */
export default defineConfig({
  ...browserSuite,
  testDir: '.',
  testMatch: '*.spec.ts',
  // One project here: the suite's projects name its own folders (tests/, engines/).
  projects: [{ name: 'chromium' }],
  timeout: 120_000,
  expect: { timeout: 15_000 },
  globalSetup: undefined,
  globalTeardown: undefined,
  outputDir: '../../test-results/kube',
  use: { ...browserSuite.use, baseURL: HOST_URL },
});
