import type { SignUp } from '@special-gift/shared/validation';
import { columns } from '../db/columns';
import type { Queryable } from '../db/database';

/** A stored sign-up. */
export interface SignUpRecord {
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly phone: string | null;
  readonly cardCode: string;
  /** ISO 8601. */
  readonly createdAt: string;
}

const SIGN_UP = columns<SignUpRecord>(['id', 'first_name', 'last_name', 'email', 'phone', 'card_code', 'created_at'], {
  created_at: 'time',
});

/**
 * Stores a sign-up; `null` when its card code is already registered. ON CONFLICT, not a caught
 * unique violation, so a taken card leaves the surrounding transaction usable. When two
 * transactions insert the same card at once, PostgreSQL makes the second wait for the first: if
 * it commits, the second one conflicts (`null`); if it rolls back, the second one inserts.
 * `readTokenHash`: see read-token.ts.
 */
export async function insertSignUp(
  db: Queryable,
  signUp: SignUp,
  readTokenHash: string | null = null,
): Promise<SignUpRecord | null> {
  const result = await db.query<object>(
    `INSERT INTO sign_ups (first_name, last_name, email, phone, card_code, read_token_hash, read_token_hashes)
     VALUES ($1, $2, $3, $4, $5, $6::text, CASE WHEN $6::text IS NULL THEN '{}'::text[] ELSE ARRAY[$6::text] END)
     ON CONFLICT (card_code) DO NOTHING
     RETURNING ${SIGN_UP.list}`,
    [signUp.firstName, signUp.lastName, signUp.email, signUp.phone ?? null, signUp.cardCode, readTokenHash],
  );
  const row = result.rows[0];
  return row ? SIGN_UP.read(row) : null;
}

/** `id` must be a UUID (the column type); check it before calling. */
export async function findSignUpById(db: Queryable, id: string): Promise<SignUpRecord | null> {
  const result = await db.query<object>(`SELECT ${SIGN_UP.list} FROM sign_ups WHERE id = $1`, [id]);
  const row = result.rows[0];
  return row ? SIGN_UP.read(row) : null;
}

/** How many read tokens of one sign-up stay valid: the most recent ones. */
export const READ_TOKENS_KEPT = 10;

/** Another read token for the sign-up (an idempotent replay of its 201); the oldest beyond {@link READ_TOKENS_KEPT} stops working. */
export async function addReadTokenHash(db: Queryable, id: string, readTokenHash: string): Promise<void> {
  await db.query(
    `UPDATE sign_ups s
     SET read_token_hashes = kept.hashes,
         read_token_hash = CASE WHEN s.read_token_hash = ANY(kept.hashes) THEN s.read_token_hash END
     FROM (SELECT (array_append(read_token_hashes, $2::text))[greatest(1, cardinality(read_token_hashes) + 2 - $3::int):] AS hashes
           FROM sign_ups WHERE id = $1) kept
     WHERE s.id = $1`,
    [id, readTokenHash, READ_TOKENS_KEPT],
  );
}

/** The sign-up with this id one of whose read tokens hashes to `readTokenHash`; `null` for any mismatch. */
export async function findSignUpForReader(
  db: Queryable,
  id: string,
  readTokenHash: string,
): Promise<SignUpRecord | null> {
  // read_token_hash: a sign-up made by a replica of the previous release during a rolling update.
  const result = await db.query<object>(
    `SELECT ${SIGN_UP.list} FROM sign_ups WHERE id = $1 AND ($2 = ANY(read_token_hashes) OR read_token_hash = $2)`,
    [id, readTokenHash],
  );
  const row = result.rows[0];
  return row ? SIGN_UP.read(row) : null;
}
