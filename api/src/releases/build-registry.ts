import type { BuildFootprint, PublishedBuild } from '@special-gift/shared/api';
import { appendAudit, OPERATOR_TOKEN_ID, type Actor } from '../access';
import { columns } from '../db/columns';
import type { Database, Queryable } from '../db/database';

/** A build's integrity: SRI value by path (docs/security.md); null for a build published before it was recorded. */
export type BuildIntegrity = Readonly<Record<string, string>> | null;

export const BUILD = columns<PublishedBuild>(
  [
    'remote',
    'build_id',
    'contract_major',
    'files',
    'bytes',
    'published_at',
    'published_by',
    'purged_at',
    'entry_bytes',
    'first_screen_bytes',
    'shared_versions',
  ],
  { bytes: 'number', published_at: 'time', purged_at: 'time?' },
);

/** A build's row with its integrity, which the record leaves out. */
type BuildRow = { readonly integrity: Record<string, string> | null };

/** Keys in code-unit order, so two maps of the same hashes compare equal as JSON. */
function sortedIntegrity(integrity: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(integrity).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export type RegisterOutcome =
  | { readonly kind: 'created' | 'existing'; readonly build: PublishedBuild }
  | { readonly kind: 'different'; readonly build: PublishedBuild };

/** Who changes the builds, and in which environment's audit trail it is written. */
export interface Change {
  readonly actor: Actor;
  readonly environment: string;
}

/**
 * Registers a published build. The id is a hash of the content, so the same id again with the same
 * metadata is the same build (`existing`; a purged one is revived, its files having been copied back
 * by the publisher); with other metadata it is a different claim on the id (`different`). A new or
 * revived build is a change: one audit entry; registering the same build again is none.
 */
export async function registerBuild(
  db: Database,
  build: Omit<PublishedBuild, 'publishedAt' | 'purgedAt' | 'publishedBy' | keyof BuildFootprint> &
    Partial<BuildFootprint> & {
      readonly integrity: Readonly<Record<string, string>>;
    },
  { actor, environment }: Change,
): Promise<RegisterOutcome> {
  const audit = (tx: Queryable, fromState: string | null) =>
    appendAudit(tx, {
      ...actor,
      environment,
      remote: build.remote,
      action: 'publish',
      fromState,
      toState: `${build.buildId} (${build.files} files, ${build.bytes} bytes)`,
      reason: '',
    });
  return db.transaction(async (tx) => {
    const integrity = JSON.stringify(sortedIntegrity(build.integrity));
    const sharedVersions = build.sharedVersions ? JSON.stringify(build.sharedVersions) : null;
    const inserted = await tx.query<BuildRow>(
      `INSERT INTO release_builds (remote, build_id, contract_major, files, bytes, published_by, integrity,
         entry_bytes, first_screen_bytes, shared_versions)
       VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10::jsonb)
       ON CONFLICT (remote, build_id) DO NOTHING
       RETURNING ${BUILD.list}, integrity`,
      [
        build.remote,
        build.buildId,
        build.contractMajor,
        build.files,
        build.bytes,
        actor.tokenName,
        integrity,
        build.entryBytes ?? null,
        build.firstScreenBytes ?? null,
        sharedVersions,
      ],
    );
    const created = inserted.rows[0];
    if (created) {
      await audit(tx, null);
      return { kind: 'created', build: BUILD.read(created) };
    }
    const existing = await tx.query<BuildRow>(
      `SELECT ${BUILD.list}, integrity FROM release_builds WHERE remote = $1 AND build_id = $2 FOR UPDATE`,
      [build.remote, build.buildId],
    );
    const row = existing.rows[0];
    if (!row) throw new Error('a build row vanished between its insert and its read');
    const found = BUILD.read(row);
    // The same content has the same hashes: other ones are another claim on the id. A build
    // published before hashes were recorded gets them now (publishing it again is the remedy).
    const same =
      found.contractMajor === build.contractMajor &&
      found.files === build.files &&
      found.bytes === build.bytes &&
      (row.integrity === null || JSON.stringify(sortedIntegrity(row.integrity)) === integrity);
    if (!same) return { kind: 'different', build: found };
    // A build published before its footprint was recorded (migration 9) gets it from a publisher
    // that reads it; the content is the same, so this records, it changes nothing: no audit entry.
    const footprint =
      (found.entryBytes === null && build.entryBytes !== undefined) ||
      (found.firstScreenBytes === null && build.firstScreenBytes !== undefined) ||
      (found.sharedVersions === null && build.sharedVersions !== undefined)
        ? await tx.query<BuildRow>(
            `UPDATE release_builds SET entry_bytes = COALESCE(entry_bytes, $3),
               first_screen_bytes = COALESCE(first_screen_bytes, $4),
               shared_versions = COALESCE(shared_versions, $5::jsonb)
             WHERE remote = $1 AND build_id = $2 RETURNING ${BUILD.list}, integrity`,
            [build.remote, build.buildId, build.entryBytes ?? null, build.firstScreenBytes ?? null, sharedVersions],
          )
        : undefined;
    const recorded = footprint?.rows[0] ? BUILD.read(footprint.rows[0]) : found;
    if (found.purgedAt === null && row.integrity !== null) return { kind: 'existing', build: recorded };
    const revived = await tx.query<BuildRow>(
      `UPDATE release_builds SET purged_at = NULL, integrity = $3::jsonb WHERE remote = $1 AND build_id = $2
       RETURNING ${BUILD.list}, integrity`,
      [build.remote, build.buildId, integrity],
    );
    await audit(tx, found.purgedAt === null ? 'published without integrity' : `purged at ${found.purgedAt}`);
    return { kind: 'existing', build: BUILD.read(revived.rows[0] ?? row) };
  });
}

/** The build's row, if it is published and not purged. */
async function findServableRow(db: Queryable, remote: string, buildId: string): Promise<BuildRow | undefined> {
  const result = await db.query<BuildRow>(
    `SELECT ${BUILD.list}, integrity FROM release_builds WHERE remote = $1 AND build_id = $2 AND purged_at IS NULL`,
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
  return row ? BUILD.read(row) : null;
}

/**
 * Locks the build's row against a concurrent purge (FOR SHARE: a purge's FOR UPDATE waits for this
 * transaction, and this waits for a purge in progress, then sees its result), and returns its
 * contract major, or null if it is unknown or purged.
 */
export async function lockServableBuild(tx: Queryable, remote: string, buildId: string): Promise<number | null> {
  const result = await tx.query<{ contract_major: number; purged_at: unknown }>(
    'SELECT contract_major, purged_at FROM release_builds WHERE remote = $1 AND build_id = $2 FOR SHARE',
    [remote, buildId],
  );
  const row = result.rows[0];
  return row && row.purged_at === null ? row.contract_major : null;
}

export type PurgeOutcome =
  | { readonly ok: true; readonly purged: string[] }
  | { readonly kind: 'unknown_build'; readonly buildId: string }
  | { readonly kind: 'in_use'; readonly buildIds: string[] }
  | { readonly kind: 'other_environment'; readonly buildIds: string[] };

/**
 * Marks builds purged, refusing any that a pointer of any environment uses. FOR UPDATE on the build
 * rows first: an action that is pointing at one holds it FOR SHARE, so the purge waits for it and
 * then sees its pointer; an action that comes later waits for the purge and finds the build purged.
 */
export async function purgeBuilds(
  db: Database,
  remote: string,
  buildIds: readonly string[],
  { actor, environment }: Change,
): Promise<PurgeOutcome> {
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
       UNION SELECT canary_build FROM release_pointers WHERE remote = $1 AND canary_build = ANY($2::text[])
       -- A rollout under way (any environment: builds are shared) may put it in front of users.
       UNION SELECT build_id FROM rollouts WHERE remote = $1 AND build_id = ANY($2::text[]) AND finished_at IS NULL`,
      [remote, ids],
    );
    if (used.rows.length > 0) return { kind: 'in_use', buildIds: used.rows.map((row) => row.build_id).sort() };
    // Builds are shared by the environments on one database; one another environment has had live
    // is a rollback target there, which a token of this environment must not take away.
    if (actor.tokenId !== OPERATOR_TOKEN_ID) {
      const elsewhere = await tx.query<{ build_id: string }>(
        `SELECT DISTINCT build_id FROM release_history
         WHERE remote = $1 AND build_id = ANY($2::text[]) AND environment <> $3
         UNION SELECT DISTINCT previous_live FROM release_history
         WHERE remote = $1 AND previous_live = ANY($2::text[]) AND environment <> $3`,
        [remote, ids, environment],
      );
      if (elsewhere.rows.length > 0)
        return { kind: 'other_environment', buildIds: elsewhere.rows.map((row) => row.build_id).sort() };
    }
    await tx.query(
      'UPDATE release_builds SET purged_at = now() WHERE remote = $1 AND build_id = ANY($2::text[]) AND purged_at IS NULL',
      [remote, ids],
    );
    await appendAudit(tx, {
      ...actor,
      environment,
      remote,
      action: 'purge',
      fromState: ids.join(', '),
      toState: 'purged',
      reason: '',
    });
    return { ok: true, purged: ids };
  });
}
