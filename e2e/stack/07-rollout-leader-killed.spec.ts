// A rollout in the compose stack (docs/rollouts.md, "The runner"): both API replicas run the
// runner, one leads at a time on a lease row in PostgreSQL. The leader is killed while the rollout
// is at its first step; the other replica takes the lease over and finishes the rollout, every
// step applied once, on signed page views from real pages. The gates run in the stack's own
// gate-runner service (its image's Chromium), as they would in any deployment of the stack.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Rollout } from '@special-gift/shared/api';
import { distWithAppendedEntry } from '../support/build-variant';
import { CANARY_BUCKET, LIVE_BUCKET, Visitors } from '../support/page-views';
import {
  candidateMoves,
  gateSeconds,
  JOURNEY_MOVES,
  JOURNEY_PLAN,
  untilRollout,
  type OperatorApi,
} from '../support/rollouts';
import { publishSignup, releaseTool } from './faults';
import {
  API_URL,
  HOST_URL,
  REPO_ROOT,
  containerLog,
  containers,
  healthy,
  inspect,
  podman,
  psql,
  waitUntil,
} from './stack';

const api: OperatorApi = { url: API_URL, token: process.env.SG_OPERATOR_TOKEN ?? '' };

/** The API replica whose runner holds the lease: its container, by the holder's host name. */
async function leader(): Promise<{ container: string; holder: string; epoch: number }> {
  const row = await psql(
    'SELECT holder, epoch FROM rollout_leases WHERE expires_at > now() ORDER BY epoch DESC LIMIT 1',
  );
  const [holder = '', epoch = '0'] = row.split('|');
  for (const container of await containers('api')) {
    if (holder.startsWith(`${await inspect(container, '{{.Config.Hostname}}')}:`))
      return { container, holder, epoch: Number(epoch) };
  }
  throw new Error(`no API replica holds the rollout lease (holder "${holder}")`);
}

let scratch: string;
let visitors: Visitors | undefined;
/** The replica the test killed, started again whatever happens. */
let killedReplica: string | undefined;

async function startAgain(container: string): Promise<void> {
  await podman('start', container);
  await waitUntil(`${container} to be healthy again`, () => healthy(container), 60_000, 1_000);
}

test.beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'sg-stack-rollout-'));
});

test.afterAll(async () => {
  await visitors?.close();
  if (killedReplica) await startAgain(killedReplica);
  // Leaves the stack as the other tests expect it: no rollout under way, the image's own build.
  try {
    releaseTool('rollout', 'abort', 'signup', '--reason', 'stack rollout test done');
  } catch {
    // Finished already: nothing to abort.
  }
  releaseTool('detach', 'signup', '--reason', 'stack rollout test done');
  rmSync(scratch, { recursive: true, force: true });
});

test('the leading API replica killed at a rollout step: the other replica takes the lease and finishes the rollout, each step once', async ({
  browser,
}) => {
  test.setTimeout(480_000);
  const live = publishSignup('remote-signup/dist');
  releaseTool('release', 'signup', live, '--reason', 'stack rollout test: the live build');
  const candidateDir = distWithAppendedEntry(
    join(REPO_ROOT, 'remote-signup', 'dist'),
    '\n/* stack rollout test: a good build */\n',
  );
  const candidate = publishSignup(candidateDir);
  rmSync(candidateDir, { recursive: true, force: true });
  const planFile = join(scratch, 'plan.json');
  writeFileSync(planFile, JSON.stringify(JOURNEY_PLAN));

  const gatesFrom = new Date().toISOString();
  const started = JSON.parse(
    releaseTool('rollout', 'signup', candidate, '--plan', planFile, '--reason', 'stack: leader killed', '--json'),
  ) as Rollout;
  const stepping = await untilRollout(started.id, (detail) => detail.state === 'stepping', 240_000, undefined, api);
  expect(stepping.gates.map((gate) => [gate.gate, gate.state])).toEqual([
    ['contract', 'passed'],
    ['integrity', 'passed'],
    ['acceptance', 'passed'],
  ]);
  // Run by the stack's gate-runner service: its log names each gate of this candidate.
  const [runner = ''] = await containers('gate-runner');
  const runnerLog = await containerLog(runner, gatesFrom);
  for (const gate of ['integrity', 'acceptance'])
    expect(runnerLog).toContain(`the ${gate} of signup ${candidate} (rollout ${started.id}): passed`);

  // SIGKILL through the engine: unlike 03-resilience's kill from outside it, this counts as
  // stopped by the user, so no restart policy brings the replica back: the other must finish.
  const killed = await leader();
  killedReplica = killed.container;
  await podman('kill', '--signal', 'KILL', killed.container);
  const killedAt = Date.now();
  console.log(
    `stack rollout: gates in ${gateSeconds(stepping).toFixed(1)} s; leader ${killed.container} killed at step ${stepping.stepIndex + 1}`,
  );

  visitors = new Visitors(browser, HOST_URL);
  const views = visitors;
  await views.view({ bucket: CANARY_BUCKET, count: 20 });
  await views.view({ bucket: LIVE_BUCKET, count: 20 });
  const done = await untilRollout(
    started.id,
    (detail) => detail.state === 'succeeded',
    300_000,
    () => views.view({ bucket: CANARY_BUCKET, count: 2 }),
    api,
  );
  const takenOver = await leader();
  console.log(
    `stack rollout: finished by ${takenOver.container} ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the kill (lease epoch ${killed.epoch} -> ${takenOver.epoch})`,
  );
  // The other replica holds the lease, on a later epoch (the fence against the dead one's ticks).
  expect(takenOver.container).not.toBe(killed.container);
  expect(takenOver.epoch).toBeGreaterThan(killed.epoch);

  // Each step once, in order, by the runner alone, across the two leaders; then the promote.
  expect(await candidateMoves('signup', candidate, api)).toEqual(JOURNEY_MOVES);
  expect(done.events.map((event) => event.seq)).toEqual(done.events.map((_, index) => index + 1));
  expect(done.events.filter((event) => event.kind === 'step').map((event) => event.percent)).toEqual([1, 5, 25, 50]);

  // Back for the tests after this one: started again, and healthy.
  await startAgain(killed.container);
  killedReplica = undefined;
});
