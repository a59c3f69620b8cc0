// The rollout endpoints' wire contract (docs/rollouts.md): a build taken by the API's leader through
// gates (before any user gets it) and steps (shares that advance, hold or roll back on the sequential
// rule). The API answers these shapes, the release tool and the console read them, and the gate
// runner claims and answers gate jobs with them; api/openapi.yaml documents the same.

import type { CanaryDecisionAnswer } from '../telemetry/canary-decision';

/** One share of pages a rollout holds before it advances. */
export interface RolloutStep {
  /** Percent of canary buckets, 1–99, strictly increasing along the plan. */
  readonly percent: number;
  /** Shortest time at this share before advancing: `<n>s`, `<n>m` or `<n>h`, at least the API's floor. */
  readonly minDwell: string;
  /** Entering this share needs an approval by a token other than the starter's (four eyes). */
  readonly approval?: boolean;
}

/**
 * The steps a rollout follows, then promote (live = the candidate). The rule's statistics (alpha,
 * margins, minimum views) stay the API's: a plan cannot loosen them.
 */
export interface RolloutPlan {
  readonly steps: readonly RolloutStep[];
  readonly promote: { readonly approval: boolean };
  /** Fresh signed canary page views needed in each step before it may advance: no data, no advance. */
  readonly minNewViewsPerStep: number;
  /** Past the rule's maximum dwell with no failure signal: advance, or hold for a person. */
  readonly lowTraffic: 'advance' | 'hold';
}

/** Where a rollout's plan came from: its start's request, the remote's default, or the API's built-in plan. */
export const ROLLOUT_PLAN_SOURCES = ['request', 'remote-default', 'built-in'] as const;
export type RolloutPlanSource = (typeof ROLLOUT_PLAN_SOURCES)[number];

const PLAN_SOURCE_WORDS: Record<RolloutPlanSource, string> = {
  request: 'its own plan',
  'remote-default': "the remote's default plan",
  'built-in': "the API's built-in plan",
};

/** Where a rollout's plan came from, in words (the CLI's status, the console). */
export const describePlanSource = (source: RolloutPlanSource | null): string =>
  source === null ? 'plan source not recorded' : PLAN_SOURCE_WORDS[source];

/**
 * `GET|PUT|DELETE /v1/rollouts/plans/:remote`: the remote's default plan in this environment, the
 * one a rollout started without a plan follows; without one, the API's built-in plan.
 */
export interface RemoteRolloutPlan {
  readonly environment: string;
  readonly remote: string;
  /** null: none set (or cleared); rollouts started without a plan follow `builtIn`. */
  readonly plan: RolloutPlan | null;
  /** Compare-and-swap: a change sends it back as `expectedVersion`; 0 before the first was ever set. */
  readonly version: number;
  /** The token that last set or cleared it, and when; null before the first. */
  readonly updatedBy: string | null;
  readonly updatedAt: string | null;
  /** The API's built-in plan (its dwell floor and low-traffic policy applied). */
  readonly builtIn: RolloutPlan;
}

/** `PUT /v1/rollouts/plans/:remote`: validated as a rollout's own plan is (422 `invalid_rollout_plan`). */
export interface RemoteRolloutPlanRequest {
  readonly plan: RolloutPlan;
  readonly expectedVersion: number;
  readonly reason?: string;
}

export const ROLLOUT_STATES = [
  'gating',
  'stepping',
  'awaiting_approval',
  'paused',
  'succeeded',
  'rolled_back',
  'failed',
  'aborted',
] as const;
export type RolloutState = (typeof ROLLOUT_STATES)[number];
/** The states a rollout ends in: it never leaves them. */
export const FINISHED_ROLLOUT_STATES = [
  'succeeded',
  'rolled_back',
  'failed',
  'aborted',
] as const satisfies readonly RolloutState[];

/** The gates, in the order they run: a failed one ends the rollout with no pointer written. */
export const ROLLOUT_GATES = ['contract', 'integrity', 'acceptance'] as const;
export type RolloutGateName = (typeof ROLLOUT_GATES)[number];
export type RolloutGateState = 'pending' | 'running' | 'passed' | 'failed';

export interface RolloutGate {
  readonly gate: RolloutGateName;
  readonly state: RolloutGateState;
  readonly attempts: number;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  readonly reason: string;
  /** What was checked: the host's contract, files and bytes hashed, requests, page errors, axe ids, timings. */
  readonly detail: Readonly<Record<string, unknown>> | null;
}

export const ROLLOUT_EVENT_KINDS = [
  'started',
  'gate-passed',
  'gate-failed',
  'gate-waiting',
  'step',
  'hold',
  'blocked',
  'approval-requested',
  'approved',
  'paused',
  'resumed',
  'skipped',
  'rolled-back',
  'promoted',
  'succeeded',
  'failed',
  'aborted',
  'telemetry-stale',
] as const;
export type RolloutEventKind = (typeof ROLLOUT_EVENT_KINDS)[number];

