import { Router } from 'express';
import type { Access } from '../access';
import { methodNotAllowed } from '../http/method-not-allowed';
import { buildRoutes } from './build-routes';
import { pointerRoutes } from './pointer-routes';
import { previewRoutes } from './preview-routes';
import { PointerMemo, snapshotHandler } from './snapshot';

export interface ReleaseRouteOptions {
  readonly access: Access;
  readonly cookieSecure: boolean;
  /** Seconds since the epoch; tests move it. */
  readonly now?: () => number;
  /** The pointers' memo, shared with whoever else reads what pages get (page tokens). */
  readonly memo?: PointerMemo;
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
}: ReleaseRouteOptions): Router {
  const router = Router();
  const { db, environment, operatorToken } = access;
  router
    .route('/v1/releases/snapshot')
    .get(snapshotHandler({ db, memo, environment, operatorToken, now }))
    .all(methodNotAllowed(['GET', 'HEAD']));
  buildRoutes(router, access);
  pointerRoutes(router, { access, memo });
  previewRoutes(router, { access, cookieSecure, now });
  return router;
}
