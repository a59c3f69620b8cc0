import type { RequestHandler, Response } from 'express';
import { rateLimit } from 'express-rate-limit';
import { sendError, ApiError } from './api-error';

/**
 * At most `perMinute` requests a minute per client (IP address; an IPv6 client by its /56), in
 * this process: 429 `rate_limited`, with `Retry-After` (seconds) and `message`, past that.
 */
function perClientLimit(
  perMinute: number,
  message: string,
  counted?: (res: { statusCode: number }) => boolean,
  refuse?: (res: Response) => void,
): RequestHandler {
  if (perMinute === 0) return (_req, _res, next) => next();
  return rateLimit({
    ...(counted ? { skipSuccessfulRequests: true, requestWasSuccessful: (_req, res) => !counted(res) } : {}),
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: 'draft-6',
    legacyHeaders: false,
    ipv6Subnet: 56,
    handler: (_req, res, _next, options) => {
      if (refuse) return refuse(res);
      sendError(res, new ApiError(options.statusCode, 'rate_limited', message));
    },
  });
}

/**
 * Sign-up attempts per client. A 409 says whether a card is registered, so unlimited attempts
 * would make an enumeration oracle. In memory, so per replica: deployments with several replicas
 * limit in front of them too (deploy/nginx/host.conf.template, `limit_req`), which holds across all.
 */
export const signUpRateLimit = ({ perMinute }: { readonly perMinute: number }): RequestHandler =>
  perClientLimit(
    perMinute,
    'Too many sign-up attempts from this address. Wait for the time in Retry-After, then try again.',
  );

/**
 * Telemetry batches per client: a browser sends one per page view, so more is a script, and
 * refusing it bounds what one client can write. The address lives only in this limiter's memory,
 * for a minute: telemetry never stores it.
 */
export const telemetryRateLimit = ({ perMinute }: { readonly perMinute: number }): RequestHandler =>
  perClientLimit(perMinute, 'Too many telemetry batches from this address; wait a minute.');

/**
 * Page tokens per client (docs/telemetry.md): the composer asks for one per page it composes, with
 * the visitor's address; past the limit the page is served without one and its batch is unsigned.
 * This bounds how many signed page views one address can make, whatever it fetches. `refuse`
 * answers past the limit (the endpoint's bodiless refusal: its answer is printed into the page).
 */
export const pageTokenRateLimit = ({
  perMinute,
  refuse,
}: {
  readonly perMinute: number;
  readonly refuse: (res: Response) => void;
}): RequestHandler =>
  perClientLimit(perMinute, 'Too many page tokens for this address; wait a minute.', undefined, refuse);

/**
 * Failed authentications per client (401s only: a request in flight counts until it answers
 * otherwise). Past the limit every request of the client gets 429, so guessing tokens costs a
 * minute per batch; a token's 256 random bits make guessing hopeless anyway, this bounds the load.
 */
export const authFailureRateLimit = ({ perMinute }: { readonly perMinute: number }): RequestHandler =>
  perClientLimit(
    perMinute,
    'Too many failed authentications from this address. Wait for the time in Retry-After, then try again.',
    (res) => res.statusCode === 401,
  );
