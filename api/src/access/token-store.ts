import { createHash, randomBytes } from 'node:crypto';
import type { AccessToken, Role } from '@special-gift/shared/api';
import { columns } from '../db/columns';
import type { Queryable } from '../db/database';

export { ROLES, type Role } from '@special-gift/shared/api';
export type TokenRecord = AccessToken;

const TOKEN = columns<TokenRecord>(
  ['id', 'name', 'remote', 'environment', 'role', 'created_at', 'created_by', 'expires_at', 'revoked_at'],
  { created_at: 'time', expires_at: 'time', revoked_at: 'time?' },
);

/** `sg_<24 hex id>_<43 base64url secret>`: the id finds the row, the secret (32 random bytes) proves it. */
const TOKEN_FORMAT = /^sg_([0-9a-f]{24})_([A-Za-z0-9_-]{43})$/;

/**
 * SHA-256, not a slow hash: the secret is 256 random bits, so no guess is cheaper than the key
 * space, whatever the hash's speed.
 */
const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The id and secret of a string shaped like a scoped token; null for anything else. */
export function parseToken(token: string): { readonly id: string; readonly secret: string } | null {
  const match = TOKEN_FORMAT.exec(token);
  return match?.[1] && match[2] ? { id: match[1], secret: match[2] } : null;
}

export interface NewToken {
  readonly name: string;
  readonly remote: string;
  readonly environment: string;
  readonly role: Role;
  readonly expiresAt: Date;
  /** The name of the token that created it. */
  readonly createdBy: string;
  /** Its id (`operator` for the operator credential): revoking that token revokes this one. */
  readonly createdById: string;
}

export async function insertToken(tx: Queryable, token: NewToken): Promise<{ record: TokenRecord; token: string }> {
  const id = randomBytes(12).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  const result = await tx.query<object>(
    `INSERT INTO access_tokens (id, name, remote, environment, role, secret_hash, created_by, expires_at, created_by_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     RETURNING ${TOKEN.list}`,
    [
      id,
      token.name,
      token.remote,
      token.environment,
      token.role,
      hashSecret(secret),
      token.createdBy,
      // ISO text, not a Date: the driver may come from another realm (timestamp.ts), where instanceof fails.
      token.expiresAt.toISOString(),
      token.createdById,
    ],
  );
  const row = result.rows[0];
  if (!row) throw new Error('INSERT … RETURNING gave no row');
  return { record: TOKEN.read(row), token: `sg_${id}_${secret}` };
}

/**
 * The token if it is live: its secret matches, not revoked, not expired. Read from the database on
 * every request, so a revocation holds at once on every replica.
 */
export async function findLiveToken(db: Queryable, token: string): Promise<TokenRecord | null> {
  const parsed = parseToken(token);
  if (!parsed) return null;
  const result = await db.query<object>(
    `SELECT ${TOKEN.list} FROM access_tokens
     WHERE id = $1 AND secret_hash = $2 AND revoked_at IS NULL AND expires_at > now()`,
    [parsed.id, hashSecret(parsed.secret)],
  );
  const row = result.rows[0];
  return row ? TOKEN.read(row) : null;
}

/** Whether the token with this id is neither revoked nor expired (a preview cookie names the token that made it). */
export async function isTokenLive(db: Queryable, id: string): Promise<boolean> {
  const result = await db.query<{ id: string }>(
    'SELECT id FROM access_tokens WHERE id = $1 AND revoked_at IS NULL AND expires_at > now()',
    [id],
  );
  return result.rows.length === 1;
}

export async function findToken(db: Queryable, id: string): Promise<TokenRecord | null> {
  const result = await db.query<object>(`SELECT ${TOKEN.list} FROM access_tokens WHERE id = $1`, [id]);
  const row = result.rows[0];
  return row ? TOKEN.read(row) : null;
}

/** The tokens of one environment (and remote, unless null), newest first. */
export async function listTokens(db: Queryable, environment: string, remote: string | null): Promise<TokenRecord[]> {
  const result = await db.query<object>(
    `SELECT ${TOKEN.list} FROM access_tokens WHERE environment = $1 AND ($2::text IS NULL OR remote = $2)
     ORDER BY created_at DESC, id`,
    [environment, remote],
  );
  return result.rows.map((row) => TOKEN.read(row));
}

