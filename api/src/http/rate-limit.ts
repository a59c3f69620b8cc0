import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import { sendError, ApiError } from './api-error';

/**
 * Per client (IP address; an IPv6 client by its /56), at most `perMinute` sign-up attempts a
 * minute in this process: 429 `rate_limited` with `Retry-After` (seconds) past that. A 409 says
 * whether a card is registered, so unlimited attempts would make an enumeration oracle.
 * In memory, so per replica: deployments with several replicas limit in front of them too
 * (deploy/nginx/host.conf.template, `limit_req`), which holds across all of them.
 */
export function signUpRateLimit({ perMinute }: { readonly perMinute: number }): RequestHandler {
  if (perMinute === 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    ipv6Subnet: 56,
    handler: (_req, res, _next, options) => {
      sendError(
        res,
        new ApiError(
          options.statusCode,
          'rate_limited',
          'Too many sign-up attempts from this address. Wait for the time in Retry-After, then try again.',
        ),
      );
    },
  });
}

/**
 * Per client (as above), at most `perMinute` telemetry batches a minute: a browser sends one per
 * page view, so more is a script, and refusing it bounds what one client can write. 429 past that.
 * The address lives only in this limiter's memory, for a minute: telemetry never stores it.
 */
export function telemetryRateLimit({ perMinute }: { readonly perMinute: number }): RequestHandler {
  if (perMinute === 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    ipv6Subnet: 56,
    handler: (_req, res, _next, options) => {
      sendError(
        res,
        new ApiError(
          options.statusCode,
          'rate_limited',
          'Too many telemetry batches from this address; wait a minute.',
        ),
      );
    },
  });
}