/** One line of a rollout's timeline: append-only, `seq` 1, 2, 3… with no gap. */
export interface RolloutEvent {
  readonly seq: number;
  readonly at: string;
  readonly kind: RolloutEventKind;
  readonly stepIndex: number | null;
  readonly percent: number | null;
  /** The acting token's name, or `rollout runner` / `gate runner` for the system's own decisions. */
  readonly actor: string;
  readonly reason: string;
}

/** The rollout runner's own identity in the audit trail and release history. */
export const ROLLOUT_RUNNER_ACTOR = { tokenId: 'rollout-runner', name: 'rollout runner' } as const;
export const GATE_RUNNER_ACTOR = { tokenId: 'gate-runner', name: 'gate runner' } as const;

export interface Rollout {
  readonly id: string;
  readonly environment: string;
  readonly remote: string;
  readonly buildId: string;
  /** The live build when it started: the arm the candidate is compared with. */
  readonly baselineBuild: string;
  readonly plan: RolloutPlan;
  /** Where `plan` came from; null for a rollout started before this was recorded. */
  readonly planSource: RolloutPlanSource | null;
  readonly state: RolloutState;
  /** -1: at the gates; 0…n-1: at plan.steps[i]; n: promoted. */
  readonly stepIndex: number;
  /** The share pages get now (0 at the gates and after it ends). */
  readonly percent: number;
  /** Compare-and-swap: controls send it back as `expectedVersion`. */
  readonly version: number;
  readonly startedBy: string;
  readonly startedAt: string;
  readonly stepStartedAt: string | null;
  readonly trafficStartedAt: string | null;
  readonly nextCheckAt: string | null;
  /** The soonest the current step may advance (its dwell), when stepping. */
  readonly earliestAdvanceAt: string | null;
  readonly finishedAt: string | null;
  readonly outcomeReason: string;
}

/** `GET /v1/rollouts/:id`: the rollout and its timeline. */
export interface RolloutDetail extends Rollout {
  readonly gates: readonly RolloutGate[];
  readonly events: readonly RolloutEvent[];
  /** Steps that need an approval and whether they have it. */
  readonly approvals: readonly {
    readonly stepIndex: number;
    readonly requestedAt: string;
    readonly approvedBy: string | null;
    readonly approvedAt: string | null;
  }[];
  /** The rule's latest answer for this rollout, and the fresh signed canary views in this step. */
  readonly lastCheck: { readonly decision: CanaryDecisionAnswer; readonly newViewsThisStep: number } | null;
}

/** `POST /v1/rollouts`. Without `plan`, the remote's default plan, else the API's built-in plan. */
export interface RolloutStartRequest {
  readonly remote: string;
  readonly buildId: string;
  readonly plan?: RolloutPlan;
  readonly reason: string;
}

export const ROLLOUT_CONTROLS = ['pause', 'resume', 'skip', 'approve', 'abort'] as const;
export type RolloutControl = (typeof ROLLOUT_CONTROLS)[number];

/** `POST /v1/rollouts/:id/{control}`: compare-and-swap on the rollout's `version`. */
export interface RolloutControlRequest {
  readonly expectedVersion: number;
  readonly reason: string;
}

/** `POST /v1/rollouts/gate-jobs/claim`'s 200: one gate the gate runner now holds until `deadline`. */
export interface GateJob {
  readonly rolloutId: string;
  readonly environment: string;
  readonly remote: string;
  readonly buildId: string;
  readonly gate: Extract<RolloutGateName, 'integrity' | 'acceptance'>;
  /** Binds the result to this claim: a runner whose claim expired cannot answer. */
  readonly nonce: string;
  /** The screen's path in the host (`/sign-up`). */
  readonly route: string;
  /** The build's recorded SRI hashes by path under its folder (`remoteEntry.js` → `sha384-…`). */
  readonly integrity: Readonly<Record<string, string>>;
  /** The `sg_preview` cookie's value: the candidate for this browser only (no user sees it). */
  readonly previewCookie: string;
  /** When the claim lapses unless a heartbeat extends it. */
  readonly deadline: string;
}

export const GATE_OUTCOMES = ['passed', 'failed', 'inconclusive'] as const;
/** `inconclusive`: the check could not be run (no browser, host unreachable): the gate stays pending. */
export type GateOutcome = (typeof GATE_OUTCOMES)[number];

/** `POST /v1/rollouts/gate-jobs/:rolloutId/:gate/result`. */
export interface GateResult {
  readonly nonce: string;
  readonly outcome: GateOutcome;
  readonly reason: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

export const ROLLOUT_PROPERTIES = [
  'id',
  'environment',
  'remote',
  'buildId',
  'baselineBuild',
  'plan',
  'planSource',
  'state',
  'stepIndex',
  'percent',
  'version',
  'startedBy',
  'startedAt',
  'stepStartedAt',
  'trafficStartedAt',
  'nextCheckAt',
  'earliestAdvanceAt',
  'finishedAt',
  'outcomeReason',
] as const satisfies ReadonlyArray<keyof Rollout>;

export const REMOTE_ROLLOUT_PLAN_PROPERTIES = [
  'environment',
  'remote',
  'plan',
  'version',
  'updatedBy',
  'updatedAt',
  'builtIn',
] as const satisfies ReadonlyArray<keyof RemoteRolloutPlan>;
