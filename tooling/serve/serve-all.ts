/**
 * `npm run serve`: the built apps on the README's ports (host 3000, remotes 3001-3003), the
 * reference API on 3004 (its build, api/dist) and the rollouts' gate runner (docs/rollouts.md), each
 * in its own process so one can be restarted alone.
 * Every child is Node itself, not a launcher that spawns Node in turn, so a signal reaches the
 * server; and each child stops when this process goes away, even by `kill -9` (`--exit-with-parent`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { exitWithParent } from '../process/exit-with-parent';
import { readOrCreateOperatorToken, readOrCreateToken } from '../../release-cli/src/operator-token';
import { buildStorePath } from '../../release-cli/src/store/open-store';
import { REMOTES } from '../remotes';
import { LOCAL_PORTS, REPO_ROOT } from './local-topology';

const children: ChildProcess[] = [];

function run(name: string, args: string[], cwd = REPO_ROOT, env: NodeJS.ProcessEnv = process.env) {
  const child = spawn(process.execPath, [...args, '--exit-with-parent'], {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    env,
  });
  child.on('exit', (code, signal) => {
    if (!shuttingDown) {
      console.error(`${name} stopped (${signal ?? code}); stopping everything.`);
      shutdown(1);
    }
  });
  children.push(child);
}

let shuttingDown = false;
function shutdown(code: number) {
  if (shuttingDown) return;
  shuttingDown = true;
  process.exitCode = code;
  children.forEach((child) => child.kill('SIGTERM'));
  // Exit once every child has (the API closes its database first); never hang on one.
  Promise.all(
    children.map((child) =>
      child.exitCode !== null || child.signalCode !== null
        ? undefined
        : new Promise((resolve) => child.once('exit', resolve)),
    ),
  ).then(
    () => process.exit(),
    () => process.exit(),
  );
  setTimeout(() => process.exit(code), 15_000).unref();
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));
exitWithParent(() => shutdown(0));

// The teams' token for releases and the field report (docs/releases.md): this checkout's own, kept
// in .data/operator-token, which `npm run release` and `npm run telemetry` read too.
// The API writes the release state into the build store's folder, where the host reads it: a
// page's builds then need no API (docs/releases.md, "Release state").
// The gate runner's own credential, kept in .data/gate-runner-token: it claims and answers gates,
// nothing else. It and the API's contract gate see the host as browsers do, on localhost.
const gateRunnerToken =
  process.env.GATE_RUNNER_TOKEN ?? readOrCreateToken(join(REPO_ROOT, '.data', 'gate-runner-token'));
const hostUrl = `http://localhost:${LOCAL_PORTS.host}`;
run('api', ['dist/main.js'], join(REPO_ROOT, 'api'), {
  ...process.env,
  OPERATOR_TOKEN: process.env.OPERATOR_TOKEN ?? readOrCreateOperatorToken(REPO_ROOT),
  RELEASE_STATE_STORE: process.env.RELEASE_STATE_STORE ?? buildStorePath(REPO_ROOT, process.env),
  GATE_RUNNER_TOKEN: gateRunnerToken,
  ROLLOUT_HOST_URL: process.env.ROLLOUT_HOST_URL ?? hostUrl,
});
for (const app of [...REMOTES.map((remote) => remote.name), 'host'])
  run(app, ['--import', 'tsx', join(__dirname, 'serve-app.ts'), app]);
// It waits for the API and the host itself: a gate it cannot run yet stays pending.
run('gate-runner', ['--import', 'tsx', join(REPO_ROOT, 'gate-runner', 'src', 'main.ts')], REPO_ROOT, {
  ...process.env,
  API_URL: `http://127.0.0.1:${LOCAL_PORTS.api}`,
  GATE_RUNNER_TOKEN: gateRunnerToken,
  GATE_HOST_URL: process.env.GATE_HOST_URL ?? hostUrl,
});
console.log(`Special Gift: open http://localhost:${LOCAL_PORTS.host} (Ctrl+C stops everything)`);
