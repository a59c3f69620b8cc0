// The rollouts' routes (docs/rollouts.md, "Routes"): start, list, read, and people's controls. Each
// control is a compare-and-swap on the rollout's version (`expectedVersion`, 409 rollout_conflict),
// with its event and audit row in the same transaction; abort acts here, at once, not at a tick.
import { randomBytes } from 'node:crypto';
import { type RolloutControl, ROLLOUT_CONTROLS, type RolloutDetail } from '@special-gift/shared/api';
import { BUILD_ID_PATTERN, REMOTE_NAME_PATTERN } from '@special-gift/shared/builds';
import { Router, type Request, type Response } from 'express';
import { actorOf, appendAudit, authorize, principalOf, type Access } from '../access';
import { ApiError } from '../http/api-error';
import { parseJsonBody, requireJsonContentType } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import { bodyFields, jsonObject, queryLimit } from '../http/request-fields';
import { lockServableBuild, readLock, readPointer } from '../releases';
import type { PlanLimits, RolloutRuleParameters } from '../rollouts';
import { controlRollout } from './controls';
import { planForStart } from './default-plan-store';
import { publicGate, readGates } from './gate-store';
import {
  appendEvent,
  insertRollout,
  listRollouts,
  readApprovals,
  readEvents,
  readRollout,
  toRollout,
  type RolloutRow,
} from './rollout-store';
import type { RolloutRunnerSettings } from './settings';

export interface RolloutRouteOptions {
  readonly access: Access;
  readonly settings: RolloutRunnerSettings;
  readonly rule: RolloutRuleParameters;
  readonly clock?: () => Date;
  /** After a pointer move committed by a route (abort): forget the memo, publish the release state. */
  readonly afterPointerChange?: (stateSerial: number) => Promise<unknown>;
}

const invalid = (message: string) => new ApiError(422, 'invalid_body', message);
const { readString, readInteger } = bodyFields(invalid);
const refused = (message: string) => new ApiError(409, 'rollout_refused', message);
const ROLLOUT_ID = /^[0-9a-f]{24}$/;
/** A plan refused by parsePlan: every problem at once (a rollout's start, a remote's default). */
export const invalidPlan = (problems: readonly string[]) =>
  new ApiError(422, 'invalid_rollout_plan', problems.join(' '));

/** What a plan is validated against: the dwell floor of the settings, the rule's low-traffic policy. */
export const planLimits = ({ settings, rule }: Pick<RolloutRouteOptions, 'settings' | 'rule'>): PlanLimits => ({
  minDwellSeconds: settings.minStepDwellSeconds,
  lowTraffic: rule.lowTraffic,
});

export function rolloutDetail(
  row: RolloutRow,
  parts: Omit<RolloutDetail, keyof ReturnType<typeof toRollout>>,
): RolloutDetail {
  return { ...toRollout(row), ...parts };
}

