import { BUILD_ID_PATTERN, REMOTE_NAME_PATTERN } from '@special-gift/shared/builds';
import type { Router } from 'express';
import { actorOf, authorize, type Access } from '../access';
import { ApiError } from '../http/api-error';
import { parseJsonBody, requireJsonContentType } from '../http/json-body';
import { methodNotAllowed } from '../http/method-not-allowed';
import { jsonObject } from '../http/request-fields';
import { purgeBuilds, registerBuild } from './build-registry';
import { invalid, readFootprint, readIntegrity, readInteger, readString, remoteOf } from './request';

/** Publishing a build (its registration, after the release tool stored its files) and purging old ones: deployers. */
export function buildRoutes(router: Router, access: Access): void {
  const { db, environment } = access;
  const auth = access.authenticate();
  const json = [requireJsonContentType, parseJsonBody];

  router
    .route('/v1/releases/builds')
    .post(...auth, ...json, async (req, res) => {
      const body = jsonObject(req);
      const build = {
        remote: readString(body, 'remote', { pattern: REMOTE_NAME_PATTERN }),
        buildId: readString(body, 'buildId', { pattern: BUILD_ID_PATTERN }),
        contractMajor: readInteger(body, 'contractMajor', 0, 1_000_000),
        files: readInteger(body, 'files', 1, 1_000_000),
        bytes: readInteger(body, 'bytes', 0, Number.MAX_SAFE_INTEGER),
        integrity: readIntegrity(body),
        ...readFootprint(body),
      };
      authorize(res, build.remote, 'deployer', 'publish builds');
      // Any `actor` in the body is ignored: the build is published by the authenticated token.
      const outcome = await registerBuild(db, build, { actor: actorOf(req, res), environment });
      if (outcome.kind === 'different') {
        throw new ApiError(
          409,
          'build_conflict',
          `Build ${build.buildId} of ${build.remote} is already registered with other metadata ` +
            `(contract major ${outcome.build.contractMajor}, ${outcome.build.files} files, ${outcome.build.bytes} bytes).`,
        );
      }
      res.status(outcome.kind === 'created' ? 201 : 200).json({ build: outcome.build });
    })
    .all(methodNotAllowed(['POST']));

  router
    .route('/v1/releases/remotes/:remote/purge')
    .post(...auth, ...json, async (req, res) => {
      const remote = remoteOf(req);
      authorize(res, remote, 'deployer', 'purge builds');
      const ids = jsonObject(req).buildIds;
      if (
        !Array.isArray(ids) ||
        ids.length === 0 ||
        ids.length > 1000 ||
        !ids.every((id) => typeof id === 'string' && BUILD_ID_PATTERN.test(id))
      )
        throw invalid('`buildIds` must be a list of 1 to 1000 build ids (12 hex characters).');
      const outcome = await purgeBuilds(db, remote, ids as string[], { actor: actorOf(req, res), environment });
      if ('ok' in outcome) return void res.json({ remote, purged: outcome.purged });
      if (outcome.kind === 'unknown_build')
        throw new ApiError(404, 'unknown_build', `Build ${outcome.buildId} of ${remote} was never published.`);
      const listed = `${outcome.buildIds.join(', ')} ${outcome.buildIds.length === 1 ? 'is' : 'are'}`;
      throw new ApiError(
        409,
        'release_refused',
        outcome.kind === 'in_use'
          ? `Not purged: ${listed} live, in canary or in a rollout under way.`
          : `Not purged: ${listed} in another environment's release history (its rollback targets); only the operator purges those.`,
      );
    })
    .all(methodNotAllowed(['POST']));
}
