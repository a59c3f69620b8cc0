import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReleaseHistoryEntry, RolloutDetail, RolloutPlan } from '@special-gift/shared/api';
import { FINISHED_ROLLOUT_STATES } from '@special-gift/shared/api';
import { E2E_GATE_RUNNER_TOKEN } from './gate-runner';
import { API_URL, E2E_OPERATOR_TOKEN, HOST_URL, STATE_DIR } from './topology';

/**
 * The API's rollout settings in the journey (docs/rollouts.md): a tick a second, dwells of
 * seconds, and a rule sized for tens of page views instead of hundreds. Set through the
 * configuration production reads, never a code path of the tests' own. The margins are wide so
 * that 20 page views per arm can prove "no harm beyond the margin"; the errors' τ is sized for a
 * rise from 0 to 100 %, which 10 page views then prove.
 */
export const ROLLOUT_RULE_SETTINGS: Record<string, string> = {
  ROLLOUT_TICK_SECONDS: '1',
  ROLLOUT_LEASE_SECONDS: '3',
  ROLLOUT_MIN_STEP_DWELL_SECONDS: '2',
  ROLLOUT_GATE_CLAIM_SECONDS: '60',
  ROLLOUT_MIN_VIEWS: '10',
  ROLLOUT_MAX_DWELL_MINUTES: '1',
  ROLLOUT_ERROR_MARGIN: '0.5',
  ROLLOUT_ERROR_TAU: '0.3',
  ROLLOUT_VITAL_MARGIN: '0.75',
  ROLLOUT_VITAL_TAU: '0.3',
};

/** The suite's API for its rollouts: those settings, its host, the gate runner's credential. */
export const ROLLOUT_SETTINGS: Record<string, string> = {
  ...ROLLOUT_RULE_SETTINGS,
  ROLLOUT_HOST_URL: HOST_URL,
  GATE_RUNNER_TOKEN: E2E_GATE_RUNNER_TOKEN,
  // The pages' networks come from the host's X-Forwarded-For (restarted with REAL_IP_FROM).
  TRUSTED_PROXIES: '127.0.0.1',
};

/** Four steps of two seconds each, two fresh signed page views each: the plan a team's file holds. */
export const JOURNEY_PLAN: RolloutPlan = {
  steps: [1, 5, 25, 50].map((percent) => ({ percent, minDwell: '2s' })),
  promote: { approval: false },
  minNewViewsPerStep: 2,
  lowTraffic: 'advance',
};

export function writePlan(plan: RolloutPlan): string {
  const file = join(STATE_DIR, 'rollout-plan.json');
  writeFileSync(file, JSON.stringify(plan));
  return file;
}

/** An API and the operator token it is read with: the suite's, or the compose stack's. */
export interface OperatorApi {
  readonly url: string;
  readonly token: string;
}
const SUITE_API: OperatorApi = { url: API_URL, token: E2E_OPERATOR_TOKEN };

async function operatorGet<T>(path: string, api: OperatorApi): Promise<T> {
  const response = await fetch(`${api.url}${path}`, { headers: { Authorization: `Bearer ${api.token}` } });
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export const rolloutDetail = (id: string, api: OperatorApi = SUITE_API) =>
  operatorGet<RolloutDetail>(`/v1/rollouts/${id}`, api);

export const remoteHistory = async (remote: string, api: OperatorApi = SUITE_API) =>
  (await operatorGet<{ history: ReleaseHistoryEntry[] }>(`/v1/releases/remotes/${remote}`, api)).history;

/** A candidate's pointer moves in the remote's history, in order: `canary 5 rollout runner`, `promote rollout runner`. */
export async function candidateMoves(
  remote: string,
  candidate: string,
  api: OperatorApi = SUITE_API,
): Promise<string[]> {
  return (await remoteHistory(remote, api))
    .filter((entry) => entry.revision > 0 && entry.buildId === candidate)
    .sort((a, b) => a.revision - b.revision)
    .map((entry) =>
      [entry.action, entry.action === 'canary' ? entry.canaryPercent : null, entry.actor]
        .filter((part) => part !== null)
        .join(' '),
    );
}

/** What {@link JOURNEY_PLAN} leaves in the history: each step once, in order, by the runner alone; then the promote. */
export const JOURNEY_MOVES = [
  'canary 1 rollout runner',
  'canary 5 rollout runner',
  'canary 25 rollout runner',
  'canary 50 rollout runner',
  'promote rollout runner',
];

export const isFinished = (detail: RolloutDetail) =>
  (FINISHED_ROLLOUT_STATES as readonly string[]).includes(detail.state);

/**
 * Reads the rollout until `done` holds, running `meanwhile` between reads (the visitors), for at
 * most `timeoutMs`. A rollout that ends otherwise fails at once with its reason and timeline.
 */
export async function untilRollout(
  id: string,
  done: (detail: RolloutDetail) => boolean,
  timeoutMs: number,
  meanwhile: () => Promise<unknown> = () => new Promise((resolve) => setTimeout(resolve, 500)),
  api: OperatorApi = SUITE_API,
): Promise<RolloutDetail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const detail = await rolloutDetail(id, api);
    if (done(detail)) return detail;
    const timeline = () => detail.events.map((event) => `${event.seq} ${event.kind} ${event.reason}`).join('\n');
    if (isFinished(detail))
      throw new Error(`rollout ${id} ended ${detail.state}: ${detail.outcomeReason}\n${timeline()}`);
    if (Date.now() > deadline)
      throw new Error(`rollout ${id} still ${detail.state} at step ${detail.stepIndex}\n${timeline()}`);
    await meanwhile();
  }
}

/** Seconds from the first gate's start to the last gate's end: the time gates take before any user. */
export function gateSeconds(detail: RolloutDetail): number {
  const starts = detail.gates.map((gate) => Date.parse(gate.startedAt ?? ''));
  const ends = detail.gates.map((gate) => Date.parse(gate.finishedAt ?? ''));
  return (Math.max(...ends) - Math.min(...starts)) / 1000;
}
