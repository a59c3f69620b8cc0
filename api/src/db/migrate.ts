import type { Database } from './database';

interface Migration {
  readonly version: number;
  readonly sql: string;
  /**
   * Run after the migrations' transaction has committed, each in a transaction of its own, on every
   * start (so idempotent): `VALIDATE CONSTRAINT` of a constraint `sql` added `NOT VALID`. It scans
   * the table under a lock that lets reads and writes go on; inside the migrations' transaction the
   * scan would hold the ALTER's ACCESS EXCLUSIVE lock, and every replica's writes would wait on it.
   */
  readonly afterCommit?: readonly string[];
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
  {
    version: 4,
    sql: `
      -- Releases (docs/releases.md). Each remote build is published once under its content id and
      -- never changes; a release only moves a pointer. Every rule is a constraint of the database,
      -- so it holds whichever replica or connection writes.
      -- A published build: the same for every environment (they share the build store).
      CREATE TABLE release_builds (
        remote text NOT NULL CHECK (remote ~ '^[a-z][a-z0-9-]{0,31}$'),
        build_id text NOT NULL CHECK (build_id ~ '^[0-9a-f]{12}$'),
        contract_major integer NOT NULL CHECK (contract_major >= 0),
        files integer NOT NULL CHECK (files > 0),
        bytes bigint NOT NULL CHECK (bytes >= 0),
        published_at timestamptz NOT NULL DEFAULT now(),
        published_by text NOT NULL,
        -- Set once its files are deleted from the store: it may never be pointed at again.
        purged_at timestamptz NULL,
        PRIMARY KEY (remote, build_id)
      );
      -- Which build pages get, per environment and remote; no row: the remote's own image build.
      CREATE TABLE release_pointers (
        environment text NOT NULL,
        remote text NOT NULL,
        live_build text NOT NULL,
        canary_build text NULL,
        canary_percent integer NOT NULL DEFAULT 0 CHECK (canary_percent BETWEEN 0 AND 100),
        -- Compare-and-swap counter: every change is UPDATE ... WHERE revision = the one the writer read.
        revision integer NOT NULL CHECK (revision > 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (environment, remote),
        FOREIGN KEY (remote, live_build) REFERENCES release_builds (remote, build_id),
        FOREIGN KEY (remote, canary_build) REFERENCES release_builds (remote, build_id),
        CHECK ((canary_build IS NULL) = (canary_percent = 0)),
        CHECK (canary_build IS NULL OR canary_build <> live_build)
      );
      -- Every change of a pointer, never updated: one row per revision, detaches included.
      CREATE TABLE release_history (
        environment text NOT NULL,
        remote text NOT NULL,
        revision integer NOT NULL CHECK (revision > 0),
        action text NOT NULL CHECK (action IN ('release', 'canary', 'promote', 'abort', 'rollback', 'detach')),
        -- The build the action put live or in canary; NULL for abort and detach.
        build_id text NULL,
        previous_live text NULL,
        canary_percent integer NOT NULL DEFAULT 0 CHECK (canary_percent BETWEEN 0 AND 100),
        contract_major integer NULL,
        actor text NOT NULL,
        reason text NOT NULL DEFAULT '',
        at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (environment, remote, revision),
        FOREIGN KEY (remote, build_id) REFERENCES release_builds (remote, build_id),
        FOREIGN KEY (remote, previous_live) REFERENCES release_builds (remote, build_id)
      );
    `,
  },
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
  {
    version: 6,
    sql: `
      -- Integrity (docs/security.md): the sha384 SRI value of every file of the build a browser may
      -- load, by path, as the release tool computed it from the files it published. NULL: published
      -- before this column; pages refuse such a build's code until it is published again.
      ALTER TABLE release_builds ADD COLUMN integrity jsonb NULL;
    `,
  },
  {
    version: 7,
    sql: `
      -- Scoped credentials (docs/access.md): a token acts on one remote of one environment with one
      -- role. Only the SHA-256 of its secret is kept; the token itself is shown once, at creation.
      CREATE TABLE access_tokens (
        id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{24}$'),
        name text NOT NULL,
        remote text NOT NULL CHECK (remote ~ '^[a-z][a-z0-9-]{0,31}$'),
        environment text NOT NULL,
        role text NOT NULL CHECK (role IN ('viewer', 'deployer', 'admin')),
        secret_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by text NOT NULL,
        expires_at timestamptz NOT NULL,
        -- Set once: a revoked token never works again, on any replica (every request reads this row).
        revoked_at timestamptz NULL
      );
      CREATE INDEX access_tokens_scope ON access_tokens (environment, remote);
      -- Who changed what: one row per change, written in the change's own transaction, with the
      -- acting token's id and name as the API authenticated it. Never updated nor deleted: the
      -- triggers below refuse it whatever the client.
      CREATE TABLE audit_trail (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        environment text NOT NULL,
        remote text NOT NULL,
        action text NOT NULL CHECK (action IN ('publish', 'purge', 'release', 'canary', 'promote', 'abort',
          'rollback', 'detach', 'preview', 'lock', 'unlock', 'token-create', 'token-revoke')),
        token_id text NOT NULL,
        token_name text NOT NULL,
        channel text NOT NULL CHECK (channel IN ('console', 'cli', 'ci')),
        from_state text NULL,
        to_state text NULL,
        reason text NOT NULL DEFAULT ''
      );
      CREATE INDEX audit_trail_scope ON audit_trail (environment, remote, id);
      CREATE FUNCTION audit_trail_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'the audit trail is append-only';
      END;
      $$;
      CREATE TRIGGER audit_trail_append_only BEFORE UPDATE OR DELETE ON audit_trail
        FOR EACH ROW EXECUTE FUNCTION audit_trail_append_only();
      CREATE TRIGGER audit_trail_no_truncate BEFORE TRUNCATE ON audit_trail
        FOR EACH STATEMENT EXECUTE FUNCTION audit_trail_append_only();
      -- A frozen pointer (docs/access.md, locks): release, canary, promote and detach are refused
      -- while the row exists; abort and rollback (the incident's way back) still work.
      CREATE TABLE release_locks (
        environment text NOT NULL,
        remote text NOT NULL,
        reason text NOT NULL,
        locked_by text NOT NULL,
        locked_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (environment, remote)
      );
    `,
  },
  {
    version: 8,
    sql: `
      -- Browser engines (docs/browsers.md): the engine class of the browser that sent the page
      -- view (blink, gecko, webkit, other; engine.ts), never its User-Agent. 'unknown': before this column.
      ALTER TABLE telemetry_sessions ADD COLUMN engine text NOT NULL DEFAULT 'unknown';
    `,
  },
  {
    version: 9,
    sql: `
      -- What the console compares a build with the live one by (docs/console.md): the bytes of its
      -- remoteEntry.js, of what a page loads from it to show its screen (the entry and the exposed
      -- modules' sync JS and CSS), and the shared libraries' versions it was built with, by name,
      -- as the release tool read them from its mf-manifest.json. NULL: published before this
      -- migration ("not recorded", never 0).
      ALTER TABLE release_builds ADD COLUMN entry_bytes integer NULL CHECK (entry_bytes >= 0);
      ALTER TABLE release_builds ADD COLUMN first_screen_bytes integer NULL CHECK (first_screen_bytes >= 0);
      ALTER TABLE release_builds ADD COLUMN shared_versions jsonb NULL;
    `,
  },
  {
    version: 10,
    sql: `
      -- Signed page views (docs/telemetry.md): what a page view's batch proved about where it came
      -- from; only 'signed' counts in the canary verdict. 'unsigned': stored before this column.
      -- The CHECK is added NOT VALID (no scan of the table under this ALTER's lock; new rows are
      -- checked at once) and validated after the commit (afterCommit).
      ALTER TABLE telemetry_sessions ADD COLUMN provenance text NOT NULL DEFAULT 'unsigned';
      ALTER TABLE telemetry_sessions ADD CONSTRAINT telemetry_sessions_provenance_check
        CHECK (provenance IN ('signed', 'unsigned', 'expired', 'replayed', 'forged', 'mismatched')) NOT VALID;
      -- A signed page view's network: 8 bytes of an HMAC, under the page token key, of the client's
      -- /24 (IPv4) or /56 (IPv6), never an address. The verdict counts a few page views per network.
      ALTER TABLE telemetry_sessions ADD COLUMN network text NULL;
      -- Each page token's id once used, until the token expires: the primary key makes a token
      -- sign one page view only, whichever replica sees it first. No link to the page view's rows.
      CREATE TABLE telemetry_page_tokens (
        id text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      );
      CREATE INDEX telemetry_page_tokens_expires_at ON telemetry_page_tokens (expires_at);
      -- Which token created a token (its id, or 'operator'): revoking a token revokes the tokens it
      -- created, and theirs (docs/access.md). NULL: created before this column, by a name only.
      ALTER TABLE access_tokens ADD COLUMN created_by_id text NULL;
    `,
    afterCommit: ['ALTER TABLE telemetry_sessions VALIDATE CONSTRAINT telemetry_sessions_provenance_check'],
  },
  {
    version: 11,
    sql: `
      -- The release state (docs/releases.md, "Release state"): what each environment serves, as the
      -- composers read it from the build store. Each pointer change records the next state in its
      -- own transaction (one commit: the pointer and its state); the publisher then writes it to
      -- the store, and records here what it wrote, so every replica knows what is still to do.
      CREATE TABLE release_state_heads (
        environment text PRIMARY KEY,
        serial bigint NOT NULL CHECK (serial >= 1),
        published_serial bigint NOT NULL DEFAULT 0 CHECK (published_serial >= 0 AND published_serial <= serial),
        published_key_id text NULL,
        published_at timestamptz NULL,
        last_error text NULL,
        last_error_at timestamptz NULL
      );
      -- Every state, immutable once written: the body is the object's exact bytes (canonical JSON).
      CREATE TABLE release_states (
        environment text NOT NULL,
        serial bigint NOT NULL CHECK (serial >= 1),
        body text NOT NULL,
        sha256 text NOT NULL CHECK (sha256 ~ '^[0-9a-f]{64}$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (environment, serial)
      );
    `,
  },
  {
    version: 12,
    sql: `
      -- The last time the store was found not to hold what the publisher wrote (a tampered or deleted
      -- object), and why: kept after the repair, for operators (GET /v1/releases/state).
      ALTER TABLE release_state_heads ADD COLUMN drift_reason text NULL, ADD COLUMN drift_at timestamptz NULL;
    `,
  },
  {
    version: 13,
    sql: `
      -- Rollouts (docs/rollouts.md): a build taken by the API's leader through gates (before any
      -- user gets it) and steps (shares that advance, hold or roll back on the sequential rule).
      CREATE TABLE rollouts (
        id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{24}$'),
        environment text NOT NULL,
        remote text NOT NULL,
        build_id text NOT NULL,
        -- Live when it started: the arm the candidate is compared with.
        baseline_build text NOT NULL,
        -- A frozen copy: the rollout's own plan or the remote's default at its start.
        plan jsonb NOT NULL,
        state text NOT NULL CHECK (state IN ('gating', 'stepping', 'awaiting_approval', 'paused',
          'succeeded', 'rolled_back', 'failed', 'aborted')),
        -- The state resume returns to.
        paused_from text NULL,
        -- -1: at the gates; 0..n-1: at plan.steps[i]; n: promoted.
        step_index integer NOT NULL DEFAULT -1,
        step_started_at timestamptz NULL,
        -- The verdict's since: one always-valid sequence over the whole rollout.
        traffic_started_at timestamptz NULL,
        -- The pointer revision the runner (or the start) last saw: its compare-and-swap base.
        pointer_revision integer NOT NULL,
        -- Compare-and-swap of every change, the runner's and people's.
        version integer NOT NULL DEFAULT 1,
        -- A skip asked for: the next tick takes the next share whatever the dwell and the rule.
        skip_requested boolean NOT NULL DEFAULT false,
        next_check_at timestamptz NOT NULL,
        last_check jsonb NULL,
        started_by_token_id text NOT NULL,
        started_by text NOT NULL,
        started_at timestamptz NOT NULL,
        finished_at timestamptz NULL,
        outcome_reason text NOT NULL DEFAULT '',
        CHECK ((finished_at IS NULL) = (state IN ('gating', 'stepping', 'awaiting_approval', 'paused'))),
        FOREIGN KEY (remote, build_id) REFERENCES release_builds (remote, build_id)
      );
      -- One active rollout per remote and environment, whichever replica inserts.
      CREATE UNIQUE INDEX rollouts_one_active ON rollouts (environment, remote) WHERE finished_at IS NULL;
      CREATE INDEX rollouts_due ON rollouts (environment, next_check_at) WHERE finished_at IS NULL;
      CREATE TABLE rollout_gates (
        rollout_id text NOT NULL REFERENCES rollouts (id),
        gate text NOT NULL CHECK (gate IN ('contract', 'integrity', 'acceptance')),
        state text NOT NULL CHECK (state IN ('pending', 'running', 'passed', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        claim_nonce text NULL,
        claim_expires_at timestamptz NULL,
        -- Set once the gate has waited past the claim time: its gate-waiting event is sent once.
        waiting_reported boolean NOT NULL DEFAULT false,
        started_at timestamptz NULL,
        finished_at timestamptz NULL,
        reason text NOT NULL DEFAULT '',
        detail jsonb NULL,
        PRIMARY KEY (rollout_id, gate)
      );
      CREATE TABLE rollout_approvals (
        rollout_id text NOT NULL REFERENCES rollouts (id),
        step_index integer NOT NULL,
        requested_at timestamptz NOT NULL,
        approved_by_token_id text NULL,
        approved_by text NULL,
        approved_at timestamptz NULL,
        reason text NOT NULL DEFAULT '',
        PRIMARY KEY (rollout_id, step_index)
      );
      -- The timeline, never updated nor deleted (the audit trail's triggers): seq 1, 2, 3... per rollout.
      CREATE TABLE rollout_events (
        rollout_id text NOT NULL REFERENCES rollouts (id),
        seq integer NOT NULL CHECK (seq > 0),
        at timestamptz NOT NULL,
        kind text NOT NULL CHECK (kind IN ('started', 'gate-passed', 'gate-failed', 'gate-waiting', 'step',
          'hold', 'blocked', 'approval-requested', 'approved', 'paused', 'resumed', 'skipped', 'rolled-back',
          'promoted', 'succeeded', 'failed', 'aborted', 'telemetry-stale')),
        step_index integer NULL,
        percent integer NULL,
        decision jsonb NULL,
        actor_token_id text NOT NULL,
        actor text NOT NULL,
        reason text NOT NULL DEFAULT '',
        PRIMARY KEY (rollout_id, seq)
      );
      CREATE TRIGGER rollout_events_append_only BEFORE UPDATE OR DELETE ON rollout_events
        FOR EACH ROW EXECUTE FUNCTION audit_trail_append_only();
      CREATE TRIGGER rollout_events_no_truncate BEFORE TRUNCATE ON rollout_events
        FOR EACH STATEMENT EXECUTE FUNCTION audit_trail_append_only();
      -- The runner's leader per environment: a row with an expiry and a fencing epoch (+1 at each takeover).
      CREATE TABLE rollout_leases (
        name text PRIMARY KEY,
        holder text NOT NULL,
        epoch bigint NOT NULL,
        expires_at timestamptz NOT NULL
      );
      -- Rollout webhooks (docs/rollouts.md): one URL per remote; its secret is derived from a key and
      -- the generation (rotation bumps it), so no secret is stored.
      CREATE TABLE rollout_webhooks (
        environment text NOT NULL,
        remote text NOT NULL CHECK (remote ~ '^[a-z][a-z0-9-]{0,31}$'),
        url text NOT NULL,
        generation integer NOT NULL DEFAULT 1 CHECK (generation > 0),
        since timestamptz NOT NULL,          -- events from then on are sent
        updated_by text NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (environment, remote)
      );
      -- One delivery per timeline event, made from the events themselves (webhook-store.ts).
      CREATE TABLE rollout_webhook_deliveries (
        id text PRIMARY KEY,                 -- webhook-id: the same on every retry
        environment text NOT NULL,
        remote text NOT NULL,
        rollout_id text NOT NULL,
        seq integer NOT NULL,
        url text NOT NULL,
        body text NOT NULL,                  -- the exact bytes signed
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL,
        delivered_at timestamptz NULL,
        gave_up_at timestamptz NULL,
        last_status integer NULL,
        last_error text NULL,
        UNIQUE (rollout_id, seq),
        FOREIGN KEY (rollout_id, seq) REFERENCES rollout_events (rollout_id, seq)
      );
      CREATE INDEX rollout_webhook_deliveries_due ON rollout_webhook_deliveries (environment, next_attempt_at)
        WHERE delivered_at IS NULL AND gave_up_at IS NULL;
      -- The audit trail learns the rollout actions and the runners' system channel. NOT VALID here
      -- (no scan under this ALTER's lock; new rows are checked at once), validated after the commit.
      ALTER TABLE audit_trail DROP CONSTRAINT audit_trail_action_check;
      ALTER TABLE audit_trail ADD CONSTRAINT audit_trail_action_check CHECK (action IN ('publish', 'purge',
        'release', 'canary', 'promote', 'abort', 'rollback', 'detach', 'preview', 'lock', 'unlock', 'token-create',
        'token-revoke', 'rollout-start', 'rollout-gate', 'rollout-step', 'rollout-approve', 'rollout-pause',
        'rollout-resume', 'rollout-skip', 'rollout-abort', 'rollout-end', 'rollout-webhook')) NOT VALID;
      ALTER TABLE audit_trail DROP CONSTRAINT audit_trail_channel_check;
      ALTER TABLE audit_trail ADD CONSTRAINT audit_trail_channel_check
        CHECK (channel IN ('console', 'cli', 'ci', 'system')) NOT VALID;
    `,
    afterCommit: [
      'ALTER TABLE audit_trail VALIDATE CONSTRAINT audit_trail_action_check',
      'ALTER TABLE audit_trail VALIDATE CONSTRAINT audit_trail_channel_check',
    ],
  },
  {
    version: 14,
    sql: `
      -- A remote's default rollout plan per environment (docs/rollouts.md, "The plan"): what a rollout
      -- started without a plan follows, validated by the API as a rollout's own plan is. Cleared, the
      -- row stays with plan NULL, so its version only grows and an old expectedVersion never matches.
      CREATE TABLE rollout_default_plans (
        environment text NOT NULL,
        remote text NOT NULL CHECK (remote ~ '^[a-z][a-z0-9-]{0,31}$'),
        plan jsonb NULL,
        version integer NOT NULL CHECK (version > 0),
        updated_by text NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (environment, remote)
      );
      -- Where a rollout's plan came from: its start's request, the remote's default, or the API's
      -- built-in plan. NULL: started before this column (not known). NOT VALID, validated after the
      -- commit, like migration 13's checks.
      ALTER TABLE rollouts ADD COLUMN plan_source text NULL;
      ALTER TABLE rollouts ADD CONSTRAINT rollouts_plan_source_check
        CHECK (plan_source IN ('request', 'remote-default', 'built-in')) NOT VALID;
      -- The audit trail learns the default plan's changes.
      ALTER TABLE audit_trail DROP CONSTRAINT audit_trail_action_check;
      ALTER TABLE audit_trail ADD CONSTRAINT audit_trail_action_check CHECK (action IN ('publish', 'purge',
        'release', 'canary', 'promote', 'abort', 'rollback', 'detach', 'preview', 'lock', 'unlock', 'token-create',
        'token-revoke', 'rollout-start', 'rollout-gate', 'rollout-step', 'rollout-approve', 'rollout-pause',
        'rollout-resume', 'rollout-skip', 'rollout-abort', 'rollout-end', 'rollout-webhook', 'rollout-plan')) NOT VALID;
    `,
    afterCommit: [
      'ALTER TABLE rollouts VALIDATE CONSTRAINT rollouts_plan_source_check',
      'ALTER TABLE audit_trail VALIDATE CONSTRAINT audit_trail_action_check',
    ],
  },
];

/** Any fixed 64-bit number, the same in every replica: the advisory lock that serialises migrations. */
const MIGRATION_LOCK_ID = 7_305_117_211;

/**
 * Brings the schema up to date, in one transaction under a transaction-level advisory lock: when
 * several replicas start at once, one migrates and the others wait, then find nothing left to do.
 * A failed migration rolls back entirely (PostgreSQL DDL is transactional). Then each migration's
 * `afterCommit` statements, each in its own transaction.
 */
export async function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  const ran = await db.transaction(async (tx) => {
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
  // A no-op once done (a valid constraint is not scanned again); replicas starting at once take turns.
  for (const statement of migrations.flatMap((migration) => migration.afterCommit ?? []))
    await db.transaction((tx) => tx.exec(statement));
  return ran;
}
