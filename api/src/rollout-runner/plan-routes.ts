// A remote's default rollout plan (docs/rollouts.md, "The plan"): viewers read it, deployers of the
// remote (who may start its rollouts) set and clear it, by a compare-and-swap on its version
// (`expectedVersion`, 409 rollout_conflict), validated by parsePlan as a rollout's own plan is, with
// one audit row (`rollout-plan`) under the acting token in the same transaction.
import type { RemoteRolloutPlan, RolloutPlan } from '@special-gift/shared/api';
import { Router, type Request } from 'express';
import { REMOTE_LIST } from '../../../tooling/remotes/remotes.generated';
import { actorOf, appendAudit, authorize } from '../access';
import { ApiError } from '../http/api-error';
import { parseJsonBody, requireJsonContentType } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import { bodyFields, jsonObject, remoteParam } from '../http/request-fields';
import { defaultPlan, describePlan, parsePlan } from '../rollouts';
import { readDefaultPlan, writeDefaultPlan, type DefaultPlanRow } from './default-plan-store';
import { invalidPlan, planLimits, type RolloutRouteOptions } from './routes';

const invalid = (message: string) => new ApiError(422, 'invalid_body', message);
const { readString, readInteger } = bodyFields(invalid);
const KNOWN_REMOTES: readonly string[] = REMOTE_LIST.map((remote) => remote.name);
const MAX_VERSION = 2_000_000_000;

/** The `:remote` of the path, one of the app's (tooling/remotes/remotes.json): 404 unknown_remote otherwise. */
function knownRemote(req: Request): string {
  const remote = remoteParam(req, invalid);
  if (!KNOWN_REMOTES.includes(remote))
    throw new ApiError(404, 'unknown_remote', `There is no remote ${remote}: one of ${KNOWN_REMOTES.join(', ')}.`);
  return remote;
}

const conflict = (remote: string, expected: number, current: number) =>
  new ApiError(
    409,
    'rollout_conflict',
    `${remote}'s default plan is at version ${current}, not ${expected} as expected: someone changed it meanwhile. Read it and retry.`,
  );

const described = (plan: RolloutPlan | null) => (plan === null ? 'built-in plan' : describePlan(plan));

export function defaultPlanRoutes(options: RolloutRouteOptions): Router {
  const { access, clock } = options;
  const router = Router();
  const { db, environment } = access;
  const auth = access.authenticate();
  const json = [requireJsonContentType, parseJsonBody];
  const now = () => clock?.() ?? new Date();
  const limits = planLimits(options);
  const answer = (remote: string, row: DefaultPlanRow): RemoteRolloutPlan => ({
    environment,
    remote,
    ...row,
    builtIn: defaultPlan(limits),
  });

  /** Sets (`plan`) or clears (null) the default in one transaction with its audit row. */
  async function change(req: Request, res: Parameters<typeof actorOf>[1], remote: string, plan: RolloutPlan | null) {
    const expectedVersion =
      plan === null ? versionQuery(req) : readInteger(jsonObject(req), 'expectedVersion', 0, MAX_VERSION);
    const reason = plan === null ? '' : (readString(jsonObject(req), 'reason', { max: 500, optional: true }) ?? '');
    const actor = actorOf(req, res);
    return db.transaction(async (tx) => {
      const before = await readDefaultPlan(tx, environment, remote);
      if (plan === null && before.plan === null)
        throw new ApiError(404, 'not_found', `${remote} has no default plan: its rollouts use the built-in plan.`);
      const expected = expectedVersion ?? before.version;
      if (expected !== before.version) throw conflict(remote, expected, before.version);
      const after = await writeDefaultPlan(tx, {
        environment,
        remote,
        plan,
        expectedVersion: expected,
        by: actor.tokenName,
        now: now(),
      });
      // Another request set it between the read and the write (no row yet, or its version moved).
      if (after === null) throw conflict(remote, expected, (await readDefaultPlan(tx, environment, remote)).version);
      await appendAudit(tx, {
        ...actor,
        environment,
        remote,
        action: 'rollout-plan',
        fromState: described(before.plan),
        toState: described(after.plan),
        reason,
      });
      return after;
    });
  }

  router
    .route('/v1/rollouts/plans/:remote')
    .get(...auth, async (req, res) => {
      const remote = knownRemote(req);
      authorize(res, remote, 'viewer', 'read rollouts');
      res.set('Cache-Control', 'no-store').json(answer(remote, await readDefaultPlan(db, environment, remote)));
    })
    .put(...auth, ...json, async (req, res) => {
      const remote = knownRemote(req);
      authorize(res, remote, 'deployer', 'set the default rollout plan');
      const parsed = parsePlan(jsonObject(req).plan, limits);
      if (!parsed.ok) throw invalidPlan(parsed.problems);
      res.json(answer(remote, await change(req, res, remote, parsed.plan)));
    })
    .delete(...auth, async (req, res) => {
      const remote = knownRemote(req);
      authorize(res, remote, 'deployer', 'clear the default rollout plan');
      res.json(answer(remote, await change(req, res, remote, null)));
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'PUT', 'DELETE']));

  return router;
}

/** DELETE's `?expectedVersion=`: optional (absent: whatever it is now). */
function versionQuery(req: Request): number | undefined {
  const given = req.query.expectedVersion;
  if (given === undefined) return undefined;
  if (typeof given !== 'string' || !/^[0-9]{1,10}$/.test(given) || Number(given) > MAX_VERSION)
    throw new ApiError(400, 'bad_request', '`expectedVersion` must be an integer from 0.');
  return Number(given);
}
