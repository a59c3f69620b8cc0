// A hand release during a rollout (docs/rollouts.md, "Releasing by hand during a rollout"): the
// pointer's actions read the remote's active rollout in their own transaction. Release, canary,
// promote and detach are refused while one runs, except from the rollout itself; abort and rollback
// (the incident's way back) stay open, and the runner, seeing the pointer moved, ends the rollout.
// SQL only: releases/ never imports the runner.
import type { Queryable } from '../db/database';
import type { ReleaseAction } from './action-store';

/** What a rollout under way keeps to itself. */
export const ROLLOUT_GUARDED_ACTIONS: readonly ReleaseAction[] = ['release', 'canary', 'promote', 'detach'];

/**
 * The id of the remote's rollout under way in `environment`, or null. `FOR SHARE`: a rollout's own
 * step (which updates the row) and a hand action serialise on it.
 */
export async function activeRolloutId(tx: Queryable, environment: string, remote: string): Promise<string | null> {
  const found = await tx.query<{ id: string }>(
    'SELECT id FROM rollouts WHERE environment = $1 AND remote = $2 AND finished_at IS NULL FOR SHARE',
    [environment, remote],
  );
  return found.rows[0]?.id ?? null;
}

/** The sentence of the 409 `rollout_in_progress`. */
export function rolloutInProgress(remote: string, rolloutId: string): string {
  return `Rollout ${rolloutId} of ${remote} is under way: pause or abort it first (abort and rollback by hand end it).`;
}
