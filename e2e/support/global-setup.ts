import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { REMOTES } from '../../tooling/remotes';
import { REPO_ROOT } from '../../tooling/serve/local-topology';
import { HOST_SETTINGS, startApp, stopApp } from './servers';
import { distOf, prepareNginx } from './nginx';
import { API_DATA_DIR, APPS, BUILD_STORE_DIR, STATE_DIR } from './topology';

/**
 * Serves the production builds as they run in production: host and three remotes, each in its own
 * nginx on its own origin with the images' nginx config, and the API. Also the monolith baseline,
 * with the host's nginx config, for the bytes budget.
 */
export default async function globalSetup(): Promise<void> {
  for (const dir of ['host', ...REMOTES.map((remote) => remote.dir)]) {
    if (!existsSync(join(REPO_ROOT, dir, 'dist')))
      throw new Error(`${dir}/dist is missing: run "npm run build" before the e2e suite`);
  }
  if (!existsSync(distOf('monolith')))
    throw new Error('The monolith baseline is missing: run "npm run build:baseline" before the e2e suite');
  for (const app of APPS) await stopApp(app);
  rmSync(API_DATA_DIR, { recursive: true, force: true });
  rmSync(BUILD_STORE_DIR, { recursive: true, force: true });
  rmSync(HOST_SETTINGS, { force: true });
  mkdirSync(STATE_DIR, { recursive: true });
  for (const app of APPS) if (app !== 'api') prepareNginx(app);
  for (const app of APPS) await startApp(app);
}
