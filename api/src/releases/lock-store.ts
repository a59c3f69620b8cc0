import type { ReleaseLock } from '@special-gift/shared/api';
import { columns } from '../db/columns';
import type { Queryable } from '../db/database';

const LOCK = columns<ReleaseLock>(['reason', 'locked_by', 'locked_at'], { locked_at: 'time' });

/**
 * The remote's lock, if it is frozen. `share`: FOR SHARE, inside an action's transaction, so an
 * unlock waits for the action that saw the lock.
 */
export async function readLock(
  db: Queryable,
  environment: string,
  remote: string,
  { share = false } = {},
): Promise<ReleaseLock | null> {
  const result = await db.query<object>(
    `SELECT ${LOCK.list} FROM release_locks WHERE environment = $1 AND remote = $2${share ? ' FOR SHARE' : ''}`,
    [environment, remote],
  );
  const row = result.rows[0];
  return row ? LOCK.read(row) : null;
}

/** Freezes the pointer; null if it already is (the lock there stays, with its own reason). */
export async function insertLock(
  tx: Queryable,
  environment: string,
  remote: string,
  { reason, lockedBy }: { reason: string; lockedBy: string },
): Promise<ReleaseLock | null> {
  const result = await tx.query<object>(
    `INSERT INTO release_locks (environment, remote, reason, locked_by) VALUES ($1, $2, $3, $4)
     ON CONFLICT (environment, remote) DO NOTHING RETURNING ${LOCK.list}`,
    [environment, remote, reason, lockedBy],
  );
  const row = result.rows[0];
  return row ? LOCK.read(row) : null;
}

/** Unfreezes the pointer: the lock it had, or null if there was none. */
export async function deleteLock(tx: Queryable, environment: string, remote: string): Promise<ReleaseLock | null> {
  const result = await tx.query<object>(
    `DELETE FROM release_locks WHERE environment = $1 AND remote = $2 RETURNING ${LOCK.list}`,
    [environment, remote],
  );
  const row = result.rows[0];
  return row ? LOCK.read(row) : null;
}

/** `Lock: <reason> (by <name>, since <time>)`, as the CLI and console show it. */
export const describeLock = (remote: string, lock: ReleaseLock) =>
  `${remote} is locked by ${lock.lockedBy} since ${lock.lockedAt}: ${lock.reason}`;
