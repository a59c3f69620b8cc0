import type { ReleaseAction, ReleaseActionRequest, ReleaseLock } from '@special-gift/shared/api';
import { appendAudit, type Actor } from '../access';
import type { Database, Queryable } from '../db/database';
import { lockServableBuild } from './build-registry';
import { readLock } from './lock-store';
import { readPointer, type HistoryEntry, type Pointer } from './pointer-store';
import { activeRolloutId, ROLLOUT_GUARDED_ACTIONS } from './rollout-guard';
import { recordReleaseState } from './release-state';

export { RELEASE_ACTIONS, type ReleaseAction } from '@special-gift/shared/api';

/** Why an action was not applied; the route turns each into its HTTP answer. */
export type ActionRefusal =
  | { readonly kind: 'conflict'; readonly current: number }
  | { readonly kind: 'unknown_build'; readonly buildId: string }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'locked'; readonly lock: ReleaseLock }
  /** A rollout is under way (rollout-guard.ts). */
  | { readonly kind: 'rollout'; readonly rolloutId: string };

export type ActionOutcome =
  | {
      readonly ok: true;
      readonly pointer: Pointer | null;
      readonly revision: number;
      /** The release state this change produced (release-state.ts). */
      readonly stateSerial: number;
    }
  | ActionRefusal;

export type ActionInput = ReleaseActionRequest;

/** Set by the rollout runner only, never from a request body: the rollout the action belongs to. */
export interface ActionContext {
  readonly rolloutId?: string;
}

/**
 * What a lock freezes: every way of putting a build in front of visitors. Abort and rollback stay
 * open, the way back during an incident (the canary verdict's automatic abort among them); a
 * rollback only to a build this environment had live before (applyAction).
 */
export const LOCKED_ACTIONS: readonly ReleaseAction[] = ['release', 'canary', 'promote', 'detach'];

/** A pointer in a line, for the audit trail's from and to. */
export function describePointer(pointer: Pick<Pointer, 'live' | 'canary' | 'canaryPercent'> | null): string {
  if (pointer === null) return 'detached';
  return (
    `live ${pointer.live}` + (pointer.canary === null ? '' : `, canary ${pointer.canary} at ${pointer.canaryPercent} %`)
  );
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
  actor: Actor,
): Promise<ActionOutcome> {
  return db
    .transaction((tx) => applyActionTx(tx, environment, remote, input, actor))
    .catch((error: unknown): ActionOutcome => {
      if (error instanceof RevisionTaken) return { kind: 'conflict', current: error.current };
      throw error;
    });
}

/**
 * applyAction inside the caller's transaction (the rollout runner's step: its own rows and the
 * pointer in one commit; PGlite cannot nest transactions). Throws {@link RevisionTaken} when a
 * racing writer took the revision: the caller's transaction must roll back.
 */
export async function applyActionTx(
  tx: Queryable,
  environment: string,
  remote: string,
  input: ActionInput,
  actor: Actor,
  context: ActionContext = {},
): Promise<ActionOutcome> {
  const pointer = await readPointer(tx, environment, remote);
  const last = await tx.query<{ revision: number }>(
    'SELECT max(revision) AS revision FROM release_history WHERE environment = $1 AND remote = $2',
    [environment, remote],
  );
  const current = pointer?.revision ?? last.rows[0]?.revision ?? 0;
  if (current !== input.expectedRevision) return { kind: 'conflict', current };
  if (ROLLOUT_GUARDED_ACTIONS.includes(input.action)) {
    const rolloutId = await activeRolloutId(tx, environment, remote);
    if (rolloutId !== null && rolloutId !== context.rolloutId) return { kind: 'rollout', rolloutId };
  }
  if (LOCKED_ACTIONS.includes(input.action)) {
    const lock = await readLock(tx, environment, remote, { share: true });
    if (lock) return { kind: 'locked', lock };
  }

  const next = await nextState(tx, environment, remote, pointer, input);
  if ('kind' in next) return next;
  // A rollback during a lock returns only to a build this environment had live before: with
  // any build id it would be a release by another name.
  if (input.action === 'rollback' && next.buildId !== null) {
    const lock = await readLock(tx, environment, remote, { share: true });
    if (lock && !(await wasLive(tx, environment, remote, next.buildId))) return { kind: 'locked', lock };
  }
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
      actor.tokenName,
      input.reason,
    ],
  );
  // A racing writer took this revision (possible only after a detach, when there is no row to
  // update): undo by throwing, so the pointer write rolls back with it.
  if (inserted.rows.length === 0) throw new RevisionTaken(current);
  await appendAudit(tx, {
    ...actor,
    environment,
    remote,
    action: input.action,
    fromState: describePointer(pointer),
    toState: describePointer(next.pointer),
    reason: input.reason,
  });
  // The environment's next release state, in this same commit (release-state.ts).
  const stateSerial = await recordReleaseState(tx, environment, new Date());
  return {
    ok: true,
    pointer: next.pointer === null ? null : await readPointer(tx, environment, remote),
    revision,
    stateSerial,
  };
}

/** Whether `buildId` was live for `remote` in `environment` at some point of its history. */
async function wasLive(tx: Queryable, environment: string, remote: string, buildId: string): Promise<boolean> {
  const found = await tx.query(
    `SELECT 1 FROM release_history WHERE environment = $1 AND remote = $2
       AND ((build_id = $3 AND action IN ('release', 'promote', 'rollback')) OR previous_live = $3)
     LIMIT 1`,
    [environment, remote, buildId],
  );
  return found.rows.length > 0;
}

/** A racing writer took the revision (after a detach): the transaction must roll back. */
export class RevisionTaken extends Error {
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
