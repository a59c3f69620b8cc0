// A remote's default rollout plan (migration 14): one row per remote and environment, read when a
// rollout starts without a plan, set and cleared by a compare-and-swap on its version. Cleared, the
// row stays with plan NULL, so the version only grows: an expectedVersion read before a clear and a
// new set never matches again.
import type { RemoteRolloutPlan, RolloutPlan, RolloutPlanSource } from '@special-gift/shared/api';
import { columns } from '../db/columns';
import type { Queryable } from '../db/database';
import { defaultPlan, parsePlan, type PlanLimits } from '../rollouts';

/** The stored part of RemoteRolloutPlan. */
export type DefaultPlanRow = Pick<RemoteRolloutPlan, 'plan' | 'version' | 'updatedBy' | 'updatedAt'>;

const DEFAULT_PLAN = columns<DefaultPlanRow>(['plan', 'version', 'updated_by', 'updated_at'], { updated_at: 'time' });
const NONE: DefaultPlanRow = { plan: null, version: 0, updatedBy: null, updatedAt: null };

/** The remote's default plan; version 0 and no plan when none was ever set. `share`: FOR SHARE, in a start's transaction. */
export async function readDefaultPlan(
  db: Queryable,
  environment: string,
  remote: string,
  { share = false } = {},
): Promise<DefaultPlanRow> {
  const found = await db.query<object>(
    `SELECT ${DEFAULT_PLAN.list} FROM rollout_default_plans WHERE environment = $1 AND remote = $2${share ? ' FOR SHARE' : ''}`,
    [environment, remote],
  );
  const row = found.rows[0];
  return row ? DEFAULT_PLAN.read(row) : NONE;
}

/**
 * Sets (a plan) or clears (null) the remote's default if its version is still `expectedVersion`
 * (0: none was ever set); the new row, or null when the version moved.
 */
export async function writeDefaultPlan(
  tx: Queryable,
  change: {
    readonly environment: string;
    readonly remote: string;
    readonly plan: RolloutPlan | null;
    readonly expectedVersion: number;
    readonly by: string;
    readonly now: Date;
  },
): Promise<DefaultPlanRow | null> {
  const { environment, remote, expectedVersion, by } = change;
  const params = [
    environment,
    remote,
    change.plan === null ? null : JSON.stringify(change.plan),
    by,
    change.now.toISOString(),
  ];
  const written =
    expectedVersion === 0
      ? await tx.query<object>(
          `INSERT INTO rollout_default_plans (environment, remote, plan, version, updated_by, updated_at)
           VALUES ($1, $2, $3, 1, $4, $5) ON CONFLICT (environment, remote) DO NOTHING RETURNING ${DEFAULT_PLAN.list}`,
          params,
        )
      : await tx.query<object>(
          `UPDATE rollout_default_plans SET plan = $3, version = version + 1, updated_by = $4, updated_at = $5
            WHERE environment = $1 AND remote = $2 AND version = $6 RETURNING ${DEFAULT_PLAN.list}`,
          [...params, expectedVersion],
        );
  const row = written.rows[0];
  return row ? DEFAULT_PLAN.read(row) : null;
}

export type StartPlan =
  | { readonly ok: true; readonly plan: RolloutPlan; readonly planSource: RolloutPlanSource }
  | { readonly ok: false; readonly problems: string[] };

/**
 * The plan a rollout starts with: the request's (validated), else the remote's default (validated
 * again, as the dwell floor may have been raised since it was set), else the built-in plan.
 */
export async function planForStart(
  tx: Queryable,
  { environment, remote, requested }: { environment: string; remote: string; requested: unknown },
  limits: PlanLimits,
): Promise<StartPlan> {
  if (requested !== undefined) {
    const parsed = parsePlan(requested, limits);
    return parsed.ok ? { ...parsed, planSource: 'request' } : parsed;
  }
  const stored = (await readDefaultPlan(tx, environment, remote, { share: true })).plan;
  if (stored === null) return { ok: true, plan: defaultPlan(limits), planSource: 'built-in' };
  const parsed = parsePlan(stored, limits);
  if (parsed.ok) return { ...parsed, planSource: 'remote-default' };
  return {
    ok: false,
    problems: [
      `${remote}'s default plan no longer passes this API's checks: set it again, or send a plan.`,
      ...parsed.problems,
    ],
  };
}
