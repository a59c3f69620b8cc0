import { Router } from 'express';
import { methodNotAllowed } from '../http/method-not-allowed';

/** Liveness: the process is up and serving HTTP. */
export function healthRoutes(): Router {
  const router = Router();
  router
    .route('/v1/health')
    .get((_req, res) => {
      res.json({ status: 'ok' });
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
