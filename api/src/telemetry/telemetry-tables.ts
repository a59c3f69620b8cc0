import type { Queryable } from '../db/database';
import type { EventRow, SessionRow } from './telemetry-rows';

// The SQL of the telemetry tables: bulk inserts of buffered rows, the page tokens' one use, the purge.

/** A column of a bulk insert: the row's field, the table's column and the SQL type it travels as. */
type Column<Row> = readonly [field: keyof Row & string, column: string, sqlType: string];

/**
 * One statement per table whatever the row count: each column travels as one array parameter,
 * `unnest` turns them back into rows.
 */
function bulkInsert<Row>(table: string, columns: ReadonlyArray<Column<Row>>) {
  const sql = `INSERT INTO ${table} (${columns.map(([, column]) => column).join(', ')})
    SELECT * FROM unnest(${columns.map(([, , sqlType], index) => `$${index + 1}::${sqlType}[]`).join(', ')})`;
  return async (db: Queryable, rows: readonly Row[]) => {
    if (rows.length > 0)
      await db.query(
        sql,
        columns.map(([field]) => rows.map((row) => row[field])),
      );
  };
}

const insertSessions = bulkInsert<SessionRow>('telemetry_sessions', [
  ['receivedAt', 'received_at', 'timestamptz'],
  ['remote', 'remote', 'text'],
  ['build', 'build', 'text'],
  ['route', 'route', 'text'],
  ['device', 'device', 'text'],
  ['engine', 'engine', 'text'],
  ['failures', 'failures', 'int'],
  ['lcp', 'lcp', 'float8'],
  ['inp', 'inp', 'float8'],
  ['cls', 'cls', 'float8'],
  ['provenance', 'provenance', 'text'],
  ['network', 'network', 'text'],
]);
const insertEvents = bulkInsert<EventRow>('telemetry_events', [
  ['receivedAt', 'received_at', 'timestamptz'],
  ['type', 'type', 'text'],
  ['remote', 'remote', 'text'],
  ['build', 'build', 'text'],
  ['route', 'route', 'text'],
  ['device', 'device', 'text'],
  ['name', 'name', 'text'],
  ['phase', 'phase', 'text'],
  ['kind', 'kind', 'text'],
  ['value', 'value', 'float8'],
  ['rating', 'rating', 'text'],
  ['target', 'target', 'text'],
  ['rejection', 'rejection', 'boolean'],
  ['t', 't', 'float8'],
]);

export async function insertRows(db: Queryable, sessions: readonly SessionRow[], events: readonly EventRow[]) {
  await insertSessions(db, sessions);
  await insertEvents(db, events);
}

/**
 * Each page token is used once: its id goes into `telemetry_page_tokens` (primary key), and the
 * page view that inserted it is signed; any other batch with that id, here or on another replica,
 * before or after, is `replayed`. Concurrent claims on PostgreSQL: the second INSERT waits for the
 * first to commit, then does nothing. `claims` maps a token id to the batch that won it, across the
 * chunks of one write (a batch's rows may straddle two); the claims made here are returned, for the
 * caller to add to `claims` once the transaction has committed (a rolled-back claim was never made).
 */
export async function claimPageTokens(
  db: Queryable,
  sessions: SessionRow[],
  claims: ReadonlyMap<string, number | null>,
): Promise<Map<string, number | null>> {
  const made = new Map<string, number | null>();
  const fresh = new Map<string, { expiresAt: string; batch: number }>();
  for (const { token } of sessions)
    if (token && !claims.has(token.id) && !fresh.has(token.id)) fresh.set(token.id, token);
  if (fresh.size > 0) {
    const ids = [...fresh.keys()];
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO telemetry_page_tokens (id, expires_at)
       SELECT * FROM unnest($1::text[], $2::timestamptz[]) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [ids, ids.map((id) => fresh.get(id)?.expiresAt)],
    );
    const won = new Set(rows.map((row) => row.id));
    for (const [id, { batch }] of fresh) made.set(id, won.has(id) ? batch : null);
  }
  for (const row of sessions)
    if (row.token && (made.get(row.token.id) ?? claims.get(row.token.id)) !== row.token.batch)
      row.provenance = 'replayed';
  return made;
}

/** Deletes telemetry older than `retentionDays`; returns the rows deleted. Safe from every replica at once. */
export async function purgeTelemetry(db: Queryable, { retentionDays }: { readonly retentionDays: number }) {
  const result = await db.query<{ count: number }>(
    `WITH sessions AS (
       DELETE FROM telemetry_sessions WHERE received_at < now() - make_interval(days => $1) RETURNING 1
     ), events AS (
       DELETE FROM telemetry_events WHERE received_at < now() - make_interval(days => $1) RETURNING 1
     ), tokens AS (
       -- A used page token's id is kept until the token has expired (refused anyway from then on),
       -- with a margin for replicas' clocks that run behind the database's.
       DELETE FROM telemetry_page_tokens WHERE expires_at < now() - interval '5 minutes' RETURNING 1
     )
     SELECT ((SELECT count(*) FROM sessions) + (SELECT count(*) FROM events) + (SELECT count(*) FROM tokens))::int AS count`,
    [retentionDays],
  );
  return result.rows[0]?.count ?? 0;
}
