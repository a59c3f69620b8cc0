// The runner's configuration (api/src/config.ts reads it from ROLLOUT_* and GATE_RUNNER_TOKEN).

export interface RolloutRunnerSettings {
  /** `ROLLOUT_RUNNER`: off, this replica never leads (its routes still work). */
  readonly enabled: boolean;
  /** `ROLLOUT_TICK_SECONDS`: how often the leader looks at the rollouts that are due. */
  readonly tickSeconds: number;
  /** `ROLLOUT_LEASE_SECONDS`: the leader's lease; another replica takes over once it lapses. */
  readonly leaseSeconds: number;
  /** `ROLLOUT_MIN_STEP_DWELL_SECONDS`: the shortest `minDwell` a plan may set. */
  readonly minStepDwellSeconds: number;
  /** `ROLLOUT_GATE_CLAIM_SECONDS`: a gate claim without a heartbeat for this long goes back to pending. */
  readonly gateClaimSeconds: number;
  /** `ROLLOUT_HOST_URL`: where the live host's build-info.json is read for the contract gate; unset: the gate waits. */
  readonly hostUrl: string | undefined;
  /** `GATE_RUNNER_TOKEN`: the gate runner's credential; unset: gate routes 503, rollouts wait at the gates. */
  readonly gateRunnerToken: string | undefined;
  /** `ROLLOUT_WEBHOOK_KEY`: what webhook secrets are derived from; unset: the operator token. */
  readonly webhookKey: string | undefined;
  /** `ROLLOUT_WEBHOOK_HOSTS`: the hosts webhooks may post to; null: https to public names and addresses only. */
  readonly webhookHosts: readonly string[] | null;
}

export const DEFAULT_RUNNER_SETTINGS: RolloutRunnerSettings = {
  enabled: true,
  tickSeconds: 10,
  leaseSeconds: 30,
  minStepDwellSeconds: 300,
  gateClaimSeconds: 120,
  hostUrl: undefined,
  gateRunnerToken: undefined,
  webhookKey: undefined,
  webhookHosts: null,
};

/** The actor of the runner's own changes in the audit trail and the release history. */
export const RUNNER_ACTOR = { tokenId: 'rollout-runner', tokenName: 'rollout runner', channel: 'system' } as const;
export const GATE_ACTOR = { tokenId: 'gate-runner', tokenName: 'gate runner', channel: 'system' } as const;
