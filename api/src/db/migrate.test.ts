// Migration 10's CHECK on telemetry_sessions.provenance: added NOT VALID inside the migrations'
// transaction (no scan under the ALTER's ACCESS EXCLUSIVE lock), validated after it commits.
import { createTestDatabase, testEngines } from '../../test/support/test-databases';
import type { Database, Queryable } from './database';
import { migrate } from './migrate';
import { openPgliteDatabase } from './pglite-database';
import { openPostgresDatabase } from './postgres-database';
import type * as NativePglite from '../../test/support/native-pglite';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);
jest.setTimeout(60_000);

describe.each(testEngines())('migration 10 on %s', (engine) => {
  it("validates the provenance CHECK in a transaction of its own, after the migrations' commit", async () => {
    const database = await createTestDatabase(engine);
    const { config } = database;
    const db = config.engine === 'postgres' ? await openPostgresDatabase(config) : await openPgliteDatabase(config);
    try {
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
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
