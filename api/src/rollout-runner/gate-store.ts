// The gates' rows (docs/rollouts.md, "The gates"): the runner passes or fails the contract gate
// itself; the gate runner claims the integrity and acceptance gates one at a time, with a nonce
// that binds its heartbeat and result to that claim, and a claim that lapses goes back to pending.
import type { RolloutGate, RolloutGateName, RolloutGateState } from '@special-gift/shared/api';
import { columns } from '../db/columns';
import type { Queryable } from '../db/database';

export interface GateRow extends RolloutGate {
  readonly claimNonce: string | null;
  readonly claimExpiresAt: string | null;
  readonly waitingReported: boolean;
}

const GATE = columns<GateRow>(
  [
    'gate',
    'state',
    'attempts',
    'started_at',
    'finished_at',
    'reason',
    'detail',
    'claim_nonce',
    'claim_expires_at',
    'waiting_reported',
  ],
  { started_at: 'time?', finished_at: 'time?', claim_expires_at: 'time?' },
);
const ORDER = "array_position(ARRAY['contract', 'integrity', 'acceptance'], gate)";

export async function readGates(db: Queryable, rolloutId: string): Promise<GateRow[]> {
  const found = await db.query<object>(
    `SELECT ${GATE.list} FROM rollout_gates WHERE rollout_id = $1 ORDER BY ${ORDER}`,
    [rolloutId],
  );
  return found.rows.map((row) => GATE.read(row));
}

export const publicGate = ({
  claimNonce: _n,
  claimExpiresAt: _e,
  waitingReported: _w,
  ...gate
}: GateRow): RolloutGate => gate;

/** The runner's own verdict on a gate (contract, integrity's pre-check): passed or failed, with its detail. */
export async function finishGate(
  tx: Queryable,
  rolloutId: string,
  gate: RolloutGateName,
  { state, reason, detail, now }: { state: 'passed' | 'failed'; reason: string; detail: unknown; now: Date },
): Promise<void> {
  await tx.query(
    `UPDATE rollout_gates SET state = $3, reason = $4, detail = COALESCE(detail, '{}'::jsonb) || $5::jsonb,
       started_at = COALESCE(started_at, $6), finished_at = $6, attempts = attempts + 1, claim_nonce = NULL,
       claim_expires_at = NULL
     WHERE rollout_id = $1 AND gate = $2 AND state IN ('pending', 'running')`,
    [rolloutId, gate, state, reason, JSON.stringify(detail), now.toISOString()],
  );
}

/** A gate that could not be checked yet: still pending, saying why (the gate is never skipped). */
export async function noteGatePending(
  tx: Queryable,
  rolloutId: string,
  gate: RolloutGateName,
  reason: string,
  detail: unknown,
): Promise<void> {
  await tx.query(
    `UPDATE rollout_gates SET reason = $3, detail = COALESCE(detail, '{}'::jsonb) || $4::jsonb
      WHERE rollout_id = $1 AND gate = $2 AND state = 'pending'`,
    [rolloutId, gate, reason, JSON.stringify(detail)],
  );
}

/** Records the integrity pre-check that passed, for the gate runner's check to follow. */
export async function notePrecheck(tx: Queryable, rolloutId: string, detail: unknown): Promise<void> {
  await tx.query(
    `UPDATE rollout_gates SET detail = COALESCE(detail, '{}'::jsonb) || $2::jsonb
      WHERE rollout_id = $1 AND gate = 'integrity'`,
    [rolloutId, JSON.stringify({ precheck: detail })],
  );
}

/** Claims that lapsed without a heartbeat go back to pending (attempts + 1); how many. */
export async function expireClaims(db: Queryable, environment: string, now: Date): Promise<number> {
  const expired = await db.query(
    `UPDATE rollout_gates g SET state = 'pending', attempts = attempts + 1, claim_nonce = NULL, claim_expires_at = NULL,
       reason = 'The gate runner''s claim lapsed without a result: pending again.'
     FROM rollouts r
     WHERE r.id = g.rollout_id AND r.environment = $1 AND g.state = 'running' AND g.claim_expires_at < $2
     RETURNING g.gate`,
    [environment, now.toISOString()],
  );
  return expired.rows.length;
}

