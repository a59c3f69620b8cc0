// Migration 10's CHECK on telemetry_sessions.provenance: added NOT VALID inside the migrations'
// transaction (no scan under the ALTER's ACCESS EXCLUSIVE lock), validated after it commits.
import { createTestDatabase, testEngines } from '../../test/support/test-databases';
import type { Database, Engine, Queryable } from './database';
import { migrate, MIGRATIONS } from './migrate';
import { openPgliteDatabase } from './pglite-database';
import { openPostgresDatabase } from './postgres-database';
import type * as NativePglite from '../../test/support/native-pglite';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);
jest.setTimeout(60_000);

/** A fresh, unmigrated database of `engine` for `work`, dropped afterwards. */
async function withDatabase(engine: Engine, work: (db: Database) => Promise<void>): Promise<void> {
  const database = await createTestDatabase(engine);
  const { config } = database;
  const db = config.engine === 'postgres' ? await openPostgresDatabase(config) : await openPgliteDatabase(config);
  try {
    await work(db);
  } finally {
    await db.close();
    await database.drop();
  }
}

describe.each(testEngines())('migration 10 on %s', (engine) => {
  it("validates the provenance CHECK in a transaction of its own, after the migrations' commit", async () => {
    await withDatabase(engine, async (db) => {
      // Each statement with the number of the transaction it ran in.
      const statements: Array<[transaction: number, sql: string]> = [];
      let transactions = 0;
      const recorded: Database = {
        ...db,
        transaction: (work) =>
          db.transaction((tx) => {
            const number = (transactions += 1);
            const spy: Queryable = {
              query: (sql, params) => (statements.push([number, sql]), tx.query(sql, params)),
              exec: (sql) => (statements.push([number, sql]), tx.exec(sql)),
            };
            return work(spy);
          }),
      };
      await migrate(recorded);
      const inMigration = statements.find(([, sql]) => sql.includes('ADD COLUMN provenance'));
      const validation = statements.find(([, sql]) =>
        /VALIDATE CONSTRAINT telemetry_sessions_provenance_check/.test(sql),
      );
      expect(inMigration?.[1]).toMatch(/telemetry_sessions_provenance_check\s+CHECK \([^;]*\) NOT VALID;/);
      expect(validation?.[0]).toBeGreaterThan(inMigration?.[0] ?? Infinity);
      const { rows } = await db.query<{ convalidated: boolean }>(
        "SELECT convalidated FROM pg_constraint WHERE conname = 'telemetry_sessions_provenance_check'",
      );
      expect(rows).toEqual([{ convalidated: true }]);
      // Still enforced.
      await expect(
        db.query(
          `INSERT INTO telemetry_sessions (received_at, remote, build, route, device, failures, provenance)
           VALUES (now(), 'signup', 'image', '/sign-up', 'phone', 0, 'bogus')`,
        ),
      ).rejects.toThrow(/telemetry_sessions_provenance_check/);
      // Again (another replica's start): nothing to migrate, the validation a no-op.
      expect(await migrate(db)).toEqual([]);
    });
  });
});

describe.each(testEngines())('migration 13 on %s', (engine) => {
  it("widens the audit trail's checks (validated after the commit) and keeps the timeline append-only", async () => {
    await withDatabase(engine, async (db) => {
      // A row written before migration 13, under the old checks, stays valid under the new.
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version < 13),
      );
      const audit = (action: string, channel: string) =>
        db.query(
          `INSERT INTO audit_trail (environment, remote, action, token_id, token_name, channel, reason)
           VALUES ('production', 'signup', $1, 'operator', 'operator', $2, '')`,
          [action, channel],
        );
      await audit('release', 'cli');
      await expect(audit('rollout-start', 'system')).rejects.toThrow(/audit_trail_(action|channel)_check/);
      expect(
        await migrate(
          db,
          MIGRATIONS.filter((migration) => migration.version <= 13),
        ),
      ).toEqual([13]);
      const { rows } = await db.query<{ conname: string; convalidated: boolean }>(
        "SELECT conname, convalidated FROM pg_constraint WHERE conname IN ('audit_trail_action_check', 'audit_trail_channel_check') ORDER BY conname",
      );
      expect(rows).toEqual([
        { conname: 'audit_trail_action_check', convalidated: true },
        { conname: 'audit_trail_channel_check', convalidated: true },
      ]);
      await audit('rollout-start', 'system');
      await expect(audit('rollout-start', 'pager')).rejects.toThrow(/audit_trail_channel_check/);
      await db.query(
        `INSERT INTO release_builds (remote, build_id, contract_major, files, bytes, published_by) VALUES ('signup', 'c0ffee000001', 1, 1, 1, 't')`,
      );
      const rollout = (id: string) =>
        db.query(
          `INSERT INTO rollouts (id, environment, remote, build_id, baseline_build, plan, state, pointer_revision,
             next_check_at, started_by_token_id, started_by, started_at)
           VALUES ($1, 'production', 'signup', 'c0ffee000001', 'a11ce0000001', '{}', 'gating', 1, now(), 'operator', 'operator', now())`,
          [id],
        );
      await rollout('a'.repeat(24));
      await expect(rollout('b'.repeat(24))).rejects.toThrow(/rollouts_one_active/);
      await db.query(
        `INSERT INTO rollout_events (rollout_id, seq, at, kind, actor_token_id, actor) VALUES ($1, 1, now(), 'started', 'operator', 'operator')`,
        ['a'.repeat(24)],
      );
      await expect(db.query("UPDATE rollout_events SET reason = 'rewritten'")).rejects.toThrow(/append-only/);
      await expect(db.query('DELETE FROM rollout_events')).rejects.toThrow(/append-only/);
    });
  });
});

