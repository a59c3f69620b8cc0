import type { Database, Queryable } from './database';

/** A final answer to a request, as sent and as stored for replay. */
export interface StoredAnswer {
  readonly status: number;
  readonly body: unknown;
}

export type IdempotentOutcome =
  /** First time for this key: `produce` ran and its answer is now stored. */
  | { readonly kind: 'fresh'; readonly answer: StoredAnswer }
  /** Same key, same request: the stored answer, `produce` did not run. */
  | { readonly kind: 'replayed'; readonly answer: StoredAnswer }
  /** Same key, different request: nothing ran, nothing stored. */
  | { readonly kind: 'key_reused' };

interface KeyRow {
  request_hash: string;
  status: number;
  body: unknown;
  expired: boolean;
}

export interface IdempotencyOptions {
  /** How long a key replays its answer; after that it is as if it had never been used. */
  readonly ttlHours: number;
}

/**
 * Runs `produce` at most once per idempotency key, across every connection and every API process
 * on the database. The key lookup, `produce`'s writes and the stored answer commit in one
 * transaction, so a request either happened completely (and will be replayed) or not at all.
 *
 * Concurrency: the transaction first takes a transaction-level advisory lock on the key's hash,
 * so two requests with the same key, on any connection of any replica, run one after the other;
 * the second one then reads the first one's committed answer (READ COMMITTED: each statement sees
 * what committed before it). The key's primary key stays the last line of defence.
 */
export async function answerOnce(
  db: Database,
  key: string,
  requestHash: string,
  produce: (tx: Queryable) => Promise<StoredAnswer>,
  options: IdempotencyOptions,
): Promise<IdempotentOutcome> {
  return db.transaction((tx) => answerOnceIn(tx, key, requestHash, produce, options));
}

/** {@link answerOnce}'s work inside a transaction the caller opened. */
export async function answerOnceIn(
  tx: Queryable,
  key: string,
  requestHash: string,
  produce: (tx: Queryable) => Promise<StoredAnswer>,
  { ttlHours }: IdempotencyOptions,
): Promise<IdempotentOutcome> {
  await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
  const existing = await tx.query<KeyRow>(
    `SELECT request_hash, status, body, created_at < now() - make_interval(hours => $2) AS expired
     FROM idempotency_keys WHERE key = $1`,
    [key, ttlHours],
  );
  const row = existing.rows[0];
  if (row && !row.expired) {
    return row.request_hash === requestHash
      ? { kind: 'replayed', answer: { status: row.status, body: row.body } }
      : { kind: 'key_reused' };
  }
  if (row) await tx.query('DELETE FROM idempotency_keys WHERE key = $1', [key]); // expired, not yet purged
  const answer = await produce(tx);
  // Passed as JSON text: both drivers store a string parameter for jsonb as is.
  await tx.query('INSERT INTO idempotency_keys (key, request_hash, status, body) VALUES ($1, $2, $3, $4::jsonb)', [
    key,
    requestHash,
    answer.status,
    JSON.stringify(answer.body),
  ]);
  return { kind: 'fresh', answer };
}

/** Deletes the keys older than the TTL; returns how many. Safe to run from every replica at once. */
export async function purgeExpiredKeys(db: Queryable, { ttlHours }: IdempotencyOptions): Promise<number> {
  const result = await db.query<{ count: number }>(
    `WITH purged AS (DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(hours => $1) RETURNING 1)
     SELECT count(*)::int AS count FROM purged`,
    [ttlHours],
  );
  return result.rows[0]?.count ?? 0;
}
