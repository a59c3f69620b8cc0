// The rollouts' rows (migration 13): reads, the compare-and-swap update every change goes through,
// the timeline's events and the approvals. Times come from the caller's clock.
import type { Rollout, RolloutEvent, RolloutEventKind, RolloutState } from '@special-gift/shared/api';
import type { Actor } from '../access';
import { columns } from '../db/columns';
import type { Queryable } from '../db/database';
import { earliestAdvanceAt } from '../rollouts';

/** A rollout's row: the wire's fields it stores as they are, and the runner's own. */
export interface RolloutRow extends Pick<
  Rollout,
  | 'id'
  | 'environment'
  | 'remote'
  | 'buildId'
  | 'baselineBuild'
  | 'plan'
  | 'planSource'
  | 'state'
  | 'stepIndex'
  | 'version'
  | 'startedBy'
  | 'startedAt'
  | 'stepStartedAt'
  | 'trafficStartedAt'
  | 'finishedAt'
  | 'outcomeReason'
> {
  readonly pausedFrom: RolloutState | null;
  readonly pointerRevision: number;
  readonly skipRequested: boolean;
  readonly nextCheckAt: string;
  readonly lastCheck: Readonly<Record<string, unknown>> | null;
  readonly startedByTokenId: string;
}

const ROLLOUT = columns<RolloutRow>(
  [
    'id',
    'environment',
    'remote',
    'build_id',
    'baseline_build',
    'plan',
    'plan_source',
    'state',
    'paused_from',
    'step_index',
    'step_started_at',
    'traffic_started_at',
    'pointer_revision',
    'version',
    'skip_requested',
    'next_check_at',
    'last_check',
    'started_by_token_id',
    'started_by',
    'started_at',
    'finished_at',
    'outcome_reason',
  ],
  {
    step_started_at: 'time?',
    traffic_started_at: 'time?',
    next_check_at: 'time',
    started_at: 'time',
    finished_at: 'time?',
  },
);
const EVENT = columns<RolloutEvent>(['seq', 'at', 'kind', 'step_index', 'percent', 'actor', 'reason'], { at: 'time' });

export const isActive = (state: RolloutState) =>
  state === 'gating' || state === 'stepping' || state === 'awaiting_approval' || state === 'paused';

/** The share pages get now: the current step's while active and past the gates, else 0. */
export function percentOf(row: Pick<RolloutRow, 'state' | 'stepIndex' | 'plan'>): number {
  if (!isActive(row.state) || row.state === 'gating') return 0;
  return row.plan.steps[row.stepIndex]?.percent ?? 0;
}

export function toRollout(row: RolloutRow): Rollout {
  const stepping = row.state === 'stepping';
  const earliest = stepping
    ? earliestAdvanceAt({
        stepIndex: row.stepIndex,
        plan: row.plan,
        stepStartedAt: row.stepStartedAt === null ? null : new Date(row.stepStartedAt),
      })
    : null;
  return {
    id: row.id,
    environment: row.environment,
    remote: row.remote,
    buildId: row.buildId,
    baselineBuild: row.baselineBuild,
    plan: row.plan,
    planSource: row.planSource,
    state: row.state,
    stepIndex: row.stepIndex,
    percent: percentOf(row),
    version: row.version,
    startedBy: row.startedBy,
    startedAt: row.startedAt,
    stepStartedAt: row.stepStartedAt,
    trafficStartedAt: row.trafficStartedAt,
    nextCheckAt: isActive(row.state) ? row.nextCheckAt : null,
    earliestAdvanceAt: earliest?.toISOString() ?? null,
    finishedAt: row.finishedAt,
    outcomeReason: row.outcomeReason,
  };
}

