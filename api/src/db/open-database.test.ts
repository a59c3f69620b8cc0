import { existsSync } from 'node:fs';
import path from 'node:path';
import { createTestDatabase, testEngines, type TestDatabase } from '../../test/support/test-databases';
import type { Database } from './database';
import { answerOnce, purgeExpiredKeys } from './idempotency-store';
import { MIGRATIONS, migrate } from './migrate';
import { openDatabase } from './open-database';
import { openPgliteDatabase } from './pglite-database';
import { openPostgresDatabase } from './postgres-database';
import { findSignUpById, findSignUpForReader, insertSignUp } from '../signups/store';
import type * as NativePglite from '../../test/support/native-pglite';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);

jest.setTimeout(60_000);

const signUp = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  cardCode: '4111111111111111',
  acceptedTerms: true,
} as const;
const TTL = { ttlHours: 24 };
const allVersions = MIGRATIONS.map((migration) => ({ version: migration.version }));

describe.each(testEngines())('the repository on %s', (engine) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('migrates, and the data survives closing and reopening', async () => {
    const first = await openDatabase(database.config);
    if (database.config.engine === 'pglite')
      expect(existsSync(path.join(database.config.dataDir, 'PG_VERSION'))).toBe(true);
    const created = await insertSignUp(first, signUp, 'a'.repeat(64));
    await answerOnce(first, 'key-1', 'hash-1', async () => ({ status: 201, body: { id: created?.id } }), TTL);
    await first.close();

    const reopened = await openDatabase(database.config);
    try {
      expect(created).not.toBeNull();
      expect(await findSignUpById(reopened, created?.id ?? '')).toEqual(created);
      expect(await findSignUpForReader(reopened, created?.id ?? '', 'a'.repeat(64))).toEqual(created);
      expect(await findSignUpForReader(reopened, created?.id ?? '', 'b'.repeat(64))).toBeNull();
      // The stored idempotent answer survived too: same key and hash replay it.
      const replay = await answerOnce(
        reopened,
        'key-1',
        'hash-1',
        () => Promise.reject(new Error('must not run')),
        TTL,
      );
      expect(replay).toEqual({ kind: 'replayed', answer: { status: 201, body: { id: created?.id } } });
      // Migrations ran once, not again on reopen.
      const versions = await reopened.query<{ version: number }>(
        'SELECT version FROM schema_migrations ORDER BY version',
      );
      expect(versions.rows).toEqual(allVersions);
    } finally {
      await reopened.close();
    }
  });
});

describe.each(testEngines())('migration 3 on %s', (engine) => {
  it('keeps no read token in stored answers: each moves to the sign-up as its SHA-256', async () => {
    const database = await createTestDatabase(engine);
    const { config } = database;
    const db = config.engine === 'postgres' ? await openPostgresDatabase(config) : await openPgliteDatabase(config);
    try {
      // A database as version 2 left it: the 201 stored for replays held the token in clear.
      await migrate(
        db,
        MIGRATIONS.filter((migration) => migration.version <= 2),
      );
      const token = 'T'.repeat(43);
      const hash = 'c'.repeat(64);
      const created = await db.query<{ id: string }>(
        `INSERT INTO sign_ups (first_name, last_name, email, card_code, read_token_hash) VALUES ('Ada', 'Lovelace', 'ada@example.com', '4111111111111111', $1) RETURNING id`,
        [hash],
      );
      const id = created.rows[0]?.id ?? '';
      await db.query(
        `INSERT INTO idempotency_keys (key, request_hash, status, body) VALUES ('k', 'h', 201, $1::jsonb)`,
        [JSON.stringify({ id, firstName: 'Ada', readToken: token })],
      );

      expect(
        await migrate(
          db,
          MIGRATIONS.filter((migration) => migration.version <= 3),
        ),
      ).toEqual([3]);
      const stored = await db.query<{ body: unknown }>('SELECT body FROM idempotency_keys');
      expect(stored.rows).toEqual([{ body: { id, firstName: 'Ada' } }]);
      expect(await findSignUpForReader(db, id, hash)).toMatchObject({ id });
      const everything = await db.query<{ dump: string }>(
        `SELECT (SELECT json_agg(s)::text FROM sign_ups s) || (SELECT json_agg(k)::text FROM idempotency_keys k) AS dump`,
      );
      expect(everything.rows[0]?.dump).not.toContain(token);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});

describe.each(testEngines())('the repository on %s, one database for these tests', (engine) => {
  let database: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    database = await createTestDatabase(engine);
    db = await openDatabase(database.config);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  it('refuses a second sign-up with the same card code, and the transaction stays usable', async () => {
    const card = { ...signUp, cardCode: '4012888888881881' };
    expect(await insertSignUp(db, card)).not.toBeNull();
    const outcome = await db.transaction(async (tx) => {
      const again = await insertSignUp(tx, { ...card, firstName: 'Grace' });
      const count = await tx.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM sign_ups WHERE card_code = $1',
        [card.cardCode],
      );
      return { again, count: count.rows[0]?.count };
    });
    expect(outcome).toEqual({ again: null, count: 1 });
  });

  it('rolls a failed transaction back entirely', async () => {
    const card = { ...signUp, cardCode: '5555555555554444' };
    await expect(
      db.transaction(async (tx) => {
        await insertSignUp(tx, card);
        throw new Error('after the insert');
      }),
    ).rejects.toThrow('after the insert');
    expect(
      (
        await db.query<{ count: number }>('SELECT count(*)::int AS count FROM sign_ups WHERE card_code = $1', [
          card.cardCode,
        ])
      ).rows,
    ).toEqual([{ count: 0 }]);
  });

  it('expires idempotency keys after the TTL (an expired key runs again) and purges them', async () => {
    await answerOnce(db, 'old', 'hash', async () => ({ status: 201, body: { n: 1 } }), TTL);
    await answerOnce(db, 'new', 'hash', async () => ({ status: 201, body: { n: 2 } }), TTL);
    await db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old'`);

    const rerun = await answerOnce(db, 'old', 'other-hash', async () => ({ status: 201, body: { n: 3 } }), TTL);
    expect(rerun).toEqual({ kind: 'fresh', answer: { status: 201, body: { n: 3 } } });

    await db.query(`UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = 'old'`);
    expect(await purgeExpiredKeys(db, TTL)).toBe(1);
    expect(
      (await db.query<{ key: string }>(`SELECT key FROM idempotency_keys WHERE key IN ('old', 'new')`)).rows,
    ).toEqual([{ key: 'new' }]);
  });
});

// PGlite is one process by construction (see data-dir-lock.test.ts); this is PostgreSQL's case.
(testEngines().includes('postgres') ? describe : describe.skip)(
  'migrations on PostgreSQL, several replicas starting at once',
  () => {
    it('apply once: the others wait on the advisory lock and find nothing to do', async () => {
      const database = await createTestDatabase('postgres');
      try {
        const dbs = await Promise.all(Array.from({ length: 4 }, () => openDatabase(database.config)));
        const versions = await dbs[0]?.query<{ version: number }>(
          'SELECT version FROM schema_migrations ORDER BY version',
        );
        expect(versions?.rows).toEqual(allVersions);
        // Nothing is left for anyone: the schema is complete and recorded once.
        const again = await Promise.all(dbs.map((db) => migrate(db)));
        expect(again).toEqual(dbs.map(() => []));
        await Promise.all(dbs.map((db) => db.close()));
      } finally {
        await database.drop();
      }
    });
  },
);
