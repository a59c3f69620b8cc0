import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { REPO_ROOT } from '../../tooling/serve/local-topology';
import { nginxCommand, prepareNginx } from './nginx';
import {
  API_DATA_DIR,
  BUILD_STORE_DIR,
  E2E_OPERATOR_TOKEN,
  E2E_PAGE_TOKEN_KEY,
  E2E_PORTS,
  STATE_DIR,
  type AppName,
} from './topology';

const pidFile = (app: AppName) => join(STATE_DIR, `${app}.pid`);

/** The API runs its build as in production and `npm run serve`; the static apps run in nginx (see nginx.ts). */
function commandFor(app: AppName): { command: string; args: string[]; cwd: string; env: NodeJS.ProcessEnv } {
  if (app === 'api') {
    return {
      command: process.execPath,
      args: ['dist/main.js'],
      cwd: join(REPO_ROOT, 'api'),
      // The suite signs up far more often than one person; the limit itself is tested in api/.
      env: {
        ...process.env,
        PORT: String(E2E_PORTS.api),
        HOST: '127.0.0.1',
        API_DATA_DIR,
        SIGN_UPS_PER_MINUTE: '0',
        // Every page the suite loads comes from one address; the per-address limit is tested in api/.
        PAGE_TOKENS_PER_MINUTE: '0',
        TELEMETRY_BATCHES_PER_MINUTE: '0',
        OPERATOR_TOKEN: E2E_OPERATOR_TOKEN,
        PAGE_TOKEN_KEY: E2E_PAGE_TOKEN_KEY,
        // The release state beside the builds, as `npm run up` writes it (tests/release-state.spec.ts).
        RELEASE_STATE_STORE: BUILD_STORE_DIR,
        // The settings a spec restarted the API with (restartApi), as an operator's redeploy sets them.
        ...apiSettings(),
      },
    };
  }
  // The host's nginx signs page tokens with the API's key (its nginx.conf's `env PAGE_TOKEN_KEY`).
  return { ...nginxCommand(app), cwd: REPO_ROOT, env: { ...process.env, PAGE_TOKEN_KEY: E2E_PAGE_TOKEN_KEY } };
}

/** Whether something accepts connections on the port (loopback). */
export function isPortOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    socket.once('connect', () => socket.end(() => resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const API_START_TIMEOUT_MS = 90_000;

async function waitForPort(port: number, open: boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await isPortOpen(port)) === open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`port ${port} did not ${open ? 'open' : 'close'} within ${timeoutMs} ms`);
}

function isRunning(app: AppName): boolean {
  const file = pidFile(app);
  if (!existsSync(file)) return false;
  try {
    process.kill(Number(readFileSync(file, 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

/** Starts one app as a detached process (its own server, as in production) and waits for its port. */
export async function startApp(app: AppName): Promise<void> {
  if (isRunning(app)) return;
  mkdirSync(STATE_DIR, { recursive: true });
  const { command, args, cwd, env } = commandFor(app);
  const log = openSync(join(STATE_DIR, `${app}.log`), 'a');
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', log, log] });
  child.unref();
  writeFileSync(pidFile(app), String(child.pid));
  // The API's first start creates its database (PGlite's initdb): tens of seconds on a busy machine.
  await waitForPort(E2E_PORTS[app], true, app === 'api' ? API_START_TIMEOUT_MS : undefined);
}

/** Stops one app (as if its server went down) and waits until its port refuses connections. */
export async function stopApp(app: AppName): Promise<void> {
  const file = pidFile(app);
  if (!existsSync(file)) return;
  const pid = Number(readFileSync(file, 'utf8'));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name); // the whole process group: the API, or nginx and its workers
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  rmSync(file, { force: true });
  try {
    await waitForPort(E2E_PORTS[app], false, 5_000);
  } catch {
    signal('SIGKILL');
    await waitForPort(E2E_PORTS[app], false);
  }
}

/**
 * The host's server restarted with these operator settings (its image's environment, e.g.
 * `SERVICE_WORKER=off`), as an operator's redeploy does; `{}` restores the suite's defaults.
 */
export async function restartHost(settings: Record<string, string>): Promise<void> {
  await stopApp('host');
  prepareNginx('host', settings);
  await startApp('host');
  // Kept in a file, so a later worker (suite-state.ts) knows the host still runs other settings.
  if (Object.keys(settings).length === 0) rmSync(HOST_SETTINGS, { force: true });
  else writeFileSync(HOST_SETTINGS, JSON.stringify(settings));
}

export const HOST_SETTINGS = join(STATE_DIR, 'host-settings.json');
const API_SETTINGS = join(STATE_DIR, 'api-settings.json');

const apiSettings = (): Record<string, string> =>
  existsSync(API_SETTINGS) ? (JSON.parse(readFileSync(API_SETTINGS, 'utf8')) as Record<string, string>) : {};

/**
 * The API restarted with these settings over the suite's (`ROLLOUT_TICK_SECONDS=1`), as an
 * operator's redeploy does; `{}` restores the suite's. Its database is kept.
 */
export async function restartApi(settings: Record<string, string>): Promise<void> {
  await stopApp('api');
  // Kept in a file, so a later worker (suite-state.ts) knows the API still runs other settings.
  if (Object.keys(settings).length === 0) rmSync(API_SETTINGS, { force: true });
  else writeFileSync(API_SETTINGS, JSON.stringify(settings));
  await startApp('api');
}

/** Whether the API runs other settings than the suite's (restartApi was left half-way). */
export const apiSettingsChanged = () => existsSync(API_SETTINGS);

/** Whether the host runs other settings than the suite's defaults (restartHost was left half-way). */
export const hostSettingsChanged = () => existsSync(HOST_SETTINGS);
