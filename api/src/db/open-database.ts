import type { DatabaseConfig } from '../config';
import type { Database } from './database';
import { migrate } from './migrate';
import { openPgliteDatabase } from './pglite-database';
import { openPostgresDatabase } from './postgres-database';

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