export interface Claimed {
  readonly rolloutId: string;
  readonly gate: Extract<RolloutGateName, 'integrity' | 'acceptance'>;
}

/**
 * The oldest pending gate of an active rollout whose earlier gates passed, now `running` under
 * `nonce` until `expiresAt`; null when there is none. SKIP LOCKED: two gate runners never get the same.
 * Fewest attempts first: a gate that keeps coming back inconclusive (its host composing without the
 * candidate, say) waits behind younger rollouts' gates instead of holding the runner.
 */
export async function claimGate(
  tx: Queryable,
  environment: string,
  { nonce, now, expiresAt }: { nonce: string; now: Date; expiresAt: Date },
): Promise<Claimed | null> {
  const found = await tx.query<{ rollout_id: string; gate: Claimed['gate'] }>(
    `SELECT g.rollout_id, g.gate FROM rollout_gates g JOIN rollouts r ON r.id = g.rollout_id
      WHERE r.environment = $1 AND r.state = 'gating' AND g.state = 'pending' AND g.gate <> 'contract'
        AND NOT EXISTS (SELECT 1 FROM rollout_gates e WHERE e.rollout_id = g.rollout_id
          AND array_position(ARRAY['contract', 'integrity', 'acceptance'], e.gate) < array_position(ARRAY['contract', 'integrity', 'acceptance'], g.gate)
          AND e.state <> 'passed')
      ORDER BY g.attempts, r.started_at, r.id LIMIT 1
      FOR UPDATE OF g SKIP LOCKED`,
    [environment],
  );
  const row = found.rows[0];
  if (!row) return null;
  await tx.query(
    `UPDATE rollout_gates SET state = 'running', claim_nonce = $3, claim_expires_at = $4,
       started_at = COALESCE(started_at, $5), reason = 'Claimed by the gate runner.'
     WHERE rollout_id = $1 AND gate = $2`,
    [row.rollout_id, row.gate, nonce, expiresAt.toISOString(), now.toISOString()],
  );
  return { rolloutId: row.rollout_id, gate: row.gate };
}

/** Extends a claim still held under `nonce`; false when it lapsed or was answered. */
export async function heartbeat(
  db: Queryable,
  rolloutId: string,
  gate: RolloutGateName,
  nonce: string,
  expiresAt: Date,
): Promise<boolean> {
  const updated = await db.query(
    `UPDATE rollout_gates SET claim_expires_at = $4
      WHERE rollout_id = $1 AND gate = $2 AND state = 'running' AND claim_nonce = $3 RETURNING gate`,
    [rolloutId, gate, nonce, expiresAt.toISOString()],
  );
  return updated.rows.length === 1;
}

/**
 * The gate runner's answer to its claim: passed or failed ends the gate; inconclusive (it could not
 * check) puts it back to pending. False when the claim is no longer this nonce's (lapsed, re-claimed).
 */
export async function answerGate(
  tx: Queryable,
  rolloutId: string,
  gate: RolloutGateName,
  {
    nonce,
    state,
    reason,
    detail,
    now,
  }: { nonce: string; state: RolloutGateState; reason: string; detail: unknown; now: Date },
): Promise<boolean> {
  const finished = state === 'passed' || state === 'failed';
  const updated = await tx.query(
    `UPDATE rollout_gates SET state = $4, reason = $5, detail = COALESCE(detail, '{}'::jsonb) || $6::jsonb,
       finished_at = $7, attempts = attempts + 1, claim_nonce = NULL, claim_expires_at = NULL
     WHERE rollout_id = $1 AND gate = $2 AND state = 'running' AND claim_nonce = $3 RETURNING gate`,
    [rolloutId, gate, nonce, state, reason, JSON.stringify(detail), finished ? now.toISOString() : null],
  );
  return updated.rows.length === 1;
}

/** Marks that the gate's long wait was told (one gate-waiting event per gate); false if it already was. */
export async function markWaitingReported(tx: Queryable, rolloutId: string, gate: RolloutGateName): Promise<boolean> {
  const updated = await tx.query(
    `UPDATE rollout_gates SET waiting_reported = true
      WHERE rollout_id = $1 AND gate = $2 AND NOT waiting_reported RETURNING gate`,
    [rolloutId, gate],
  );
  return updated.rows.length === 1;
}
