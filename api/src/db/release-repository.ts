import type {
  PublishedBuild,
  ReleaseAction,
  ReleaseActionRequest,
  ReleaseHistoryEntry,
  ReleasePointer,
} from '@special-gift/shared/api';
import type { Database, Queryable } from './database';
import { toIsoTimestamp } from './timestamp';

export { RELEASE_ACTIONS, type PublishedBuild, type ReleaseAction } from '@special-gift/shared/api';
export type Pointer = ReleasePointer;
export type HistoryEntry = ReleaseHistoryEntry;

/** A build's integrity: SRI value by path (docs/security.md); null for a build published before it was recorded. */
export type BuildIntegrity = Readonly<Record<string, string>> | null;

export interface PointerRow {
  readonly remote: string;
  readonly live: string;
  readonly canary: string | null;
  readonly canaryPercent: number;
  readonly liveIntegrity: BuildIntegrity;
  readonly canaryIntegrity: BuildIntegrity;
}

/** Why an action was not applied; the route turns each into its HTTP answer. */
export type ActionRefusal =
  | { readonly kind: 'conflict'; readonly current: number }
  | { readonly kind: 'unknown_build'; readonly buildId: string }
  | { readonly kind: 'refused'; readonly message: string };

export type ActionOutcome =
  { readonly ok: true; readonly pointer: Pointer | null; readonly revision: number } | ActionRefusal;

export type ActionInput = ReleaseActionRequest;

interface BuildRow {
  remote: string;
  build_id: string;
  contract_major: number;
  files: number;
  bytes: string | number;
  published_at: unknown;
  published_by: string;
  purged_at: unknown;
  integrity: Record<string, string> | null;
}

interface PointerDbRow {
  live_build: string;
  canary_build: string | null;
  canary_percent: number;
  revision: number;
  updated_at: unknown;
}

interface HistoryRow {
  revision: number;
  action: ReleaseAction;
  build_id: string | null;
  previous_live: string | null;
  canary_percent: number;
  contract_major: number | null;
  actor: string;
  reason: string;
  at: unknown;
}

const BUILD_COLUMNS =
  'remote, build_id, contract_major, files, bytes, published_at, published_by, purged_at, integrity';
const POINTER_COLUMNS = 'live_build, canary_build, canary_percent, revision, updated_at';
const HISTORY_COLUMNS = 'revision, action, build_id, previous_live, canary_percent, contract_major, actor, reason, at';

