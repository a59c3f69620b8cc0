import { BUILD_ID_PATTERN } from '@special-gift/shared/builds';
import type { Router } from 'express';
import { actorOf, appendAudit, authorize, type Access } from '../access';
import { ApiError } from '../http/api-error';
import { parseJsonBody, requireJsonContentType } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import { jsonObject } from '../http/request-fields';
import { applyAction, RELEASE_ACTIONS, type ReleaseAction } from './action-store';
import { deleteLock, describeLock, insertLock, readLock } from './lock-store';
import { readRemoteState } from './pointer-store';
import { rolloutInProgress } from './rollout-guard';
import { historyLimit, invalid, readInteger, readString, remoteOf } from './request';
import type { PointerMemo } from './snapshot';
import type { StatePublisher } from './state-publisher';

/** A remote's state (viewers), the actions that move its pointer, and its lock (deployers). */
export function pointerRoutes(
  router: Router,
  { access, memo, publisher }: { access: Access; memo: PointerMemo; publisher: StatePublisher },
): void {
  const { db, environment } = access;
  const auth = access.authenticate();
  const json = [requireJsonContentType, parseJsonBody];

  router
    .route('/v1/releases/remotes/:remote')
    .get(...auth, async (req, res) => {
      const remote = remoteOf(req);
      authorize(res, remote, 'viewer', 'read releases');
      const state = await readRemoteState(db, environment, remote, historyLimit(req));
      res.json({ environment, remote, ...state, lock: await readLock(db, environment, remote) });
    })
    .all(methodNotAllowed(['GET', 'HEAD']));

  router
    .route('/v1/releases/remotes/:remote/actions')
    .post(...auth, ...json, async (req, res) => {
      const remote = remoteOf(req);
      authorize(res, remote, 'deployer', 'move the pointer');
      const body = jsonObject(req);
      const action = readString(body, 'action') as ReleaseAction;
      if (!RELEASE_ACTIONS.includes(action)) throw invalid(`\`action\` must be one of ${RELEASE_ACTIONS.join(', ')}.`);
      const needsBuild = action === 'release' || action === 'canary';
      const buildId = readString(body, 'buildId', { pattern: BUILD_ID_PATTERN, optional: !needsBuild });
      if (buildId !== undefined && !needsBuild && action !== 'rollback')
        throw invalid(`\`${action}\` takes no \`buildId\`.`);
      const percent = readInteger(body, 'percent', 1, 100, action !== 'canary');
      if (percent !== undefined && action !== 'canary') throw invalid('Only `canary` takes a `percent`.');
      const input = {
        action,
        buildId,
        percent,
        expectedRevision: readInteger(body, 'expectedRevision', 0, 2_000_000_000),
        reason: readString(body, 'reason', { max: 500, optional: true }) ?? '',
      };
      // Any `actor` in the body is ignored: history and audit name the authenticated token.
      const outcome = await applyAction(db, environment, remote, input, actorOf(req, res));
      if ('ok' in outcome) {
        memo.forget();
        // Committed either way; the answer says whether the store has it yet (pages read it there).
        const state = await publisher.afterChange(outcome.stateSerial);
        res.json({ environment, remote, pointer: outcome.pointer, revision: outcome.revision, state });
        return;
      }
      switch (outcome.kind) {
        case 'conflict':
          throw new ApiError(
            409,
            'release_conflict',
            `The ${remote} pointer is at revision ${outcome.current}, not ${input.expectedRevision} as expected: ` +
              'someone else changed it meanwhile. Check `history` and retry.',
          );
        case 'unknown_build':
          throw new ApiError(
            404,
            'unknown_build',
            `Build ${outcome.buildId} of ${remote} is not published, or was purged: publish it first.`,
          );
        case 'refused':
          throw new ApiError(409, 'release_refused', outcome.message);
        case 'rollout':
          throw new ApiError(409, 'rollout_in_progress', rolloutInProgress(remote, outcome.rolloutId));
        case 'locked':
          throw new ApiError(
            409,
            'remote_locked',
            `${describeLock(remote, outcome.lock)}. Only abort and rollback work until it is unlocked.`,
          );
      }
    })
    .all(methodNotAllowed(['POST']));

  for (const change of ['lock', 'unlock'] as const)
    router
      .route(`/v1/releases/remotes/:remote/${change}`)
      .post(...auth, ...json, async (req, res) => {
        const remote = remoteOf(req);
        const principal = authorize(res, remote, 'deployer', `${change} the pointer`);
        const reason = readString(jsonObject(req), 'reason', { pattern: /\S/, max: 500 });
        const actor = actorOf(req, res);
        const done = await db.transaction(async (tx) => {
          const lock =
            change === 'lock'
              ? await insertLock(tx, environment, remote, { reason, lockedBy: principal.name })
              : await deleteLock(tx, environment, remote);
          if (lock)
            await appendAudit(tx, {
              ...actor,
              environment,
              remote,
              action: change,
              fromState: change === 'lock' ? 'unlocked' : `locked: ${lock.reason}`,
              toState: change === 'lock' ? `locked: ${lock.reason}` : 'unlocked',
              reason,
            });
          return lock;
        });
        if (!done) {
          const current = await readLock(db, environment, remote);
          throw new ApiError(
            409,
            'release_refused',
            current ? `${describeLock(remote, current)}.` : `${remote} is not locked.`,
          );
        }
        res.json({ environment, remote, lock: change === 'lock' ? done : null });
      })
      .all(methodNotAllowed(['POST']));
}