/**
 * Holds the creator's row (FOR SHARE) for the rest of the transaction that mints under it; false if
 * it is revoked. A revocation of it (or of any token above it) takes FOR UPDATE on that row first,
 * so the two serialize: either the revocation waits and then sees the new token, or this waits and
 * then sees the creator revoked. Not for the operator credential: it has no row and no revocation.
 */
export async function holdLiveCreator(tx: Queryable, creatorId: string): Promise<boolean> {
  const result = await tx.query<object>('SELECT 1 FROM access_tokens WHERE id = $1 AND revoked_at IS NULL FOR SHARE', [
    creatorId,
  ]);
  return result.rows.length === 1;
}

export interface Revocation {
  readonly revoked: TokenRecord;
  /** Revoked with it (a cascade): the tokens it created, and theirs. */
  readonly alsoRevoked: TokenRecord[];
  /** Without a cascade: the tokens it created, now answering to its creator. */
  readonly reattached: TokenRecord[];
}

/**
 * Revokes a live token. With `cascade`, also every live token it created, and theirs, at once: a
 * leaked admin token's backdoors end with it. Without, the tokens it created stay valid and are
 * reattached to its own creator, so a later cascade from there still reaches them (rotating an
 * admin token without a gap). Null if the token was already revoked (or does not exist).
 *
 * Each level is locked (FOR UPDATE) by its own statement before the next is read: READ COMMITTED
 * gives each statement a fresh snapshot, so a token minted under a locked row before the lock was
 * granted is seen, and one minted after waits for this transaction (holdLiveCreator) and is refused.
 * Reattaching is minting under the creator, so it holds the creator first (lockRoot).
 */
export async function revokeToken(tx: Queryable, id: string, cascade: boolean): Promise<Revocation | null> {
  const rootRow = await lockRoot(tx, id, cascade);
  if (!rootRow) return null;
  const ids = [id];
  let level = [id];
  while (cascade && level.length > 0) {
    const next = await tx.query<{ id: string }>(
      'SELECT id FROM access_tokens WHERE created_by_id = ANY($1::text[]) AND revoked_at IS NULL FOR UPDATE',
      [level],
    );
    level = next.rows.map((row) => row.id).filter((child) => !ids.includes(child));
    ids.push(...level);
  }
  const reattached = cascade
    ? []
    : (
        await tx.query<object>(
          `UPDATE access_tokens SET created_by_id = $2 WHERE created_by_id = $1 AND revoked_at IS NULL
           RETURNING ${TOKEN.list}`,
          [id, rootRow.created_by_id],
        )
      ).rows.map((row) => TOKEN.read(row));
  const result = await tx.query<object>(
    `UPDATE access_tokens SET revoked_at = now() WHERE id = ANY($1::text[]) AND revoked_at IS NULL
     RETURNING ${TOKEN.list}`,
    [ids],
  );
  const records = result.rows.map((row) => TOKEN.read(row));
  const revoked = records.find((record) => record.id === id);
  if (!revoked) throw new Error('a locked live token was not revoked');
  return { revoked, alsoRevoked: records.filter((record) => record.id !== id), reattached };
}

/**
 * Locks the live token `id` (FOR UPDATE) and returns its creator's id; null if it is not live.
 * Without a cascade its tokens move to its creator, so the creator is held first (FOR SHARE, top
 * down as a revocation locks): a cascade from the creator then waits, and sees them. Its row is
 * read again after: a revocation or a reattachment of it that committed meanwhile is seen.
 */
async function lockRoot(tx: Queryable, id: string, cascade: boolean): Promise<{ created_by_id: string | null } | null> {
  const read = (lock: string) =>
    tx.query<{ created_by_id: string | null }>(
      `SELECT created_by_id FROM access_tokens WHERE id = $1 AND revoked_at IS NULL ${lock}`,
      [id],
    );
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const seen = cascade ? undefined : (await read('')).rows[0];
    if (seen?.created_by_id)
      await tx.query('SELECT 1 FROM access_tokens WHERE id = $1 FOR SHARE', [seen.created_by_id]);
    const locked = (await read('FOR UPDATE')).rows[0] ?? null;
    if (cascade || !locked || locked.created_by_id === seen?.created_by_id) return locked;
  }
  throw new Error(`the creator of token ${id} kept changing while it was being revoked`);
}
