// One rollout at one tick (docs/rollouts.md, "The runner"): read the facts outside any transaction,
// ask the state machine, then apply its answer in one transaction under the lease: the rollout's
// version CAS, the pointer's CAS (applyActionTx), the event and the audit rows commit together or
// not at all. A leader killed before the commit leaves nothing; the next recomputes the same step.
import { appendAudit, type AuditAction } from '../access';
import type { Queryable } from '../db/database';
import { applyActionTx, readLock } from '../releases';
import { nextAction, type MachineFacts } from '../rollouts';
import { canaryAnswer, signedViewsSince } from '../telemetry';
import { finishGate, noteGatePending, notePrecheck, readGates } from './gate-store';
import { checkContract, precheckIntegrity, readBuildFacts, readHostContract } from './host-contract';
import type { Lease } from './lease';
import {
  appendEvent,
  readApprovals,
  readEvents,
  requestApproval,
  updateRollout,
  type NewEvent,
  type RolloutChanges,
  type RolloutRow,
} from './rollout-store';
import { RUNNER_ACTOR } from './settings';
import { advance, reportLongWaits } from './advance';
import { cas, commit, iso, StepRefused, type StepContext } from './step-context';

async function currentRevision(db: Queryable, environment: string, remote: string): Promise<number> {
  const found = await db.query<{ revision: number }>(
    `SELECT COALESCE((SELECT revision FROM release_pointers WHERE environment = $1 AND remote = $2),
       (SELECT max(revision) FROM release_history WHERE environment = $1 AND remote = $2), 0) AS revision`,
    [environment, remote],
  );
  return found.rows[0]?.revision ?? 0;
}

