import type { Transaction } from '@electric-sql/pglite';
import type { Database } from './database';

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
}

/**
 * Runs `produce` at most once per idempotency key. The key lookup, `produce`'s writes and the stored
 * answer commit in one transaction, so a request either happened completely (and will be replayed)
 * or not at all (and may be retried).
 *
 * Concurrency: PGlite is one connection, and `transaction()` holds its internal lock from BEGIN to
 * COMMIT (plain queries wait for it too). Concurrent calls therefore run one after another, and the
 * second of two identical requests finds the first one's answer. routes/sign-ups.test.ts proves it.
 */
export async function answerOnce(
  db: Database,
  key: string,
  requestHash: string,
  produce: (tx: Transaction) => Promise<StoredAnswer>,
): Promise<IdempotentOutcome> {
  return db.transaction(async (tx): Promise<IdempotentOutcome> => {
    const existing = await tx.query<KeyRow>('SELECT request_hash, status, body FROM idempotency_keys WHERE key = $1', [key]);
    const row = existing.rows[0];
    if (row) {
      return row.request_hash === requestHash ? { kind: 'replayed', answer: { status: row.status, body: row.body } } : { kind: 'key_reused' };
    }
    const answer = await produce(tx);
    // Passed as JSON text: the driver stores a string parameter for jsonb as is.
    await tx.query('INSERT INTO idempotency_keys (key, request_hash, status, body) VALUES ($1, $2, $3, $4::jsonb)', [
      key,
      requestHash,
      answer.status,
      JSON.stringify(answer.body),
    ]);
    return { kind: 'fresh', answer };
  });
}
