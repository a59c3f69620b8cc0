import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../tooling/serve/local-topology';
import { startApp, stopApp } from './servers';
import { API_DATA_DIR, APPS, CONFIG_FILE, e2eRuntimeConfig, STATE_DIR } from './topology';

/** Serves the production builds: host, three remotes on their own origins, and the API. */
export default async function globalSetup(): Promise<void> {
  for (const dir of ['host', 'remote-intro', 'remote-signup', 'remote-thankyou']) {
    if (!existsSync(join(REPO_ROOT, dir, 'dist'))) throw new Error(`${dir}/dist is missing: run "npm run build" before the e2e suite`);
  }
  for (const app of APPS) await stopApp(app);
  rmSync(API_DATA_DIR, { recursive: true, force: true });
  mkdirSync(STATE_DIR, { recursive: true });
  writeFileSync(CONFIG_FILE, JSON.stringify(e2eRuntimeConfig(), null, 2));
  for (const app of APPS) await startApp(app);
}
