import type { Database } from './database';
import { migrate } from './migrate';
import { openPgliteDatabase } from './pglite-database';
import { openPostgresDatabase } from './postgres-database';

/** Which engine to open (config.ts reads it from the environment). */
export type DatabaseConfig =
  /** The embedded default: PGlite in a directory, one process at a time. */
  | { readonly engine: 'pglite'; readonly dataDir: string; readonly fsync: boolean; readonly lockWaitMs?: number }
  /** A PostgreSQL server, shared by any number of API processes. */
  | { readonly engine: 'postgres'; readonly url: string; readonly poolSize: number };

/**
 * Opens the configured engine (PostgreSQL when a URL is set, else PGlite in the data directory) and
 * brings its schema up to date. Close it with `db.close()`.
 */
export async function openDatabase(
  config: DatabaseConfig,
  { onLockWait }: { readonly onLockWait?: () => void } = {},
): Promise<Database> {
  const db =
    config.engine === 'postgres'
      ? await openPostgresDatabase(config)
      : await openPgliteDatabase({ ...config, onLockWait });
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
