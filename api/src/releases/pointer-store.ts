import type { PublishedBuild, ReleaseHistoryEntry, ReleasePointer } from '@special-gift/shared/api';
import { columns } from '../db/columns';
import type { Queryable } from '../db/database';
import { BUILD, type BuildIntegrity } from './build-registry';

export type Pointer = ReleasePointer;
export type HistoryEntry = ReleaseHistoryEntry;

/** A pointer as the snapshot serves it, with the integrity of its builds. */
export interface PointerRow {
  readonly remote: string;
  readonly live: string;
  readonly canary: string | null;
  readonly canaryPercent: number;
  readonly liveIntegrity: BuildIntegrity;
  readonly canaryIntegrity: BuildIntegrity;
}

const POINTER = columns<Pointer>(
  ['live_build AS live', 'canary_build AS canary', 'canary_percent', 'revision', 'updated_at'],
  { updated_at: 'time' },
);
const SERVED = columns<PointerRow>([
  'p.remote AS remote',
  'p.live_build AS live',
  'p.canary_build AS canary',
  'p.canary_percent AS canary_percent',
  'live.integrity AS live_integrity',
  'canary.integrity AS canary_integrity',
]);
const HISTORY = columns<HistoryEntry>(
  ['revision', 'action', 'build_id', 'previous_live', 'canary_percent', 'contract_major', 'actor', 'reason', 'at'],
  { at: 'time' },
);

/** Every pointer of `environment`: what the snapshot serves. */
export async function readPointers(db: Queryable, environment: string): Promise<PointerRow[]> {
  const result = await db.query<object>(
    `SELECT ${SERVED.list}
       FROM release_pointers p
       JOIN release_builds live ON live.remote = p.remote AND live.build_id = p.live_build
       LEFT JOIN release_builds canary ON canary.remote = p.remote AND canary.build_id = p.canary_build
      WHERE p.environment = $1`,
    [environment],
  );
  return result.rows.map((row) => SERVED.read(row));
}

export interface RemoteState {
  readonly pointer: Pointer | null;
  /** The revision an action must name: the pointer's, or after a detach the last one in history. */
  readonly revision: number;
  readonly builds: PublishedBuild[];
  readonly history: HistoryEntry[];
}

/** A remote's pointer, builds (newest first) and history (newest first, `historyLimit` rows). */
export async function readRemoteState(
  db: Queryable,
  environment: string,
  remote: string,
  historyLimit: number,
): Promise<RemoteState> {
  const pointer = await readPointer(db, environment, remote);
  const builds = await db.query<object>(
    `SELECT ${BUILD.list} FROM release_builds WHERE remote = $1 ORDER BY published_at DESC, build_id`,
    [remote],
  );
  const history = await db.query<{ revision: number }>(
    `SELECT ${HISTORY.list} FROM release_history WHERE environment = $1 AND remote = $2
     ORDER BY revision DESC LIMIT $3`,
    [environment, remote, historyLimit],
  );
  const revision = pointer?.revision ?? history.rows[0]?.revision ?? 0;
  return {
    pointer,
    revision,
    builds: builds.rows.map((row) => BUILD.read(row)),
    history: history.rows.map((row) => HISTORY.read(row)),
  };
}

export async function readPointer(db: Queryable, environment: string, remote: string): Promise<Pointer | null> {
  const result = await db.query<object>(
    `SELECT ${POINTER.list} FROM release_pointers WHERE environment = $1 AND remote = $2`,
    [environment, remote],
  );
  const row = result.rows[0];
  return row ? POINTER.read(row) : null;
}