export function rolloutRoutes(options: RolloutRouteOptions): Router {
  const { access } = options;
  const { db, environment } = access;
  const clock = options.clock ?? (() => new Date());
  const afterPointerChange = options.afterPointerChange ?? (() => Promise.resolve());
  const auth = access.authenticate();
  const json = [requireJsonContentType, parseJsonBody];
  const limits = planLimits(options);
  const router = Router();

  /** The rollout of `:id` in this environment, if the token may read its remote (404 for another environment's). */
  async function rolloutOf(
    req: Request,
    res: Response,
    role: 'viewer' | 'deployer',
    doing: string,
  ): Promise<RolloutRow> {
    const id = req.params.id;
    const row = typeof id === 'string' && ROLLOUT_ID.test(id) ? await readRollout(db, environment, id) : null;
    if (!row) throw new ApiError(404, 'not_found', `No rollout ${String(id)} in ${environment}.`);
    authorize(res, row.remote, role, doing);
    return row;
  }

  router
    .route('/v1/rollouts')
    .post(...auth, ...json, async (req, res) => {
      const body = jsonObject(req);
      const remote = readString(body, 'remote', { pattern: REMOTE_NAME_PATTERN, max: 32 });
      authorize(res, remote, 'deployer', 'start a rollout');
      const buildId = readString(body, 'buildId', { pattern: BUILD_ID_PATTERN });
      const reason = readString(body, 'reason', { max: 500, optional: true }) ?? '';
      const actor = actorOf(req, res);
      const now = clock();
      const id = randomBytes(12).toString('hex');
      await db.transaction(async (tx) => {
        // The request's plan, else the remote's default (read under FOR SHARE), else the built-in one.
        const parsed = await planForStart(tx, { environment, remote, requested: body.plan }, limits);
        if (!parsed.ok) throw invalidPlan(parsed.problems);
        if ((await lockServableBuild(tx, remote, buildId)) === null)
          throw new ApiError(
            404,
            'unknown_build',
            `Build ${buildId} of ${remote} is not published, or was purged: publish it first.`,
          );
        const pointer = await readPointer(tx, environment, remote);
        if (pointer === null)
          throw refused(`${remote} has no live build: release one first (a rollout compares the candidate with live).`);
        if (pointer.live === buildId) throw refused(`${buildId} is already live for ${remote}.`);
        if (pointer.canary !== null)
          throw refused(`${remote} has a canary (${pointer.canary}) set by hand: abort or promote it first.`);
        const lock = await readLock(tx, environment, remote);
        if (lock) throw refused(`${remote} is locked (${lock.reason}): unlock it first.`);
        const inserted = await insertRollout(tx, {
          id,
          environment,
          remote,
          buildId,
          baselineBuild: pointer.live,
          plan: parsed.plan,
          planSource: parsed.planSource,
          pointerRevision: pointer.revision,
          startedByTokenId: actor.tokenId,
          startedBy: actor.tokenName,
          now,
        });
        if (!inserted) throw refused(`${remote} already has a rollout under way: one at a time.`);
        await appendEvent(tx, id, {
          kind: 'started',
          actor,
          at: now,
          reason: reason || `${buildId} against live ${pointer.live}`,
        });
        await appendAudit(tx, {
          ...actor,
          environment,
          remote,
          action: 'rollout-start',
          fromState: `live ${pointer.live}`,
          toState: `rollout ${id} of ${buildId}: gating (plan: ${parsed.planSource})`,
          reason,
        });
      });
      const row = await readRollout(db, environment, id);
      res.status(201).json(toRollout(row as RolloutRow));
    })
    .get(...auth, async (req, res) => {
      const asked = req.query.remote;
      if (asked !== undefined && (typeof asked !== 'string' || !REMOTE_NAME_PATTERN.test(asked)))
        throw new ApiError(400, 'bad_request', '`remote` must be a remote name like signup.');
      const remote = (asked as string | undefined) ?? principalOf(res).remote;
      authorize(res, remote, 'viewer', 'read rollouts');
      const active = req.query.active;
      if (active !== undefined && active !== 'true' && active !== 'false')
        throw new ApiError(400, 'bad_request', '`active` must be true or false.');
      const limit = queryLimit(req, 20, (message) => new ApiError(400, 'bad_request', message));
      const rows = await listRollouts(db, environment, { remote, active: active === 'true', limit });
      res.set('Cache-Control', 'no-store').json({ environment, rollouts: rows.map(toRollout) });
    })
    .all(methodNotAllowed(['GET', 'HEAD', 'POST']));

  router
    .route('/v1/rollouts/:id')
    .get(...auth, async (req, res) => {
      const row = await rolloutOf(req, res, 'viewer', 'read rollouts');
      const detail = rolloutDetail(row, {
        gates: (await readGates(db, row.id)).map(publicGate),
        events: await readEvents(db, row.id),
        approvals: (await readApprovals(db, row.id)).map(({ stepIndex, requestedAt, approvedBy, approvedAt }) => ({
          stepIndex,
          requestedAt,
          approvedBy,
          approvedAt,
        })),
        lastCheck: row.lastCheck as RolloutDetail['lastCheck'],
      });
      res.set('Cache-Control', 'no-store').json(detail);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  for (const control of ROLLOUT_CONTROLS)
    router
      .route(`/v1/rollouts/:id/${control}`)
      .post(...auth, ...json, async (req, res) => {
        const row = await rolloutOf(req, res, 'deployer', `${control} a rollout`);
        const body = jsonObject(req);
        const expectedVersion = readInteger(body, 'expectedVersion', 1, 2_000_000_000);
        const reason = readString(body, 'reason', { max: 500, optional: true }) ?? '';
        const outcome = await controlRollout(db, {
          environment,
          id: row.id,
          control: control satisfies RolloutControl,
          expectedVersion,
          reason,
          actor: actorOf(req, res),
          now: clock(),
        });
        if (outcome.stateSerial !== null) await afterPointerChange(outcome.stateSerial);
        res.json(toRollout(outcome.row));
      })
      .all(methodNotAllowed(['POST']));

  return router;
}
