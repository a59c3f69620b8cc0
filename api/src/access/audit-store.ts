import type { AuditEntry } from '@special-gift/shared/api';
import { columns } from '../db/columns';
import type { Queryable } from '../db/database';

export {
  AUDIT_ACTIONS,
  CHANNELS,
  CLIENT_CHANNELS,
  type AuditAction,
  type AuditEntry,
  type Channel,
} from '@special-gift/shared/api';

const AUDIT = columns<AuditEntry>(
  [
    'id',
    'at',
    'environment',
    'remote',
    'action',
    'token_id',
    'token_name',
    'channel',
    'from_state',
    'to_state',
    'reason',
  ],
  { id: 'number', at: 'time' },
);

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at'>;

/** Appends one entry; call it inside the change's own transaction, so the two commit or roll back together. */
export async function appendAudit(tx: Queryable, entry: NewAuditEntry): Promise<void> {
  await tx.query(
    `INSERT INTO audit_trail (environment, remote, action, token_id, token_name, channel, from_state, to_state, reason)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      entry.environment,
      entry.remote,
      entry.action,
      entry.tokenId,
      entry.tokenName,
      entry.channel,
      entry.fromState,
      entry.toState,
      entry.reason,
    ],
  );
}

/** The newest `limit` entries of one environment, of one remote unless null, newest first. */
export async function readAudit(
  db: Queryable,
  { environment, remote, limit }: { environment: string; remote: string | null; limit: number },
): Promise<AuditEntry[]> {
  const result = await db.query<object>(
    `SELECT ${AUDIT.list} FROM audit_trail WHERE environment = $1 AND ($2::text IS NULL OR remote = $2)
     ORDER BY id DESC LIMIT $3`,
    [environment, remote, limit],
  );
  return result.rows.map((row) => AUDIT.read(row));
}
