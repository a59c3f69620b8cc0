import { Router } from 'express';
import type { Database } from '../db/database';
import { ApiError, sendError } from '../http/api-error';
import type { Lifecycle } from '../http/lifecycle';
import { methodNotAllowed } from '../http/method-not-allowed';

const SHUTTING_DOWN = new ApiError(503, 'not_ready', 'This instance is shutting down.');

/** Liveness (`/v1/health`: the process serves HTTP) and readiness (`/v1/ready`: send it traffic). */
export function healthRoutes(db: Database, lifecycle: Lifecycle): Router {
  const router = Router();
  router
    .route('/v1/health')
    .get((_req, res) => {
      res.json({ status: 'ok' });
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  router
    .route('/v1/ready')
    .get(async (_req, res) => {
      // Fails first on shutdown, so a load balancer stops sending traffic before the listener closes.
      // Answered here, not thrown: it is the expected answer while stopping, not a fault to log.
      if (lifecycle.stopping) return sendError(res, SHUTTING_DOWN);
      try {
        await db.ping();
      } catch {
        throw new ApiError(503, 'not_ready', 'The database cannot be reached.');
      }
      // The stop may have begun during the ping.
      if (lifecycle.stopping) return sendError(res, SHUTTING_DOWN);
      res.json({ status: 'ready' });
    })
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
