import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { makeTempDataDir } from '../test-support/test-server';
import { answerOnce } from './idempotency-store';
import { openDatabase } from './open-database';
import { findSignUpById, insertSignUp } from './sign-up-repository';
import type * as NativePglite from '../test-support/native-pglite';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../test-support/native-pglite').loadPgliteNatively(),
);

jest.setTimeout(60_000);

const signUp = { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', cardCode: '4111111111111111', acceptedTerms: true } as const;

describe('openDatabase', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = path.join(makeTempDataDir(), 'nested', 'api');
  });
  afterEach(() => {
    rmSync(path.dirname(path.dirname(dataDir)), { recursive: true, force: true });
  });

  it('creates the data dir, and the data survives closing and reopening', async () => {
    const first = await openDatabase(dataDir);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    const created = await insertSignUp(first, signUp);
    await answerOnce(first, 'key-1', 'hash-1', async () => ({ status: 201, body: { id: created?.id } }));
    await first.close();

    const reopened = await openDatabase(dataDir);
    try {
      expect(created).not.toBeNull();
      expect(await findSignUpById(reopened, created?.id ?? '')).toEqual(created);
      // The stored idempotent answer survived too: same key and hash replay it.
      const replay = await answerOnce(reopened, 'key-1', 'hash-1', () => Promise.reject(new Error('must not run')));
      expect(replay).toEqual({ kind: 'replayed', answer: { status: 201, body: { id: created?.id } } });
      // Migrations ran once, not again on reopen.
      const versions = await reopened.query<{ version: number }>('SELECT version FROM schema_migrations');
      expect(versions.rows).toEqual([{ version: 1 }]);
    } finally {
      await reopened.close();
    }
  });
});
