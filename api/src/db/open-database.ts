import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { Database } from './database';
import { migrate } from './migrate';

/**
 * Opens (creating if needed) the database stored in `dataDir` and migrates it. Only one process may
 * open a data directory at a time. Close it with `db.close()`, which flushes it to disk.
 */
export async function openDatabase(dataDir: string): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
