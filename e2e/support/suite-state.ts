import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Rollout } from '@special-gift/shared/api';
import { REMOTES, type RemoteName } from '../../tooling/remotes';
import { buildsInHtml } from './releases';
import { deployBuild, distOf, wwwRoot, type StaticApp } from './nginx';
import { apiSettingsChanged, hostSettingsChanged, isPortOpen, restartApi, restartHost, startApp } from './servers';
import { API_URL, APPS, E2E_OPERATOR_TOKEN, E2E_PORTS, HOST_URL } from './topology';

/**
 * The state every spec of the suite shares and some change: the served apps (stopped to fake an
 * outage), the host's settings (`SERVICE_WORKER=off`), the files at a remote's origin (an image
 * roll), and the API's release pointers and locks. The suite's baseline is every app up with its
 * own build and the default settings, and every remote with no pointer and no lock (its image
 * build). Builds published, tokens minted, sign-ups and telemetry rows stay: they are immutable or
 * keyed by what each test made, so no later test reads them by accident.
 *
 * `restoreSuiteState` puts the baseline back and says what it had to change. It runs when each
 * worker starts (fixtures.ts), and Playwright starts a new worker after every failed or timed-out
 * test, so a test that dies half-way, whatever it left, cannot change what the next test sees.
 * Specs that change this state on purpose call it in their `afterAll` too.
 */
export async function restoreSuiteState(): Promise<string[]> {
  const restored: string[] = [];
  for (const app of APPS) {
    if (await isPortOpen(E2E_PORTS[app])) continue;
    await startApp(app);
    restored.push(`${app} started`);
  }
  if (apiSettingsChanged()) {
    await restartApi({}); // the suite's settings, same database
    restored.push('API settings reset');
  }
  if (hostSettingsChanged() || !servesOwnBuild('host')) {
    await restartHost({}); // the host's files and config, rendered afresh
    restored.push('host settings and files reset');
  }
  for (const remote of REMOTES) {
    if (redeployOwnBuild(remote.name)) restored.push(`${remote.name} files redeployed`);
  }
  const moved: RemoteName[] = [];
  for (const remote of REMOTES) {
    const changes = [...(await abortRollout(remote.name)), ...(await detachRemote(remote.name))];
    if (changes.length > 0) moved.push(remote.name);
    restored.push(...changes);
  }
  if (moved.length > 0) await untilPagesHaveNoPointer(moved);
  return restored;
}

/**
 * Whether every file of the app's build is served as built (a test may deploy another build over a
 * remote, or edit a served file in place: the worker script, a fragment). Files the build has not
 * are left: the entrypoint's config.json, an older build's hashed chunks (an image roll keeps them).
 */
function servesOwnBuild(app: StaticApp): boolean {
  const dist = distOf(app);
  return readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.map'))
    .every((entry) => {
      const relative = join(entry.parentPath, entry.name).slice(dist.length + 1);
      const served = join(wwwRoot(app), relative);
      return existsSync(served) && readFileSync(served).equals(readFileSync(join(dist, relative)));
    });
}

/** The remote's origin serves its own build again if another build's files were deployed over it. */
function redeployOwnBuild(app: RemoteName): boolean {
  if (servesOwnBuild(app)) return false;
  rmSync(wwwRoot(app), { recursive: true, force: true });
  deployBuild(app, distOf(app));
  return true;
}

interface RemoteState {
  revision: number;
  pointer: { live: string; canary: string | null; canaryPercent: number } | null;
  lock: { reason: string } | null;
}

async function operator(path: string, body?: object): Promise<Response> {
  const response = await fetch(`${API_URL}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { Authorization: `Bearer ${E2E_OPERATOR_TOKEN}`, 'Content-Type': 'application/json' },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`suite state: ${path}: ${response.status} ${await response.text()}`);
  return response;
}

/** Ends the remote's rollout, if one is under way: a pointer cannot be detached by hand during one. */
async function abortRollout(remote: RemoteName): Promise<string[]> {
  const { rollouts } = (await (await operator(`/v1/rollouts?remote=${remote}&active=true`)).json()) as {
    rollouts: Rollout[];
  };
  const done: string[] = [];
  for (const rollout of rollouts) {
    await operator(`/v1/rollouts/${rollout.id}/abort`, {
      expectedVersion: rollout.version,
      reason: 'e2e: suite baseline',
    });
    done.push(`${remote}'s rollout ${rollout.id} aborted (${rollout.state})`);
  }
  return done;
}

/** Unlocks the remote and removes its pointer (back to the image build); what it did. */
async function detachRemote(remote: RemoteName): Promise<string[]> {
  const path = `/v1/releases/remotes/${remote}`;
  const state = (await (await operator(path)).json()) as RemoteState;
  const done: string[] = [];
  if (state.lock) {
    await operator(`${path}/unlock`, { reason: 'e2e: suite baseline' });
    done.push(`${remote} unlocked (${state.lock.reason})`);
  }
  if (state.pointer) {
    const { live, canary, canaryPercent } = state.pointer;
    await operator(`${path}/actions`, {
      action: 'detach',
      expectedRevision: state.revision,
      reason: 'e2e: suite baseline',
    });
    done.push(`${remote} detached (live ${live}${canary ? `, canary ${canary} at ${canaryPercent} %` : ''})`);
  }
  return done;
}

/**
 * New pages compose without those remotes' pointers: the host caches the API's snapshot for a
 * second per canary bucket, so a few buckets are read until none names a build.
 */
async function untilPagesHaveNoPointer(remotes: readonly RemoteName[]): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    let clean = true;
    for (const bucket of [0, 19, 50, 99]) {
      const response = await fetch(`${HOST_URL}/`, { headers: { Cookie: `sg_bucket=${bucket}` } });
      const builds = buildsInHtml(await response.text());
      if (remotes.some((remote) => builds[remote] !== undefined)) clean = false;
    }
    if (clean) return;
    if (Date.now() > deadline) throw new Error(`suite state: pages still name a build of ${remotes.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The worker-scoped fixture that restores the baseline when a worker starts: the first worker,
 * every worker after a failure (Playwright discards a worker whose test failed), each project's.
 */
export const suiteBaseline: [
  (args: object, provide: (value: void) => Promise<void>) => Promise<void>,
  { scope: 'worker'; auto: true; timeout: number },
] = [
  // Playwright reads a fixture's dependencies from its first parameter: it must be a pattern.
  // eslint-disable-next-line no-empty-pattern
  async ({}, provide) => {
    const restored = await restoreSuiteState();
    if (restored.length > 0) console.log(`suite state restored before the next tests: ${restored.join('; ')}`);
    await provide();
  },
  { scope: 'worker', auto: true, timeout: 120_000 },
];