/** Keys in code-unit order, so two maps of the same hashes compare equal as JSON. */
function sortedIntegrity(integrity: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(integrity).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function toBuild(row: BuildRow): PublishedBuild {
  return {
    remote: row.remote,
    buildId: row.build_id,
    contractMajor: row.contract_major,
    files: row.files,
    // bigint: the pg driver gives a string, PGlite a number.
    bytes: Number(row.bytes),
    publishedAt: toIsoTimestamp(row.published_at),
    publishedBy: row.published_by,
    purgedAt: row.purged_at === null ? null : toIsoTimestamp(row.purged_at),
  };
}

function toPointer(row: PointerDbRow): Pointer {
  return {
    live: row.live_build,
    canary: row.canary_build,
    canaryPercent: row.canary_percent,
    revision: row.revision,
    updatedAt: toIsoTimestamp(row.updated_at),
  };
}

function toHistory(row: HistoryRow): HistoryEntry {
  return {
    revision: row.revision,
    action: row.action,
    buildId: row.build_id,
    previousLive: row.previous_live,
    canaryPercent: row.canary_percent,
    contractMajor: row.contract_major,
    actor: row.actor,
    reason: row.reason,
    at: toIsoTimestamp(row.at),
  };
}

export type RegisterOutcome =
  | { readonly kind: 'created' | 'existing'; readonly build: PublishedBuild }
  | { readonly kind: 'different'; readonly build: PublishedBuild };

/**
 * Registers a published build. The id is a hash of the content, so the same id again with the same
 * metadata is the same build (`existing`; a purged one is revived, its files having been copied back
 * by the publisher); with other metadata it is a different claim on the id (`different`).
 */
export async function registerBuild(
  db: Database,
  build: Omit<PublishedBuild, 'publishedAt' | 'purgedAt'> & { readonly integrity: Readonly<Record<string, string>> },
): Promise<RegisterOutcome> {
  return db.transaction(async (tx) => {
    const integrity = JSON.stringify(sortedIntegrity(build.integrity));
    const inserted = await tx.query<BuildRow>(
      `INSERT INTO release_builds (remote, build_id, contract_major, files, bytes, published_by, integrity)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb)
       ON CONFLICT (remote, build_id) DO NOTHING
       RETURNING ${BUILD_COLUMNS}`,
      [build.remote, build.buildId, build.contractMajor, build.files, build.bytes, build.publishedBy, integrity],
    );
    const created = inserted.rows[0];
    if (created) return { kind: 'created', build: toBuild(created) };
    const existing = await tx.query<BuildRow>(
      `SELECT ${BUILD_COLUMNS} FROM release_builds WHERE remote = $1 AND build_id = $2 FOR UPDATE`,
      [build.remote, build.buildId],
    );
    const row = existing.rows[0];
    if (!row) throw new Error('a build row vanished between its insert and its read');
    const found = toBuild(row);
    // The same content has the same hashes: other ones are another claim on the id. A build
    // published before hashes were recorded gets them now (publishing it again is the remedy).
    const same =
      found.contractMajor === build.contractMajor &&
      found.files === build.files &&
      found.bytes === build.bytes &&
      (row.integrity === null || JSON.stringify(sortedIntegrity(row.integrity)) === integrity);
    if (!same) return { kind: 'different', build: found };
    if (found.purgedAt === null && row.integrity !== null) return { kind: 'existing', build: found };
    const revived = await tx.query<BuildRow>(
      `UPDATE release_builds SET purged_at = NULL, integrity = $3::jsonb WHERE remote = $1 AND build_id = $2
       RETURNING ${BUILD_COLUMNS}`,
      [build.remote, build.buildId, integrity],
    );
    return { kind: 'existing', build: toBuild(revived.rows[0] ?? row) };
  });
}

/** Every pointer of `environment`: what the snapshot serves. */
export async function readPointers(db: Queryable, environment: string): Promise<PointerRow[]> {
  const result = await db.query<{
    remote: string;
    live_build: string;
    canary_build: string | null;
    canary_percent: number;
    live_integrity: Record<string, string> | null;
    canary_integrity: Record<string, string> | null;
  }>(
    `SELECT p.remote, p.live_build, p.canary_build, p.canary_percent,
            live.integrity AS live_integrity, canary.integrity AS canary_integrity
       FROM release_pointers p
       JOIN release_builds live ON live.remote = p.remote AND live.build_id = p.live_build
       LEFT JOIN release_builds canary ON canary.remote = p.remote AND canary.build_id = p.canary_build
      WHERE p.environment = $1`,
    [environment],
  );
  return result.rows.map((row) => ({
    remote: row.remote,
    live: row.live_build,
    canary: row.canary_build,
    canaryPercent: row.canary_percent,
    liveIntegrity: row.live_integrity,
    canaryIntegrity: row.canary_integrity,
  }));
}

/** The build's row, if it is published and not purged. */
async function findServableRow(db: Queryable, remote: string, buildId: string): Promise<BuildRow | undefined> {
  const result = await db.query<BuildRow>(
    `SELECT ${BUILD_COLUMNS} FROM release_builds WHERE remote = $1 AND build_id = $2 AND purged_at IS NULL`,
    [remote, buildId],
  );
  return result.rows[0];
}

/** A servable build's integrity (null: recorded before hashes were), or undefined if it is not servable. */
export async function findServableIntegrity(
  db: Queryable,
  remote: string,
  buildId: string,
): Promise<BuildIntegrity | undefined> {
  const row = await findServableRow(db, remote, buildId);
  return row ? row.integrity : undefined;
}

/** The build, if it is published and not purged. */
export async function findServableBuild(
  db: Queryable,
  remote: string,
  buildId: string,
): Promise<PublishedBuild | null> {
  const row = await findServableRow(db, remote, buildId);
  return row ? toBuild(row) : null;
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
  const builds = await db.query<BuildRow>(
    `SELECT ${BUILD_COLUMNS} FROM release_builds WHERE remote = $1 ORDER BY published_at DESC, build_id`,
    [remote],
  );
  const history = await db.query<HistoryRow>(
    `SELECT ${HISTORY_COLUMNS} FROM release_history WHERE environment = $1 AND remote = $2
     ORDER BY revision DESC LIMIT $3`,
    [environment, remote, historyLimit],
  );
  const revision = pointer?.revision ?? history.rows[0]?.revision ?? 0;
  return { pointer, revision, builds: builds.rows.map(toBuild), history: history.rows.map(toHistory) };
}

async function readPointer(db: Queryable, environment: string, remote: string): Promise<Pointer | null> {
  const result = await db.query<PointerDbRow>(
    `SELECT ${POINTER_COLUMNS} FROM release_pointers WHERE environment = $1 AND remote = $2`,
    [environment, remote],
  );
  const row = result.rows[0];
  return row ? toPointer(row) : null;
}

/**
 * The build a rollback returns to: the history replayed as a stack of live builds (a release or
 * promote pushes; a rollback to the build under the top pops, any other rollback pushes), so
 * rolling back twice goes two releases back rather than toggling. Purged builds are skipped.
 */
export function previousLiveBuild(
  ascending: ReadonlyArray<Pick<HistoryEntry, 'action' | 'buildId'>>,
  currentLive: string,
  isServable: (buildId: string) => boolean,
): string | null {
  const stack: string[] = [];
  for (const entry of ascending) {
    if (entry.buildId === null) continue;
    if (entry.action === 'release' || entry.action === 'promote') stack.push(entry.buildId);
    else if (entry.action === 'rollback') {
      if (stack.length >= 2 && stack[stack.length - 2] === entry.buildId) stack.pop();
      else stack.push(entry.buildId);
    }
  }
  while (stack.length > 0 && stack[stack.length - 1] === currentLive) stack.pop();
  for (let index = stack.length - 1; index >= 0; index -= 1) {
    const candidate = stack[index];
    if (candidate !== undefined && candidate !== currentLive && isServable(candidate)) return candidate;
  }
  return null;
}

/**
 * Locks the build's row against a concurrent purge (FOR SHARE: a purge's FOR UPDATE waits for this
 * transaction, and this waits for a purge in progress, then sees its result), and returns its
 * contract major, or null if it is unknown or purged.
 */
async function lockServableBuild(tx: Queryable, remote: string, buildId: string): Promise<number | null> {
  const result = await tx.query<{ contract_major: number; purged_at: unknown }>(
    'SELECT contract_major, purged_at FROM release_builds WHERE remote = $1 AND build_id = $2 FOR SHARE',
    [remote, buildId],
  );
  const row = result.rows[0];
  return row && row.purged_at === null ? row.contract_major : null;
}

interface NextState {
  /** null: delete the pointer (detach). */
  readonly pointer: { live: string; canary: string | null; canaryPercent: number } | null;
  readonly buildId: string | null;
  readonly contractMajor: number | null;
}

/**
 * Applies one action as a compare-and-swap on the pointer's revision, with its history row, in one
 * transaction. The pointer write itself is the arbiter (`UPDATE … WHERE revision = expected`, or
 * `INSERT … ON CONFLICT DO NOTHING` when there is none), so of two writers that read the same
 * revision exactly one succeeds, on any connection of any replica; the unique revision in the
 * history is a second guard.
 */
export async function applyAction(
  db: Database,
  environment: string,
  remote: string,
  input: ActionInput,
): Promise<ActionOutcome> {
  return db
    .transaction(async (tx): Promise<ActionOutcome> => {
      const pointer = await readPointer(tx, environment, remote);
      const last = await tx.query<{ revision: number }>(
        'SELECT max(revision) AS revision FROM release_history WHERE environment = $1 AND remote = $2',
        [environment, remote],
      );
      const current = pointer?.revision ?? last.rows[0]?.revision ?? 0;
      if (current !== input.expectedRevision) return { kind: 'conflict', current };

      const next = await nextState(tx, environment, remote, pointer, input);
      if ('kind' in next) return next;
      const revision = input.expectedRevision + 1;
      const written = await writePointer(tx, environment, remote, pointer, next, input.expectedRevision, revision);
      if (!written) {
        const now = await readPointer(tx, environment, remote);
        return { kind: 'conflict', current: now?.revision ?? current };
      }
      const inserted = await tx.query<{ revision: number }>(
        `INSERT INTO release_history
         (environment, remote, revision, action, build_id, previous_live, canary_percent, contract_major, actor, reason)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (environment, remote, revision) DO NOTHING
       RETURNING revision`,
        [
          environment,
          remote,
          revision,
          input.action,
          next.buildId,
          pointer?.live ?? null,
          next.pointer?.canaryPercent ?? 0,
          next.contractMajor,
          input.actor,
          input.reason,
        ],
      );
      // A racing writer took this revision (possible only after a detach, when there is no row to
      // update): undo by throwing, so the pointer write rolls back with it.
      if (inserted.rows.length === 0) throw new RevisionTaken(current);
      return { ok: true, pointer: next.pointer === null ? null : await readPointer(tx, environment, remote), revision };
    })
    .catch((error: unknown): ActionOutcome => {
      if (error instanceof RevisionTaken) return { kind: 'conflict', current: error.current };
      throw error;
    });
}

class RevisionTaken extends Error {
  constructor(readonly current: number) {
    super('revision taken');
  }
}

async function writePointer(
  tx: Queryable,
  environment: string,
  remote: string,
  pointer: Pointer | null,
  next: NextState,
  expected: number,
  revision: number,
): Promise<boolean> {
  if (next.pointer === null) {
    const deleted = await tx.query(
      'DELETE FROM release_pointers WHERE environment = $1 AND remote = $2 AND revision = $3 RETURNING revision',
      [environment, remote, expected],
    );
    return deleted.rows.length === 1;
  }
  const values = [environment, remote, next.pointer.live, next.pointer.canary, next.pointer.canaryPercent, revision];
  if (pointer === null) {
    const inserted = await tx.query(
      `INSERT INTO release_pointers (environment, remote, live_build, canary_build, canary_percent, revision)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (environment, remote) DO NOTHING
       RETURNING revision`,
      values,
    );
    return inserted.rows.length === 1;
  }
  const updated = await tx.query(
    `UPDATE release_pointers
     SET live_build = $3, canary_build = $4, canary_percent = $5, revision = $6, updated_at = now()
     WHERE environment = $1 AND remote = $2 AND revision = $7
     RETURNING revision`,
    [...values, expected],
  );
  return updated.rows.length === 1;
}

async function nextState(
  tx: Queryable,
  environment: string,
  remote: string,
  pointer: Pointer | null,
  input: ActionInput,
): Promise<NextState | ActionRefusal> {
  const refused = (message: string): ActionRefusal => ({ kind: 'refused', message });
  const servable = async (buildId: string): Promise<number | ActionRefusal> =>
    (await lockServableBuild(tx, remote, buildId)) ?? { kind: 'unknown_build', buildId };

  switch (input.action) {
    case 'release': {
      const buildId = input.buildId ?? '';
      const major = await servable(buildId);
      if (typeof major !== 'number') return major;
      return { pointer: { live: buildId, canary: null, canaryPercent: 0 }, buildId, contractMajor: major };
    }
    case 'canary': {
      const buildId = input.buildId ?? '';
      if (pointer === null) return refused(`${remote} has no live build: release one before a canary.`);
      if (buildId === pointer.live) return refused(`${buildId} is already live for ${remote}: a canary must differ.`);
      const major = await servable(buildId);
      if (typeof major !== 'number') return major;
      const canaryPercent = input.percent ?? 0;
      return { pointer: { live: pointer.live, canary: buildId, canaryPercent }, buildId, contractMajor: major };
    }
    case 'promote': {
      if (pointer?.canary == null) return refused(`${remote} has no canary to promote.`);
      const major = await servable(pointer.canary);
      if (typeof major !== 'number') return major;
      return {
        pointer: { live: pointer.canary, canary: null, canaryPercent: 0 },
        buildId: pointer.canary,
        contractMajor: major,
      };
    }
    case 'abort': {
      if (pointer?.canary == null) return refused(`${remote} has no canary to abort.`);
      return { pointer: { live: pointer.live, canary: null, canaryPercent: 0 }, buildId: null, contractMajor: null };
    }
    case 'rollback': {
      if (pointer === null) return refused(`${remote} has no live build to roll back.`);
      let target = input.buildId;
      if (target === undefined) {
        const history = await tx.query<{ action: ReleaseAction; build_id: string | null }>(
          'SELECT action, build_id FROM release_history WHERE environment = $1 AND remote = $2 ORDER BY revision',
          [environment, remote],
        );
        const purged = await tx.query<{ build_id: string }>(
          'SELECT build_id FROM release_builds WHERE remote = $1 AND purged_at IS NOT NULL',
          [remote],
        );
        const purgedIds = new Set(purged.rows.map((row) => row.build_id));
        const entries = history.rows.map((row) => ({ action: row.action, buildId: row.build_id }));
        target = previousLiveBuild(entries, pointer.live, (id) => !purgedIds.has(id)) ?? undefined;
        if (target === undefined) return refused(`${remote} has no previous live build to roll back to.`);
      }
      if (target === pointer.live) return refused(`${target} is already live for ${remote}.`);
      const major = await servable(target);
      if (typeof major !== 'number') return major;
      return { pointer: { live: target, canary: null, canaryPercent: 0 }, buildId: target, contractMajor: major };
    }
    case 'detach': {
      if (pointer === null) return refused(`${remote} has no pointer to detach.`);
      return { pointer: null, buildId: null, contractMajor: null };
    }
  }
}

export type PurgeOutcome =
  | { readonly ok: true; readonly purged: string[] }
  | { readonly kind: 'unknown_build'; readonly buildId: string }
  | { readonly kind: 'in_use'; readonly buildIds: string[] };

/**
 * Marks builds purged, refusing any that a pointer of any environment uses. FOR UPDATE on the build
 * rows first: an action that is pointing at one holds it FOR SHARE, so the purge waits for it and
 * then sees its pointer; an action that comes later waits for the purge and finds the build purged.
 */
export async function purgeBuilds(db: Database, remote: string, buildIds: readonly string[]): Promise<PurgeOutcome> {
  return db.transaction(async (tx) => {
    const ids = [...new Set(buildIds)].sort();
    const found = await tx.query<{ build_id: string }>(
      'SELECT build_id FROM release_builds WHERE remote = $1 AND build_id = ANY($2::text[]) ORDER BY build_id FOR UPDATE',
      [remote, ids],
    );
    const known = new Set(found.rows.map((row) => row.build_id));
    const unknown = ids.find((id) => !known.has(id));
    if (unknown !== undefined) return { kind: 'unknown_build', buildId: unknown };
    const used = await tx.query<{ build_id: string }>(
      `SELECT live_build AS build_id FROM release_pointers WHERE remote = $1 AND live_build = ANY($2::text[])
       UNION SELECT canary_build FROM release_pointers WHERE remote = $1 AND canary_build = ANY($2::text[])`,
      [remote, ids],
    );
    if (used.rows.length > 0) return { kind: 'in_use', buildIds: used.rows.map((row) => row.build_id).sort() };
    await tx.query(
      'UPDATE release_builds SET purged_at = now() WHERE remote = $1 AND build_id = ANY($2::text[]) AND purged_at IS NULL',
      [remote, ids],
    );
    return { ok: true, purged: ids };
  });
}
