import { spawn, type ChildProcess } from 'node:child_process';
import { openSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../tooling/serve/local-topology';
import { API_URL, E2E_PORTS, HOST_URL, STATE_DIR } from './topology';

/** The gate runner's credential in the suite (the API is restarted with the same). */
export const E2E_GATE_RUNNER_TOKEN = 'e2e-gate-runner-token-0123456789abcdefghijklmn';
/** Its health port: beside the suite's block, so it never meets a running `npm run up`. */
const HEALTH_PORT = E2E_PORTS.monolith + 1;

/** Where the gate runner works: the API it claims jobs from, the host it opens, its log file. */
export interface GateRunnerTarget {
  readonly apiUrl: string;
  readonly hostUrl: string;
  readonly logFile: string;
}

/**
 * The gate runner as `npm run up` runs it (gate-runner/src/main.ts): it claims the API's gate
 * jobs and runs them in Debian's Chromium against the host: the suite's by default, its log in `.e2e/`.
 */
export function startGateRunner(
  target: GateRunnerTarget = { apiUrl: API_URL, hostUrl: HOST_URL, logFile: join(STATE_DIR, 'gate-runner.log') },
): ChildProcess {
  const log = openSync(target.logFile, 'a');
  return spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'gate-runner', 'src', 'main.ts')], {
    cwd: REPO_ROOT,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      API_URL: target.apiUrl,
      GATE_RUNNER_TOKEN: E2E_GATE_RUNNER_TOKEN,
      GATE_HOST_URL: target.hostUrl,
      GATE_POLL_SECONDS: '1',
      GATE_HEALTH_PORT: String(HEALTH_PORT),
    },
  });
}

export async function stopGateRunner(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
