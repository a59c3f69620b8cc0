import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError } from './api-error';

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/**
 * Operator endpoints (the telemetry report) require `Authorization: Bearer <OPERATOR_TOKEN>`. The
 * comparison is constant-time, of SHA-256 digests so the lengths leak nothing either. Without a
 * configured token every request is refused: the report is off, not open.
 */
export function requireOperator(token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return (req, res, next) => {
    res.set('WWW-Authenticate', 'Bearer realm="operator"');
    if (expected === undefined) {
      return next(new ApiError(401, 'unauthorized', 'Operator access is off: the API has no OPERATOR_TOKEN.'));
    }
    const sent = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '')?.[1];
    if (sent === undefined || !timingSafeEqual(digest(sent), expected)) {
      return next(new ApiError(401, 'unauthorized', 'Send the operator token as Authorization: Bearer <token>.'));
    }
    res.removeHeader('WWW-Authenticate');
    next();
  };
}
