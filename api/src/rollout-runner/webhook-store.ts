// Rollout webhooks' rows (docs/rollouts.md, "Webhooks"): one URL per remote and environment, and a
// delivery per timeline event, made from the append-only events themselves. Whatever wrote an event
// (the runner, a person's control, the gate routes), the pump finds it: no code path can forget to
// notify, and a crash between the event's commit and its delivery loses nothing.
import type { Queryable } from '../db/database';
import { toIsoTimestamp } from '../db/timestamp';

export interface WebhookSetting {
  readonly url: string;
  readonly generation: number;
  readonly since: string;
  readonly updatedBy: string;
  readonly updatedAt: string;
}

export interface Delivery {
  readonly id: string;
  readonly environment: string;
  readonly remote: string;
  readonly url: string;
  readonly body: string;
  readonly attempts: number;
}

export interface DeliveryStatus {
  readonly id: string;
  readonly type: string;
  readonly attempts: number;
  readonly deliveredAt: string | null;
  readonly gaveUpAt: string | null;
  readonly nextAttemptAt: string | null;
  readonly lastStatus: number | null;
  readonly lastError: string | null;
}

export async function readWebhook(db: Queryable, environment: string, remote: string): Promise<WebhookSetting | null> {
  const { rows } = await db.query<{
    url: string;
    generation: number;
    since: unknown;
    updated_by: string;
    updated_at: unknown;
  }>(
    'SELECT url, generation, since, updated_by, updated_at FROM rollout_webhooks WHERE environment = $1 AND remote = $2',
    [environment, remote],
  );
  const row = rows[0];
  return row
    ? {
        url: row.url,
        generation: row.generation,
        since: toIsoTimestamp(row.since),
        updatedBy: row.updated_by,
        updatedAt: toIsoTimestamp(row.updated_at),
      }
    : null;
}

/** Sets the URL: events from now on go to it; the generation (the secret) is kept. */
export async function writeWebhook(
  db: Queryable,
  environment: string,
  remote: string,
  url: string,
  by: string,
  now: Date,
): Promise<WebhookSetting> {
  await db.query(
    `INSERT INTO rollout_webhooks (environment, remote, url, generation, since, updated_by, updated_at)
     VALUES ($1, $2, $3, 1, $5, $4, $5)
     ON CONFLICT (environment, remote) DO UPDATE SET url = $3, updated_by = $4, updated_at = $5`,
    [environment, remote, url, by, now.toISOString()],
  );
  return (await readWebhook(db, environment, remote)) as WebhookSetting;
}

/** A new secret: deliveries not yet made are signed with it when they are made. */
export async function rotateWebhook(db: Queryable, environment: string, remote: string, by: string, now: Date) {
  const { rows } = await db.query<{ generation: number }>(
    `UPDATE rollout_webhooks SET generation = generation + 1, updated_by = $3, updated_at = $4
     WHERE environment = $1 AND remote = $2 RETURNING generation`,
    [environment, remote, by, now.toISOString()],
  );
  return rows[0]?.generation ?? null;
}

export async function deleteWebhook(db: Queryable, environment: string, remote: string): Promise<boolean> {
  const { rows } = await db.query('DELETE FROM rollout_webhooks WHERE environment = $1 AND remote = $2 RETURNING 1', [
    environment,
    remote,
  ]);
  // Deliveries still due for it are given up: nobody listens there any more.
  await db.query(
    `UPDATE rollout_webhook_deliveries SET gave_up_at = now(), last_error = 'webhook removed'
     WHERE environment = $1 AND remote = $2 AND delivered_at IS NULL AND gave_up_at IS NULL`,
    [environment, remote],
  );
  return rows.length > 0;
}

/**
 * A delivery row for each event of a remote with a webhook, at or after the webhook was set, that
 * has none yet. `body` builds the exact bytes that will be signed. Idempotent (the unique key).
 */
