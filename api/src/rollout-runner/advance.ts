// A rollout's move to its next share or to promote, and the gates' long waits (step.ts decides).
import type { Queryable } from '../db/database';
import type { applyActionTx } from '../releases';
import type { MachineAction } from '../rollouts';
import type { GateRow } from './gate-store';
import { markWaitingReported } from './gate-store';
import { checkContract, readBuildFacts, readHostContract } from './host-contract';
import type { Lease } from './lease';
import { appendEvent, updateRollout, type NewEvent, type RolloutChanges, type RolloutRow } from './rollout-store';
import { RUNNER_ACTOR } from './settings';
import { cas, commit, iso, type StepContext } from './step-context';

export interface Helpers {
  readonly run: (work: (tx: Queryable) => Promise<number | null>) => Promise<number | null>;
  readonly event: (tx: Queryable, kind: NewEvent['kind'], fields?: Partial<NewEvent>) => Promise<number>;
  readonly move: (
    tx: Queryable,
    input: Parameters<typeof applyActionTx>[3],
  ) => Promise<{ stateSerial: number; revision: number }>;
  readonly end: (
    tx: Queryable,
    state: 'failed' | 'succeeded',
    reason: string,
    changes?: RolloutChanges,
  ) => Promise<void>;
  readonly base: RolloutChanges;
  readonly now: Date;
  readonly decision: unknown;
}

/** The next share, or promote (after the contract is checked again: the host may have been redeployed). */
export async function advance(
  ctx: StepContext,
  row: RolloutRow,
  action: Extract<MachineAction, { kind: 'set-share' | 'promote' }>,
  { run, event, move, end, base, now, decision }: Helpers,
): Promise<void> {
  const skipped = action.skipped ? ' (skipped ahead by request)' : '';
  const from = row.stepIndex < 0 ? 'the gates' : `${row.plan.steps[row.stepIndex]?.percent ?? 0} %`;
  let serial: number | null;
  if (action.kind === 'set-share') {
    const reason = `rollout ${row.id} step ${action.stepIndex}: ${from} → ${action.percent} %${skipped}`;
    serial = await run(async (tx) => {
      const moved = await move(tx, {
        action: 'canary',
        buildId: row.buildId,
        percent: action.percent,
        expectedRevision: row.pointerRevision,
        reason,
      });
      cas(
        await updateRollout(tx, row.id, row.version, {
          ...base,
          state: 'stepping',
          step_index: action.stepIndex,
          step_started_at: iso(now),
          traffic_started_at: row.trafficStartedAt ?? iso(now),
          pointer_revision: moved.revision,
          skip_requested: false,
        }),
      );
      await event(tx, 'step', {
        stepIndex: action.stepIndex,
        percent: action.percent,
        decision: decision ?? undefined,
        reason,
      });
      return moved.stateSerial;
    });
  } else {
    const host = await readHostContract(ctx.fetchJson, ctx.settings.hostUrl);
    const build = await readBuildFacts(ctx.db, row.remote, row.buildId);
    if (typeof host === 'string' || build === null) {
      await updateRollout(
        ctx.db,
        row.id,
        row.version,
        { ...base, last_check: base.last_check ?? null },
        { bump: false },
      );
      ctx.log({
        level: 'warn',
        msg: 'rollout promote waits: the live host contract cannot be read',
        rollout: row.id,
        why: host,
      });
      return;
    }
    const contract = checkContract(host, build);
    if (!contract.ok) {
      const reason = `The contract no longer holds before promote: ${contract.reason}`;
      serial = await run(async (tx) => {
        await end(tx, 'failed', reason);
        await event(tx, 'failed', { stepIndex: row.stepIndex, percent: 0, reason });
        return (
          await move(tx, {
            action: 'abort',
            expectedRevision: row.pointerRevision,
            reason: `rollout ${row.id}: ${reason}`,
          })
        ).stateSerial;
      });
    } else {
      const reason = `rollout ${row.id}: promoted after ${from}${skipped}`;
      serial = await run(async (tx) => {
        const moved = await move(tx, { action: 'promote', expectedRevision: row.pointerRevision, reason });
        await end(tx, 'succeeded', reason, { step_index: row.plan.steps.length, pointer_revision: moved.revision });
        await event(tx, 'promoted', {
          stepIndex: row.plan.steps.length,
          percent: 100,
          decision: decision ?? undefined,
          reason,
        });
        await event(tx, 'succeeded', {
          stepIndex: row.plan.steps.length,
          percent: 100,
          reason: 'The candidate is live.',
        });
        return moved.stateSerial;
      });
    }
  }
  if (serial !== null) await ctx.afterPointerChange(serial);
}

/**
 * A gate waiting longer than a claim lasts (the gate runner down, its browser missing, the host
 * unreachable): one gate-waiting event per gate; the gate is never skipped.
 */
export async function reportLongWaits(
  ctx: StepContext,
  row: RolloutRow,
  gates: readonly GateRow[],
  lease: Lease,
  now: Date,
): Promise<void> {
  let since = new Date(row.startedAt);
  for (const gate of gates) {
    if (gate.state === 'passed') {
      since = gate.finishedAt === null ? since : new Date(gate.finishedAt);
      continue;
    }
    if (gate.state === 'failed' || gate.waitingReported) return;
    if (now.getTime() - since.getTime() <= ctx.settings.gateClaimSeconds * 1000) return;
    await commit(ctx, row, lease, now, async (tx) => {
      if (!(await markWaitingReported(tx, row.id, gate.gate))) return null;
      await appendEvent(tx, row.id, {
        kind: 'gate-waiting',
        actor: RUNNER_ACTOR,
        at: now,
        reason: `The ${gate.gate} gate has waited over ${ctx.settings.gateClaimSeconds} s: ${gate.reason || 'no gate runner has claimed it'}`,
      });
      return null;
    });
    return;
  }
}