describe.each(testEngines())('migration 14 on %s', (engine) => {
  it('adds the default plans and plan_source, keeps rollouts of before, and learns the rollout-plan audit action', async () => {
    await withDatabase(engine, async (db) => {
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version < 14),
      );
      await db.query(
        `INSERT INTO release_builds (remote, build_id, contract_major, files, bytes, published_by) VALUES ('signup', 'c0ffee000001', 1, 1, 1, 't')`,
      );
      const rollout = (id: string, extra = '', value: string[] = []) =>
        db.query(
          `INSERT INTO rollouts (id, environment, remote, build_id, baseline_build, plan, state, pointer_revision,
             next_check_at, started_by_token_id, started_by, started_at, finished_at${extra})
           VALUES ($1, 'production', 'signup', 'c0ffee000001', 'a11ce0000001', '{}', 'aborted', 1, now(), 'operator',
             'operator', now(), now()${value.map((_, index) => `, $${index + 2}`).join('')})`,
          [id, ...value],
        );
      // A rollout of before migration 14, and an audit row of the action it does not know yet.
      await rollout('a'.repeat(24));
      const audit = (action: string) =>
        db.query(
          `INSERT INTO audit_trail (environment, remote, action, token_id, token_name, channel, reason)
           VALUES ('production', 'signup', $1, 'operator', 'operator', 'cli', '')`,
          [action],
        );
      await expect(audit('rollout-plan')).rejects.toThrow(/audit_trail_action_check/);
      expect(await migrate(db)).toEqual([14]);
      const { rows } = await db.query<{ conname: string; convalidated: boolean }>(
        "SELECT conname, convalidated FROM pg_constraint WHERE conname IN ('audit_trail_action_check', 'rollouts_plan_source_check') ORDER BY conname",
      );
      expect(rows).toEqual([
        { conname: 'audit_trail_action_check', convalidated: true },
        { conname: 'rollouts_plan_source_check', convalidated: true },
      ]);
      // The rollout of before: its plan's source is not known (NULL), and stays valid.
      const before = await db.query<{ plan_source: string | null }>('SELECT plan_source FROM rollouts');
      expect(before.rows).toEqual([{ plan_source: null }]);
      await audit('rollout-plan');
      await audit('rollout-webhook');
      await rollout('b'.repeat(24), ', plan_source', ['remote-default']);
      await expect(rollout('c'.repeat(24), ', plan_source', ['elsewhere'])).rejects.toThrow(
        /rollouts_plan_source_check/,
      );
      const plan = (version: number, plan: string | null = '{"steps": []}') =>
        db.query(
          `INSERT INTO rollout_default_plans (environment, remote, plan, version, updated_by, updated_at)
           VALUES ('production', 'signup', $1, $2, 'operator', now())`,
          [plan, version],
        );
      await expect(plan(0)).rejects.toThrow(/rollout_default_plans_version_check/);
      await plan(1, null);
      await expect(plan(2)).rejects.toThrow(/rollout_default_plans_pkey/);
      expect(await migrate(db)).toEqual([]);
    });
  });
});
