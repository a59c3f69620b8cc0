// What a rollout's step needs (step.ts, advance.ts): its context, and the one transaction a change
// is made in, under the lease, with a compare-and-swap on the rollout's version.
import type { Database, Queryable } from '../db/database';
import type { Logger } from '../http/logger';
import type { ActionRefusal } from '../releases';
import type { RolloutRuleParameters } from '../rollouts';
import type { FetchJson } from './host-contract';
import { assertHeld, type Lease } from './lease';
import type { RolloutRow } from './rollout-store';
import type { RolloutRunnerSettings } from './settings';

export interface StepContext {
  readonly db: Database;
  readonly environment: string;
  readonly rule: RolloutRuleParameters;
  readonly settings: RolloutRunnerSettings;
  readonly fetchJson: FetchJson;
  /** After a committed pointer move: publish the release state it recorded. */
  readonly afterPointerChange: (stateSerial: number) => Promise<unknown>;
  readonly log: Logger;
}

/** Someone changed the rollout since it was read: nothing is written; the next tick reads it again. */
export class Superseded extends Error {}
/** The pointer's action was refused (a race with a hand action or a lock): rolled back; the next tick decides. */
export class StepRefused extends Error {
  constructor(readonly refusal: ActionRefusal) {
    super(`pointer action refused: ${refusal.kind}`);
  }
}

export const iso = (date: Date) => date.toISOString();

export function cas(updated: boolean): void {
  if (!updated) throw new Superseded('rollout changed meanwhile');
}

export async function commit(
  ctx: StepContext,
  row: RolloutRow,
  lease: Lease,
  now: Date,
  work: (tx: Queryable) => Promise<number | null>,
): Promise<number | null> {
  try {
    return await ctx.db.transaction(async (tx) => {
      await assertHeld(tx, lease, now);
      return work(tx);
    });
  } catch (error) {
    if (error instanceof Superseded || error instanceof StepRefused) {
      ctx.log({ msg: 'rollout step not applied; read again at the next tick', rollout: row.id, why: error.message });
      return null;
    }
    throw error;
  }
}
