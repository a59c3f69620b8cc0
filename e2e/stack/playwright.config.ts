import { defineConfig } from '@playwright/test';
import browserSuite from '../playwright.config';
import { HOST_URL } from './stack';

/**
 * The stack tests: the browser suite's settings (one worker, Chromium on a phone), against the
 * compose stack that the global set-up starts (stack.sh removes it afterwards).
 */
export default defineConfig({
  ...browserSuite,
  testDir: '.',
  testMatch: '*.spec.ts',
  // One project here: the suite's projects name its own folders (tests/, engines/).
  projects: [{ name: 'chromium' }],
  // Longer than the suite's: the tests kill, stop and roll containers and build an image.
  timeout: 120_000,
  expect: { timeout: 15_000 },
  globalSetup: './global-setup.ts',
  globalTeardown: undefined,
  outputDir: '../../test-results/stack',
  use: { ...browserSuite.use, baseURL: HOST_URL },
});
