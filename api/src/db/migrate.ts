import type { Database } from './database';

interface Migration {
  readonly version: number;
  readonly sql: string;
}

/** Append-only: never edit a released migration, add the next version instead. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE sign_ups (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        first_name text NOT NULL,
        last_name text NOT NULL,
        email text NOT NULL,
        phone text NULL,
        card_code text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE idempotency_keys (
        key text PRIMARY KEY,
        request_hash text NOT NULL,
        status integer NOT NULL,
        body jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
    `,
  },
  {
    version: 2,
    sql: `
      -- The purge of expired idempotency keys scans by age.
      CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
      -- SHA-256 (hex) of the read token given only to the creator; NULL: not readable through the API.
      ALTER TABLE sign_ups ADD COLUMN read_token_hash text NULL;
    `,
  },
  {
    version: 3,
    sql: `
      -- Each read token a creator was given (the 201, then one per idempotent replay of it), as
      -- SHA-256 hex; the most recent ten are kept (see sign-up-repository.ts). read_token_hash
      -- stays, written and read too, while replicas of the previous release may run beside these.
      ALTER TABLE sign_ups ADD COLUMN read_token_hashes text[] NOT NULL DEFAULT '{}';
      UPDATE sign_ups SET read_token_hashes = ARRAY[read_token_hash] WHERE read_token_hash IS NOT NULL;
      -- Stored answers kept the token itself for replays: only the hash above may exist.
      UPDATE idempotency_keys SET body = body - 'readToken' WHERE body ? 'readToken';
    `,
  },
  // Version 4 is the releases work's (its own branch): versions need not be contiguous, each runs once.
  {
    version: 5,
    sql: `
      -- Field telemetry (docs/telemetry.md). One row per page view and remote it loaded: what the
      -- report aggregates (sessions, error rate, p75 of each vital) by remote, build and time.
      CREATE TABLE telemetry_sessions (
        received_at timestamptz NOT NULL,
        remote text NOT NULL,
        build text NOT NULL,
        route text NOT NULL,
        device text NOT NULL,
        -- Load failures, render errors and uncaught errors of this remote in the page view.
        failures integer NOT NULL,
        -- The worst value each vital reached for this remote in the page view; NULL: not reported.
        lcp double precision NULL,
        inp double precision NULL,
        cls double precision NULL
      );
      CREATE INDEX telemetry_sessions_received_at ON telemetry_sessions (received_at);
      -- Every event as sent (enumerations and numbers only), for looking into what the report shows.
      CREATE TABLE telemetry_events (
        received_at timestamptz NOT NULL,
        type text NOT NULL,
        -- NULL: the host, or not attributable.
        remote text NULL,
        build text NULL,
        route text NOT NULL,
        device text NOT NULL,
        -- The vital's name, or the error's name.
        name text NULL,
        phase text NULL,
        kind text NULL,
        value double precision NULL,
        rating text NULL,
        target text NULL,
        rejection boolean NULL,
        t double precision NOT NULL
      );
      CREATE INDEX telemetry_events_received_at ON telemetry_events (received_at);
    `,
  },
];

/** Any fixed 64-bit number, the same in every replica: the advisory lock that serialises migrations. */
const MIGRATION_LOCK_ID = 7_305_117_211;

/**
 * Brings the schema up to date, in one transaction under a transaction-level advisory lock: when
 * several replicas start at once, one migrates and the others wait, then find nothing left to do.
 * A failed migration rolls back entirely (PostgreSQL DDL is transactional).
 */
export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_ID]);
    await tx.exec(`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      );
    `);
    const applied = await tx.query<{ version: number }>('SELECT version FROM schema_migrations');
    const done = new Set(applied.rows.map((row) => row.version));
    const ran: number[] = [];
    for (const migration of migrations) {
      if (done.has(migration.version)) continue;
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      ran.push(migration.version);
    }
    return ran;
  });
}