export async function stepRollout(ctx: StepContext, row: RolloutRow, lease: Lease, now: Date): Promise<void> {
  const { db, environment, settings } = ctx;
  const rule = { ...ctx.rule, lowTraffic: row.plan.lowTraffic };
  const gates = await readGates(db, row.id);
  const events = await readEvents(db, row.id);
  const approval = (await readApprovals(db, row.id)).find((each) => each.stepIndex === row.stepIndex + 1);
  const since = row.trafficStartedAt === null ? null : new Date(row.trafficStartedAt);
  const checked =
    since === null
      ? null
      : await canaryAnswer(
          db,
          { remote: row.remote, canary: row.buildId, baseline: row.baselineBuild, since, until: now },
          rule,
        );
  const newViewsThisStep =
    row.stepStartedAt === null
      ? 0
      : await signedViewsSince(db, {
          remote: row.remote,
          build: row.buildId,
          since: new Date(row.stepStartedAt),
          until: now,
        });
  const facts: MachineFacts = {
    gates: Object.fromEntries(
      gates.map((each) => [each.gate, { state: each.state, reason: each.reason }]),
    ) as MachineFacts['gates'],
    currentRevision: await currentRevision(db, environment, row.remote),
    locked: (await readLock(db, environment, row.remote)) !== null,
    rule: checked?.result ?? null,
    newViewsThisStep,
    approval: approval === undefined ? 'none' : approval.approvedAt === null ? 'requested' : 'approved',
    staleReported: events.some((event) => event.kind === 'telemetry-stale' && event.stepIndex === row.stepIndex),
    blockedReported: events.at(-1)?.kind === 'blocked',
    gateRunnerOff: settings.gateRunnerToken
      ? null
      : 'GATE_RUNNER_TOKEN is not set on the API, so no gate runner can claim it.',
    maxDwellPassed: since !== null && now.getTime() - since.getTime() >= rule.maxDwellMinutes * 60_000,
  };
  const lastCheck = checked === null ? null : JSON.stringify({ decision: checked.answer, newViewsThisStep });
  const next = iso(new Date(now.getTime() + settings.tickSeconds * 1000));
  const action = nextAction(
    {
      state: row.state,
      stepIndex: row.stepIndex,
      stepStartedAt: row.stepStartedAt === null ? null : new Date(row.stepStartedAt),
      plan: row.plan,
      pointerRevision: row.pointerRevision,
      skipRequested: row.skipRequested,
    },
    facts,
    now,
  );
  const base: RolloutChanges = { next_check_at: next, last_check: lastCheck };
  const run = (work: (tx: Queryable) => Promise<number | null>) => commit(ctx, row, lease, now, work);
  const event = (tx: Queryable, kind: NewEvent['kind'], fields: Partial<NewEvent> = {}) =>
    appendEvent(tx, row.id, { kind, actor: RUNNER_ACTOR, reason: '', at: now, ...fields });
  const audit = (tx: Queryable, action: AuditAction, toState: string, reason: string) =>
    appendAudit(tx, {
      ...RUNNER_ACTOR,
      environment,
      remote: row.remote,
      action,
      fromState: row.state,
      toState,
      reason,
    });
  const move = async (tx: Queryable, input: Parameters<typeof applyActionTx>[3]) => {
    const outcome = await applyActionTx(tx, environment, row.remote, input, RUNNER_ACTOR, { rolloutId: row.id });
    if (!('ok' in outcome)) throw new StepRefused(outcome);
    return outcome;
  };
  const end = async (
    tx: Queryable,
    state: 'failed' | 'rolled_back' | 'succeeded' | 'aborted',
    reason: string,
    changes: RolloutChanges = {},
  ) => {
    cas(
      await updateRollout(tx, row.id, row.version, {
        ...base,
        ...changes,
        state,
        finished_at: iso(now),
        outcome_reason: reason,
      }),
    );
    await audit(tx, 'rollout-end', state, reason);
  };
  const stepReason = (what: string) => `rollout ${row.id}: ${what}`;

  switch (action.kind) {
    case 'wait': {
      if (row.state === 'gating') await reportLongWaits(ctx, row, gates, lease, now);
      await updateRollout(db, row.id, row.version, base, { bump: false });
      return;
    }
    case 'moved-by-hand': {
      const moved = await db.query<{ action: string; actor: string; reason: string }>(
        `SELECT action, actor, reason FROM release_history WHERE environment = $1 AND remote = $2 AND revision > $3
          ORDER BY revision LIMIT 1`,
        [environment, row.remote, row.pointerRevision],
      );
      const by = moved.rows[0] ?? { action: 'change', actor: 'unknown', reason: '' };
      const token = await db.query<{ token_id: string }>(
        `SELECT token_id FROM audit_trail WHERE environment = $1 AND remote = $2 AND action = $3 AND token_name = $4
          ORDER BY id DESC LIMIT 1`,
        [environment, row.remote, by.action, by.actor],
      );
      const reason = `The pointer was moved by hand (${by.action} by ${by.actor}${by.reason ? `: ${by.reason}` : ''}).`;
      await run(async (tx) => {
        await end(tx, 'aborted', reason);
        await event(tx, 'aborted', {
          actor: { tokenId: token.rows[0]?.token_id ?? 'unknown', tokenName: by.actor },
          reason,
        });
        return null;
      });
      return;
    }
    case 'check-contract': {
      const host = await readHostContract(ctx.fetchJson, settings.hostUrl);
      const build = await readBuildFacts(db, row.remote, row.buildId);
      if (typeof host === 'string' || build === null) {
        const reason = typeof host === 'string' ? host : 'The build is not published.';
        await noteGatePending(db, row.id, 'contract', reason, { hostUrl: settings.hostUrl ?? null });
        await reportLongWaits(ctx, row, gates, lease, now);
        await updateRollout(db, row.id, row.version, base, { bump: false });
        return;
      }
      const contract = checkContract(host, build);
      const integrity = precheckIntegrity(build);
      await run(async (tx) => {
        cas(await updateRollout(tx, row.id, row.version, { ...base, next_check_at: iso(now) }));
        const state = contract.ok ? 'passed' : 'failed';
        await finishGate(tx, row.id, 'contract', { state, reason: contract.reason, detail: contract.detail, now });
        await event(tx, contract.ok ? 'gate-passed' : 'gate-failed', { reason: `contract: ${contract.reason}` });
        await audit(tx, 'rollout-gate', `contract ${state}`, contract.reason);
        if (!contract.ok) return null;
        if (integrity.ok) await notePrecheck(tx, row.id, { ...integrity.detail, reason: integrity.reason });
        else {
          await finishGate(tx, row.id, 'integrity', {
            state: 'failed',
            reason: integrity.reason,
            detail: { precheck: integrity.detail },
            now,
          });
          await event(tx, 'gate-failed', { reason: `integrity: ${integrity.reason}` });
          await audit(tx, 'rollout-gate', 'integrity failed', integrity.reason);
        }
        return null;
      });
      return;
    }
    case 'fail': {
      const withCanary = row.state !== 'gating' && row.stepIndex >= 0;
      const serial = await run(async (tx) => {
        await end(tx, 'failed', action.reason);
        await event(tx, 'failed', { reason: action.reason });
        if (!withCanary) return null;
        const moved = await move(tx, {
          action: 'abort',
          expectedRevision: row.pointerRevision,
          reason: stepReason(action.reason),
        });
        return moved.stateSerial;
      });
      if (serial !== null) await ctx.afterPointerChange(serial);
      return;
    }
    case 'request-approval': {
      const step = row.plan.steps[action.stepIndex];
      const what = step ? `${step.percent} %` : 'promote';
      await run(async (tx) => {
        cas(await updateRollout(tx, row.id, row.version, { ...base, state: 'awaiting_approval' }));
        await requestApproval(tx, row.id, action.stepIndex, now);
        await event(tx, 'approval-requested', {
          stepIndex: action.stepIndex,
          percent: step?.percent ?? 100,
          reason: `${what} needs an approval by another token than the starter's.`,
        });
        return null;
      });
      return;
    }
    case 'set-share':
    case 'promote':
      return advance(ctx, row, action, { run, event, move, end, base, now, decision: checked?.answer ?? null });
    case 'rollback': {
      const reason = action.reasons.join(' ');
      const serial = await run(async (tx) => {
        await end(tx, 'rolled_back', reason);
        await event(tx, 'rolled-back', { stepIndex: row.stepIndex, percent: 0, decision: checked?.answer, reason });
        const moved = await move(tx, {
          action: 'abort',
          expectedRevision: row.pointerRevision,
          reason: stepReason(`rolled back at step ${row.stepIndex}: ${reason}`),
        });
        return moved.stateSerial;
      });
      if (serial !== null) await ctx.afterPointerChange(serial);
      return;
    }
    case 'blocked':
    case 'telemetry-stale': {
      await run(async (tx) => {
        cas(await updateRollout(tx, row.id, row.version, base));
        await event(tx, action.kind, {
          stepIndex: row.stepIndex,
          reason:
            action.kind === 'blocked'
              ? 'The remote is locked: the share is held (a rollback would still act).'
              : 'No signed canary page views for twice the step’s dwell: held, never advanced on no data.',
        });
        return null;
      });
      return;
    }
  }
}