export async function enqueueNewEvents(
  db: Queryable,
  environment: string,
  body: (event: EventRow) => string,
  now: Date,
): Promise<number> {
  const { rows } = await db.query<EventRow>(
    `SELECT e.rollout_id, e.seq, e.at, e.kind, e.step_index, e.percent, e.actor, e.reason,
            r.remote, r.build_id, r.baseline_build, r.state, r.step_index AS rollout_step, w.url
       FROM rollout_events e
       JOIN rollouts r ON r.id = e.rollout_id
       JOIN rollout_webhooks w ON w.environment = r.environment AND w.remote = r.remote
      WHERE r.environment = $1 AND e.at >= w.since
        AND NOT EXISTS (SELECT 1 FROM rollout_webhook_deliveries d WHERE d.rollout_id = e.rollout_id AND d.seq = e.seq)
      ORDER BY e.at, e.rollout_id, e.seq
      LIMIT 100`,
    [environment],
  );
  for (const row of rows)
    await db.query(
      `INSERT INTO rollout_webhook_deliveries (id, environment, remote, rollout_id, seq, url, body, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [
        `msg_${row.rollout_id}_${row.seq}`,
        environment,
        row.remote,
        row.rollout_id,
        row.seq,
        row.url,
        body(row),
        now.toISOString(),
      ],
    );
  return rows.length;
}

export interface EventRow {
  readonly rollout_id: string;
  readonly seq: number;
  readonly at: unknown;
  readonly kind: string;
  readonly step_index: number | null;
  readonly percent: number | null;
  readonly actor: string;
  readonly reason: string;
  readonly remote: string;
  readonly build_id: string;
  readonly baseline_build: string;
  readonly state: string;
  readonly rollout_step: number;
  readonly url: string;
}

/**
 * Claims up to `limit` due deliveries for `leaseSeconds` (SKIP LOCKED: replicas pumping at once
 * take different rows), in the order their events happened. A claim that its replica never
 * answers (killed) comes due again after the lease: delivery is at least once, and the receiver
 * deduplicates on `webhook-id`.
 */
export async function claimDue(
  db: Queryable,
  environment: string,
  now: Date,
  leaseSeconds: number,
  limit: number,
): Promise<Delivery[]> {
  const { rows } = await db.query<Delivery & { rollout_id: string; seq: number }>(
    `UPDATE rollout_webhook_deliveries d SET next_attempt_at = $2::timestamptz + make_interval(secs => $3)
      WHERE d.id IN (SELECT id FROM rollout_webhook_deliveries
                      WHERE environment = $1 AND delivered_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= $2
                      ORDER BY next_attempt_at, rollout_id, seq LIMIT $4 FOR UPDATE SKIP LOCKED)
      RETURNING d.id, d.environment, d.remote, d.url, d.body, d.attempts, d.rollout_id, d.seq`,
    [environment, now.toISOString(), leaseSeconds, limit],
  );
  // RETURNING has no order: the timeline's is restored (a receiver still orders by `event.seq`).
  return rows
    .sort((a, b) => a.rollout_id.localeCompare(b.rollout_id) || a.seq - b.seq)
    .map(({ id, environment: env, remote, url, body, attempts }) => ({
      id,
      environment: env,
      remote,
      url,
      body,
      attempts,
    }));
}

export async function recordAttempt(
  db: Queryable,
  id: string,
  outcome: { delivered: boolean; status: number | null; error: string | null; retryAt: Date | null; now: Date },
): Promise<void> {
  await db.query(
    `UPDATE rollout_webhook_deliveries
        SET attempts = attempts + 1, last_status = $2, last_error = $3,
            delivered_at = CASE WHEN $4 THEN $6::timestamptz END,
            gave_up_at = CASE WHEN NOT $4 AND $5::timestamptz IS NULL THEN $6::timestamptz END,
            next_attempt_at = COALESCE($5::timestamptz, next_attempt_at)
      WHERE id = $1`,
    [
      id,
      outcome.status,
      outcome.error,
      outcome.delivered,
      outcome.retryAt?.toISOString() ?? null,
      outcome.now.toISOString(),
    ],
  );
}

export async function recentDeliveries(
  db: Queryable,
  environment: string,
  remote: string,
  limit: number,
): Promise<DeliveryStatus[]> {
  const { rows } = await db.query<{
    id: string;
    body: string;
    attempts: number;
    delivered_at: unknown;
    gave_up_at: unknown;
    next_attempt_at: unknown;
    last_status: number | null;
    last_error: string | null;
  }>(
    `SELECT id, body, attempts, delivered_at, gave_up_at, next_attempt_at, last_status, last_error
       FROM rollout_webhook_deliveries WHERE environment = $1 AND remote = $2
      ORDER BY next_attempt_at DESC, seq DESC LIMIT $3`,
    [environment, remote, limit],
  );
  const at = (value: unknown) => (value === null ? null : toIsoTimestamp(value));
  return rows.map((row) => ({
    id: row.id,
    type: (JSON.parse(row.body) as { type: string }).type,
    attempts: row.attempts,
    deliveredAt: at(row.delivered_at),
    gaveUpAt: at(row.gave_up_at),
    nextAttemptAt: row.delivered_at === null && row.gave_up_at === null ? at(row.next_attempt_at) : null,
    lastStatus: row.last_status,
    lastError: row.last_error,
  }));
}
