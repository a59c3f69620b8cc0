import { defineConfig, devices } from '@playwright/test';

/** Debian's Chromium (Playwright's own browser download is not available here). */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const args = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export default defineConfig({
  testDir: './tests',
  // One worker: the tests share the served apps and some stop and start them.
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  globalSetup: './support/global-setup.ts',
  globalTeardown: './support/global-teardown.ts',
  outputDir: '../test-results',
  use: {
    ...devices['Pixel 7'],
    browserName: 'chromium',
    baseURL: 'http://localhost:4300',
    launchOptions: { executablePath, args },
    trace: 'retain-on-failure',
  },
});
