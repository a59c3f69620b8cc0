import type { RequestHandler } from 'express';
import { ApiError, sendError } from './api-error';

/**
 * The catch-all for a known path: OPTIONS is answered with the allowed methods, anything else not
 * handled above it is a 405. Both carry `Allow`.
 */
export function methodNotAllowed(allowed: readonly string[]): RequestHandler {
  const allow = [...allowed, 'OPTIONS'].join(', ');
  return (req, res) => {
    res.set('Allow', allow);
    if (req.method === 'OPTIONS') {
      res.status(204).end();
      return;
    }
    sendError(
      res,
      new ApiError(405, 'method_not_allowed', `${req.method} is not allowed on this path. Allowed: ${allow}.`),
    );
  };
}
