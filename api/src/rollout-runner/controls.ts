// People's controls of a rollout (docs/rollouts.md, "Steering"): pause, resume, skip, approve and
// abort, each one transaction with a compare-and-swap on the rollout's version, its event and its
// audit row under the acting token. Approval is four eyes: never the starter's token, nor a token
// the starter minted (directly or down the chain).
import type { RolloutControl, RolloutEventKind } from '@special-gift/shared/api';
import { appendAudit, forbidden, type Actor, type AuditAction } from '../access';
import type { Database, Queryable } from '../db/database';
import { ApiError } from '../http/api-error';
import { applyActionTx } from '../releases';
import {
  appendEvent,
  grantApproval,
  isActive,
  readRollout,
  updateRollout,
  type RolloutChanges,
  type RolloutRow,
} from './rollout-store';

export interface ControlRequest {
  readonly environment: string;
  readonly id: string;
  readonly control: RolloutControl;
  readonly expectedVersion: number;
  readonly reason: string;
  readonly actor: Actor;
  readonly now: Date;
}

const refused = (message: string) => new ApiError(409, 'rollout_refused', message);

/** Whether `approver` is the starter's token or was minted by it, directly or through tokens it minted. */
async function sameHands(tx: Queryable, approver: string, starter: string): Promise<boolean> {
  if (approver === starter) return true;
  const found = await tx.query(
    `WITH RECURSIVE chain (id, created_by_id, depth) AS (
       SELECT id, created_by_id, 0 FROM access_tokens WHERE id = $1
       UNION ALL
       SELECT t.id, t.created_by_id, c.depth + 1 FROM access_tokens t JOIN chain c ON t.id = c.created_by_id
        WHERE c.depth < 64
     ) SELECT 1 FROM chain WHERE created_by_id = $2 LIMIT 1`,
    [approver, starter],
  );
  return found.rows.length > 0;
}

const CONTROL_EVENT: Record<RolloutControl, RolloutEventKind> = {
  pause: 'paused',
  resume: 'resumed',
  skip: 'skipped',
  approve: 'approved',
  abort: 'aborted',
};

export async function controlRollout(
  db: Database,
  { environment, id, control, expectedVersion, reason, actor, now }: ControlRequest,
): Promise<{ row: RolloutRow; stateSerial: number | null }> {
  const stateSerial = await db.transaction(async (tx) => {
    const row = await readRollout(tx, environment, id, { forUpdate: true });
    if (!row) throw new ApiError(404, 'not_found', `No rollout ${id} in ${environment}.`);
    if (row.version !== expectedVersion)
      throw new ApiError(
        409,
        'rollout_conflict',
        `Rollout ${id} is at version ${row.version}, not ${expectedVersion}: it changed meanwhile. Read it again and retry.`,
      );
    if (!isActive(row.state)) throw refused(`Rollout ${id} has ended (${row.state}).`);
    let changes: RolloutChanges;
    let serial: number | null = null;
    switch (control) {
      case 'pause':
        if (row.state !== 'stepping' && row.state !== 'awaiting_approval')
          throw refused(`Rollout ${id} is ${row.state}: only a stepping rollout, or one awaiting an approval, pauses.`);
        changes = { state: 'paused', paused_from: row.state };
        break;
      case 'resume':
        if (row.state !== 'paused') throw refused(`Rollout ${id} is ${row.state}, not paused.`);
        changes = { state: row.pausedFrom ?? 'stepping', paused_from: null };
        break;
      case 'skip':
        if (row.state !== 'stepping')
          throw refused(
            `Rollout ${id} is ${row.state}: skip takes a stepping rollout to its next share (never past a gate or an approval).`,
          );
        changes = { skip_requested: true };
        break;
      case 'approve': {
        if (row.state !== 'awaiting_approval')
          throw refused(`Rollout ${id} is ${row.state}: no approval is asked for.`);
        if (await sameHands(tx, actor.tokenId, row.startedByTokenId))
          throw forbidden(
            `Four eyes: "${actor.tokenName}" is the token that started rollout ${id}, or was minted by it; another token must approve.`,
          );
        if (!(await grantApproval(tx, row.id, row.stepIndex + 1, actor, reason, now)))
          throw refused(`Rollout ${id} has no approval waiting for step ${row.stepIndex + 1}.`);
        changes = {};
        break;
      }
      case 'abort': {
        if (row.state !== 'gating' && row.stepIndex >= 0) {
          const outcome = await applyActionTx(
            tx,
            environment,
            row.remote,
            { action: 'abort', expectedRevision: row.pointerRevision, reason: `rollout ${id} aborted: ${reason}` },
            actor,
            { rolloutId: row.id },
          );
          // A conflict: the pointer was already moved by hand (which ended the canary); nothing to undo.
          if ('ok' in outcome) serial = outcome.stateSerial;
        }
        changes = {
          state: 'aborted',
          finished_at: now.toISOString(),
          outcome_reason: `Aborted by ${actor.tokenName}${reason ? `: ${reason}` : '.'}`,
        };
        break;
      }
    }
    if (!(await updateRollout(tx, row.id, row.version, { ...changes, next_check_at: now.toISOString() })))
      throw new ApiError(409, 'rollout_conflict', `Rollout ${id} changed meanwhile. Read it again and retry.`);
    await appendEvent(tx, row.id, { kind: CONTROL_EVENT[control], stepIndex: row.stepIndex, actor, reason, at: now });
    await appendAudit(tx, {
      ...actor,
      environment,
      remote: row.remote,
      action: `rollout-${control}` as AuditAction,
      fromState: row.state,
      toState: changes.state ?? row.state,
      reason,
    });
    return serial;
  });
  const row = await readRollout(db, environment, id);
  return { row: row as RolloutRow, stateSerial };
}