export async function readRollout(
  db: Queryable,
  environment: string,
  id: string,
  { forUpdate = false } = {},
): Promise<RolloutRow | null> {
  const found = await db.query<object>(
    `SELECT ${ROLLOUT.list} FROM rollouts WHERE id = $1 AND environment = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [id, environment],
  );
  const row = found.rows[0];
  return row ? ROLLOUT.read(row) : null;
}

/** Active rollouts whose next check is due, oldest first. */
export async function dueRollouts(db: Queryable, environment: string, now: Date, limit: number): Promise<RolloutRow[]> {
  const found = await db.query<object>(
    `SELECT ${ROLLOUT.list} FROM rollouts
      WHERE environment = $1 AND finished_at IS NULL AND next_check_at <= $2
      ORDER BY next_check_at, id LIMIT $3`,
    [environment, now.toISOString(), limit],
  );
  return found.rows.map((row) => ROLLOUT.read(row));
}

/** Newest first; of one remote unless null; only those under way when `active`. */
export async function listRollouts(
  db: Queryable,
  environment: string,
  { remote, active, limit }: { remote: string | null; active: boolean; limit: number },
): Promise<RolloutRow[]> {
  const found = await db.query<object>(
    `SELECT ${ROLLOUT.list} FROM rollouts
      WHERE environment = $1 AND ($2::text IS NULL OR remote = $2) AND (NOT $3 OR finished_at IS NULL)
      ORDER BY started_at DESC, id LIMIT $4`,
    [environment, remote, active, limit],
  );
  return found.rows.map((row) => ROLLOUT.read(row));
}

export type NewRollout = Pick<
  RolloutRow,
  | 'id'
  | 'environment'
  | 'remote'
  | 'buildId'
  | 'baselineBuild'
  | 'plan'
  | 'planSource'
  | 'pointerRevision'
  | 'startedByTokenId'
  | 'startedBy'
> & { readonly now: Date };

/** Inserts a rollout at its gates (all pending); false when the remote already has one under way. */
export async function insertRollout(tx: Queryable, rollout: NewRollout): Promise<boolean> {
  const now = rollout.now.toISOString();
  const inserted = await tx.query(
    `INSERT INTO rollouts (id, environment, remote, build_id, baseline_build, plan, plan_source, state,
       pointer_revision, next_check_at, started_by_token_id, started_by, started_at)
     VALUES ($1, $2, $3, $4, $5, $6, $11, 'gating', $7, $8, $9, $10, $8)
     ON CONFLICT (environment, remote) WHERE finished_at IS NULL DO NOTHING
     RETURNING id`,
    [
      rollout.id,
      rollout.environment,
      rollout.remote,
      rollout.buildId,
      rollout.baselineBuild,
      JSON.stringify(rollout.plan),
      rollout.pointerRevision,
      now,
      rollout.startedByTokenId,
      rollout.startedBy,
      rollout.planSource,
    ],
  );
  if (inserted.rows.length === 0) return false;
  await tx.query(
    `INSERT INTO rollout_gates (rollout_id, gate, state) SELECT $1, gate, 'pending'
       FROM unnest(ARRAY['contract', 'integrity', 'acceptance']) AS gate`,
    [rollout.id],
  );
  return true;
}

/** The columns a change may set. */
export interface RolloutChanges {
  readonly state?: RolloutState;
  readonly paused_from?: RolloutState | null;
  readonly step_index?: number;
  readonly step_started_at?: string | null;
  readonly traffic_started_at?: string | null;
  readonly pointer_revision?: number;
  readonly skip_requested?: boolean;
  readonly next_check_at?: string;
  readonly last_check?: string | null;
  readonly finished_at?: string | null;
  readonly outcome_reason?: string;
}

/**
 * Compare-and-swap on the rollout's version: false when anyone (a person's control, another leader)
 * changed it since `version` was read. `bump`: a change people must see before theirs (every one
 * but the runner's bookkeeping of its last check and next tick).
 */
export async function updateRollout(
  tx: Queryable,
  id: string,
  version: number,
  changes: RolloutChanges,
  { bump = true } = {},
): Promise<boolean> {
  const entries = Object.entries(changes);
  const sets = entries.map(([column], index) => `${column} = $${index + 3}`);
  if (bump) sets.push('version = version + 1');
  const updated = await tx.query(`UPDATE rollouts SET ${sets.join(', ')} WHERE id = $1 AND version = $2 RETURNING id`, [
    id,
    version,
    ...entries.map(([, value]) => value),
  ]);
  return updated.rows.length === 1;
}

export interface NewEvent {
  readonly kind: RolloutEventKind;
  readonly stepIndex?: number | null;
  readonly percent?: number | null;
  readonly decision?: unknown;
  readonly actor: Pick<Actor, 'tokenId' | 'tokenName'>;
  readonly reason: string;
  readonly at: Date;
}

/** The next line of the timeline (seq = last + 1; the primary key refuses a duplicate). */
export async function appendEvent(tx: Queryable, rolloutId: string, event: NewEvent): Promise<number> {
  const inserted = await tx.query<{ seq: number }>(
    `INSERT INTO rollout_events (rollout_id, seq, at, kind, step_index, percent, decision, actor_token_id, actor, reason)
     SELECT $1, COALESCE(max(seq), 0) + 1, $2, $3, $4, $5, $6, $7, $8, $9 FROM rollout_events WHERE rollout_id = $1
     RETURNING seq`,
    [
      rolloutId,
      event.at.toISOString(),
      event.kind,
      event.stepIndex ?? null,
      event.percent ?? null,
      event.decision === undefined ? null : JSON.stringify(event.decision),
      event.actor.tokenId,
      event.actor.tokenName,
      event.reason,
    ],
  );
  return inserted.rows[0]?.seq ?? 0;
}

export async function readEvents(db: Queryable, rolloutId: string): Promise<RolloutEvent[]> {
  const found = await db.query<object>(`SELECT ${EVENT.list} FROM rollout_events WHERE rollout_id = $1 ORDER BY seq`, [
    rolloutId,
  ]);
  return found.rows.map((row) => EVENT.read(row));
}

export interface ApprovalRow {
  readonly stepIndex: number;
  readonly requestedAt: string;
  readonly approvedByTokenId: string | null;
  readonly approvedBy: string | null;
  readonly approvedAt: string | null;
}
const APPROVAL = columns<ApprovalRow>(
  ['step_index', 'requested_at', 'approved_by_token_id', 'approved_by', 'approved_at'],
  { requested_at: 'time', approved_at: 'time?' },
);

export async function readApprovals(db: Queryable, rolloutId: string): Promise<ApprovalRow[]> {
  const found = await db.query<object>(
    `SELECT ${APPROVAL.list} FROM rollout_approvals WHERE rollout_id = $1 ORDER BY step_index`,
    [rolloutId],
  );
  return found.rows.map((row) => APPROVAL.read(row));
}

export async function requestApproval(tx: Queryable, rolloutId: string, stepIndex: number, now: Date): Promise<void> {
  await tx.query(
    `INSERT INTO rollout_approvals (rollout_id, step_index, requested_at) VALUES ($1, $2, $3)
     ON CONFLICT (rollout_id, step_index) DO NOTHING`,
    [rolloutId, stepIndex, now.toISOString()],
  );
}

/** Records the approval of a requested step; false when it was not requested or is already approved. */
export async function grantApproval(
  tx: Queryable,
  rolloutId: string,
  stepIndex: number,
  actor: Pick<Actor, 'tokenId' | 'tokenName'>,
  reason: string,
  now: Date,
): Promise<boolean> {
  const granted = await tx.query(
    `UPDATE rollout_approvals SET approved_by_token_id = $3, approved_by = $4, approved_at = $5, reason = $6
      WHERE rollout_id = $1 AND step_index = $2 AND approved_at IS NULL RETURNING step_index`,
    [rolloutId, stepIndex, actor.tokenId, actor.tokenName, now.toISOString(), reason],
  );
  return granted.rows.length === 1;
}
