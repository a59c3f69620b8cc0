import { fsyncSync, mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { DEFAULT_LOCK_WAIT_MS, lockDataDir } from './data-dir-lock';
import type { Database, Queryable, QueryResult } from './database';

export interface PgliteOptions {
  readonly dataDir: string;
  /** Durable commits: each COMMIT is on disk (fsync) before it is acknowledged. */
  readonly fsync: boolean;
  /** How long to wait for another process to release the directory; {@link DEFAULT_LOCK_WAIT_MS} if unset. */
  readonly lockWaitMs?: number;
  /** Called when the directory is taken and the wait begins. */
  readonly onLockWait?: () => void;
}

// Where PGlite mounts the data directory inside its WASM file system.
const DATA_MOUNT = '/pglite/data';

interface EmscriptenNode {
  readonly stream_ops?: { fsync?: (stream: { nfd?: number }) => number };
}
interface EmscriptenFs {
  lookupPath(path: string, options: object): { node: EmscriptenNode };
}

/**
 * PGlite starts PostgreSQL with fsync off (`-F`), and its Node file system (Emscripten's NODEFS)
 * implements neither fsync nor fdatasync: they return success without touching the disk. So turn
 * fsync on, make PostgreSQL sync its WAL with fsync() rather than fdatasync() (the call NODEFS
 * routes to the file's stream operations), and give those operations a real `fs.fsyncSync`.
 * Checked after start-up (`SHOW fsync`), and fails loudly if PGlite's internals ever change shape.
 */
function durableStartParams(): string[] {
  return [
    ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
    '-c',
    'fsync=on',
    '-c',
    'wal_sync_method=fsync',
  ];
}

function installRealFsync(db: PGlite): void {
  const fs = (db as unknown as { Module?: { FS?: EmscriptenFs } }).Module?.FS;
  const streamOps = fs?.lookupPath(`${DATA_MOUNT}/PG_VERSION`, {}).node.stream_ops;
  if (!streamOps) throw new Error('PGlite internals changed: cannot reach its file system to make commits durable.');
  // Every NODEFS file and directory shares this one operations table.
  streamOps.fsync = (stream) => {
    if (stream.nfd !== undefined) fsyncSync(stream.nfd);
    return 0;
  };
}

function wrap(target: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await target.query<T>(sql, params as unknown[]);
      return { rows: result.rows };
    },
    async exec(sql: string): Promise<void> {
      await target.exec(sql);
    },
  };
}

/**
 * The embedded engine: PGlite on `dataDir`, locked against any other process for as long as it is
 * open (see data-dir-lock.ts). One connection: transactions run one after another.
 */
export async function openPgliteDatabase({
  dataDir,
  fsync,
  lockWaitMs = DEFAULT_LOCK_WAIT_MS,
  onLockWait,
}: PgliteOptions): Promise<Database> {
  mkdirSync(dataDir, { recursive: true });
  const lock = await lockDataDir(dataDir, { waitMs: lockWaitMs, onWaiting: onLockWait });
  let db: PGlite;
  try {
    db = await PGlite.create(dataDir, fsync ? { startParams: durableStartParams() } : {});
    if (fsync) {
      installRealFsync(db);
      const shown = await db.query<{ fsync: string }>('SHOW fsync');
      if (shown.rows[0]?.fsync !== 'on') throw new Error('PGlite did not turn fsync on.');
    }
  } catch (error) {
    await lock.release();
    throw error;
  }
  const direct = wrap(db);
  return {
    engine: 'pglite',
    query: direct.query,
    exec: direct.exec,
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    async ping() {
      await db.query('SELECT 1');
    },
    async close() {
      try {
        await db.close();
      } finally {
        await lock.release();
      }
    },
    lost: lock.lost,
  };
}
