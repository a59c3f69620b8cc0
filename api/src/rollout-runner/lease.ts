// The runner's leader (docs/rollouts.md, "One leader"): a lease row per environment with an expiry
// and a fencing epoch, +1 at every takeover. Every step checks, in its own transaction, that the
// lease is still this runner's at this epoch (FOR SHARE: a takeover's UPDATE waits for the step's
// commit, or the step sees the loss and writes nothing). Times are the injected clock's, passed as
// parameters, never SQL now(): replicas' clocks must agree to well within the lease's TTL.
import type { Queryable } from '../db/database';

export interface Lease {
  readonly name: string;
  readonly holder: string;
  readonly epoch: number;
}

/** The lease was taken over between the runner's read and its write: the transaction rolls back. */
export class LeaseLost extends Error {
  constructor(readonly lease: Lease) {
    super(`lease ${lease.name} at epoch ${lease.epoch} is no longer held by ${lease.holder}`);
  }
}

export const leaseName = (environment: string) => `runner:${environment}`;

/**
 * Takes or renews the lease; null when another holder's has not lapsed. `atOnce` (PGlite, where the
 * data directory's lock already makes this the only process) takes it whoever held it, so a
 * restarted `npm run up` does not wait out its own dead predecessor's TTL.
 */
export async function acquireLease(
  db: Queryable,
  {
    name,
    holder,
    ttlSeconds,
    now,
    atOnce,
  }: { name: string; holder: string; ttlSeconds: number; now: Date; atOnce: boolean },
): Promise<Lease | null> {
  const expires = new Date(now.getTime() + ttlSeconds * 1000).toISOString();
  await db.query(
    'INSERT INTO rollout_leases (name, holder, epoch, expires_at) VALUES ($1, $2, 1, $3) ON CONFLICT (name) DO NOTHING',
    [name, holder, expires],
  );
  const taken = await db.query<{ epoch: string | number }>(
    `UPDATE rollout_leases
        SET epoch = epoch + CASE WHEN holder = $2 THEN 0 ELSE 1 END, holder = $2, expires_at = $3
      WHERE name = $1 AND (holder = $2 OR expires_at < $4 OR $5)
      RETURNING epoch`,
    [name, holder, expires, now.toISOString(), atOnce],
  );
  const row = taken.rows[0];
  return row ? { name, holder, epoch: Number(row.epoch) } : null;
}

/** Inside a step's transaction: throws {@link LeaseLost} unless the lease is still this one. */
export async function assertHeld(tx: Queryable, lease: Lease, now: Date): Promise<void> {
  const held = await tx.query(
    `SELECT 1 FROM rollout_leases WHERE name = $1 AND holder = $2 AND epoch = $3 AND expires_at > $4 FOR SHARE`,
    [lease.name, lease.holder, lease.epoch, now.toISOString()],
  );
  if (held.rows.length === 0) throw new LeaseLost(lease);
}

/** On shutdown: the lease lapses now, so another replica takes over at its next tick. */
export async function releaseLease(db: Queryable, lease: Lease, now: Date): Promise<void> {
  await db.query('UPDATE rollout_leases SET expires_at = $4 WHERE name = $1 AND holder = $2 AND epoch = $3', [
    lease.name,
    lease.holder,
    lease.epoch,
    now.toISOString(),
  ]);
}
