// What a rollout does next (docs/rollouts.md, "The runner"): a pure function of the rollout, the
// facts the runner read (gates, pointer, lock, the rule's answer, fresh signed views, approvals) and
// the time. The runner applies the answer in one transaction; this file decides, and is tested as a
// table with no database.
import type { RolloutGateName, RolloutGateState, RolloutPlan, RolloutState } from '@special-gift/shared/api';
import { durationSeconds } from './plan';
import type { RuleResult } from './rule';

export interface MachineRollout {
  readonly state: RolloutState;
  readonly stepIndex: number;
  readonly stepStartedAt: Date | null;
  readonly plan: RolloutPlan;
  /** The pointer revision the rollout last saw (its start, or its own last move). */
  readonly pointerRevision: number;
  readonly skipRequested: boolean;
}

export interface MachineFacts {
  readonly gates: Readonly<Record<RolloutGateName, { readonly state: RolloutGateState; readonly reason: string }>>;
  /** The pointer's revision now: another than the rollout's means someone moved it by hand. */
  readonly currentRevision: number;
  readonly locked: boolean;
  /** The rule on the signed page views since the first traffic step; null before any traffic. */
  readonly rule: RuleResult | null;
  /** Signed canary page views since this step started (a liveness signal, not evidence). */
  readonly newViewsThisStep: number;
  /** The approval of the share about to be entered (stepIndex + 1; steps.length is promote). */
  readonly approval: 'none' | 'requested' | 'approved';
  /** A telemetry-stale event was already recorded for this step. */
  readonly staleReported: boolean;
  /** A blocked event is the rollout's latest: say it once. */
  readonly blockedReported: boolean;
  /** Why the gate runner's gates cannot run, when they cannot (no GATE_RUNNER_TOKEN). */
  readonly gateRunnerOff: string | null;
  /** The rule's maximum dwell passed (its low-traffic policy applies). */
  readonly maxDwellPassed: boolean;
}

export type MachineAction =
  | { readonly kind: 'wait'; readonly reason: string }
  | { readonly kind: 'moved-by-hand' }
  | { readonly kind: 'check-contract' }
  | { readonly kind: 'fail'; readonly reason: string }
  | { readonly kind: 'request-approval'; readonly stepIndex: number }
  | { readonly kind: 'set-share'; readonly stepIndex: number; readonly percent: number; readonly skipped: boolean }
  | { readonly kind: 'promote'; readonly skipped: boolean }
  | { readonly kind: 'rollback'; readonly reasons: readonly string[] }
  | { readonly kind: 'blocked' }
  | { readonly kind: 'telemetry-stale' };

/** When the step may advance, by its dwell; null outside a step. */
export function earliestAdvanceAt(rollout: Pick<MachineRollout, 'stepIndex' | 'stepStartedAt' | 'plan'>): Date | null {
  const step = rollout.plan.steps[rollout.stepIndex];
  if (!step || !rollout.stepStartedAt) return null;
  return new Date(rollout.stepStartedAt.getTime() + (durationSeconds(step.minDwell) ?? 0) * 1000);
}

/** The share the rollout takes after the current one: the next step's, or promote. */
function advance(rollout: MachineRollout, facts: MachineFacts, skipped: boolean): MachineAction {
  const next = rollout.stepIndex + 1;
  const step = rollout.plan.steps[next];
  const needsApproval = step ? step.approval === true : rollout.plan.promote.approval;
  if (needsApproval && facts.approval === 'none') return { kind: 'request-approval', stepIndex: next };
  if (needsApproval && facts.approval === 'requested')
    return {
      kind: 'wait',
      reason: `Waiting for an approval of ${step ? `${step.percent} %` : 'promote'} by another token than the starter's.`,
    };
  if (facts.locked)
    return facts.blockedReported
      ? { kind: 'wait', reason: 'The remote is locked: the share is held.' }
      : { kind: 'blocked' };
  return step ? { kind: 'set-share', stepIndex: next, percent: step.percent, skipped } : { kind: 'promote', skipped };
}

function atGates(facts: MachineFacts): MachineAction | null {
  for (const gate of ['contract', 'integrity', 'acceptance'] as const) {
    const { state, reason } = facts.gates[gate];
    if (state === 'failed') return { kind: 'fail', reason: `The ${gate} gate failed: ${reason}` };
    if (state === 'passed') continue;
    if (gate === 'contract') return { kind: 'check-contract' };
    if (facts.gateRunnerOff) return { kind: 'wait', reason: `The ${gate} gate waits: ${facts.gateRunnerOff}` };
    return { kind: 'wait', reason: `The ${gate} gate waits for the gate runner${reason ? `: ${reason}` : '.'}` };
  }
  return null;
}

export function nextAction(rollout: MachineRollout, facts: MachineFacts, now: Date): MachineAction {
  // Someone moved the pointer (an abort or rollback by hand; the rest is refused during a rollout).
  if (facts.currentRevision !== rollout.pointerRevision) return { kind: 'moved-by-hand' };
  if (rollout.state === 'gating') return atGates(facts) ?? advance(rollout, facts, false);
  // With traffic: proven harm rolls back at any tick, paused or waiting for an approval included.
  if (facts.rule?.decision === 'rollback') return { kind: 'rollback', reasons: facts.rule.reasons };
  if (rollout.state === 'paused') return { kind: 'wait', reason: 'Paused: the share is held until resumed.' };
  if (rollout.state === 'awaiting_approval') return advance(rollout, facts, false);
  if (rollout.skipRequested) return advance(rollout, facts, true);

  const step = rollout.plan.steps[rollout.stepIndex];
  const until = earliestAdvanceAt(rollout);
  if (!step || !until || !rollout.stepStartedAt) return { kind: 'wait', reason: 'Not at a step.' };
  const dwellMs = until.getTime() - rollout.stepStartedAt.getTime();
  if (now < until) return { kind: 'wait', reason: `Dwelling at ${step.percent} % until ${until.toISOString()}.` };
  if (facts.newViewsThisStep < rollout.plan.minNewViewsPerStep) {
    const stale = facts.newViewsThisStep === 0 && now.getTime() >= rollout.stepStartedAt.getTime() + 2 * dwellMs;
    if (stale && !facts.staleReported) return { kind: 'telemetry-stale' };
    return {
      kind: 'wait',
      reason: `${facts.newViewsThisStep} fresh signed canary page views at ${step.percent} %, ${rollout.plan.minNewViewsPerStep} needed: no data, no advance.`,
    };
  }
  if (facts.rule?.decision !== 'advance') {
    const reasons = facts.rule?.reasons ?? ['No decision yet.'];
    const policy =
      facts.maxDwellPassed && rollout.plan.lowTraffic === 'hold'
        ? ['Maximum dwell passed, policy hold: a person decides (skip to advance).']
        : [];
    return { kind: 'wait', reason: [...policy, ...reasons].join(' ') };
  }
  return advance(rollout, facts, false);
}
