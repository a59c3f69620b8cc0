import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/db/open-database';
import type { Engine } from '../../src/db/database';

/** A fresh temporary directory for a test database. */
export function makeTempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'special-gift-api-test-'));
}

/**
 * The engines the database-backed tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL
 * points at a server (tooling/verify.sh starts a throwaway cluster and sets it). In CI it must be
 * set: a run that silently skipped PostgreSQL would prove nothing about it.
 */
export function testEngines(): Engine[] {
  const url = process.env.TEST_DATABASE_URL;
  if (!url && process.env.CI === 'true')
    throw new Error('TEST_DATABASE_URL is not set: tooling/verify.sh starts PostgreSQL for the tests');
  return url ? ['pglite', 'postgres'] : ['pglite'];
}

export function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

export interface TestDatabase {
  readonly config: DatabaseConfig;
  /** Deletes the database (its directory, or DROP DATABASE). */
  drop(): Promise<void>;
}

/** A new, empty database of `engine`: a temp directory, or a fresh database on the test server. */
export async function createTestDatabase(
  engine: Engine,
  { fsync = false }: { readonly fsync?: boolean } = {},
): Promise<TestDatabase> {
  if (engine === 'pglite') {
    const dataDir = makeTempDataDir();
    // fsync off by default: tests prove behaviour, not power-loss durability, and run faster.
    return { config: { engine, dataDir, fsync }, drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const adminUrl = testDatabaseUrl();
  const name = `sg_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    config: { engine, url: url.toString(), poolSize: 10 },
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The environment that points an API process at `config`. */
export function apiEnvFor(config: DatabaseConfig): Record<string, string> {
  return config.engine === 'postgres'
    ? { DATABASE_URL: config.url }
    : { API_DATA_DIR: config.dataDir, PGLITE_FSYNC: config.fsync ? 'on' : 'off' };
}
