import pg from 'pg';
import { createTestDatabase, testEngines, type TestDatabase } from '../../test/support/test-databases';
import type { Database } from './database';
import { openPostgresDatabase } from './postgres-database';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const withPostgres = testEngines().includes('postgres') ? describe : describe.skip;

// PostgreSQL restarted (or failed over) under load: the server ends the connections, those a
// transaction holds among them. pg's pool listens for errors on idle connections only; a held one
// emits its 'error' with no listener, and the process died (the compose stack's fault matrix:
// every replica at once, sign-ups answered 502 by the host until they restarted).
withPostgres('PostgreSQL connections the server ends', () => {
  let testDb: TestDatabase;
  let db: Database;
  let admin: pg.Client;

  beforeAll(async () => {
    testDb = await createTestDatabase('postgres');
    if (testDb.config.engine !== 'postgres') throw new Error('expected a PostgreSQL test database');
    db = await openPostgresDatabase({ url: testDb.config.url, poolSize: 2 });
    admin = new pg.Client({ connectionString: testDb.config.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await db.close();
    await testDb.drop();
  });

  it('a connection ended while a transaction holds it fails that transaction, not the process; the next one works', async () => {
    const held = db.transaction(async (tx) => {
      const { rows } = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
      // The server's goodbye arrives while the connection is still held: its 'error' event.
      await sleep(200);
      await tx.query('SELECT 1');
    });
    // With the error the API answers 503 (not_ready), as for any lost connection.
    await expect(held).rejects.toThrow(/Connection terminated|connection error|terminating connection/);
    await expect(db.query('SELECT 1 AS one')).resolves.toEqual({ rows: [{ one: 1 }] });
  });
});
