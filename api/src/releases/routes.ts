import type { ReleaseStateReport } from '@special-gift/shared/api';
import { Router } from 'express';
import type { Access } from '../access';
import { methodNotAllowed } from '../http/method-not-allowed';
import { buildRoutes } from './build-routes';
import { pointerRoutes } from './pointer-routes';
import { previewRoutes } from './preview-routes';
import { readStateStatus } from './release-state';
import { PointerMemo, snapshotHandler } from './snapshot';
import { StatePublisher } from './state-publisher';

export interface ReleaseRouteOptions {
  readonly access: Access;
  readonly cookieSecure: boolean;
  /** Seconds since the epoch; tests move it. */
  readonly now?: () => number;
  /** The pointers' memo, shared with whoever else reads what pages get (page tokens). */
  readonly memo?: PointerMemo;
  /** Writes the release state to the build store (main.ts starts its reconciler); none: recorded only. */
  readonly publisher?: StatePublisher;
}

/**
 * Releases (docs/releases.md): the public per-page snapshot the host's composer embeds, and the
 * endpoints the release tool and the console call with a token scoped to a remote (docs/access.md).
 */
export function releaseRoutes({
  access,
  cookieSecure,
  now = () => Math.floor(Date.now() / 1000),
  memo = new PointerMemo(access.db, access.environment),
  publisher = new StatePublisher({ db: access.db, environment: access.environment, store: undefined, keys: [] }),
}: ReleaseRouteOptions): Router {
  const router = Router();
  const { db, environment, operatorToken } = access;
  // Where the environment's release state stands (docs/releases.md): any valid token may ask.
  router
    .route('/v1/releases/state')
    .get(...access.authenticate(), async (_req, res) => {
      const report: ReleaseStateReport = {
        environment,
        store: publisher.location ?? null,
        ...(await readStateStatus(db, environment)),
      };
      res.json(report);
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  router
    .route('/v1/releases/snapshot')
    .get(snapshotHandler({ db, memo, environment, operatorToken, now }))
    .all(methodNotAllowed(['GET', 'HEAD']));
  buildRoutes(router, access);
  pointerRoutes(router, { access, memo, publisher });
  previewRoutes(router, { access, cookieSecure, now });
  return router;
}
