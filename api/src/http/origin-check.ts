import type { RequestHandler } from 'express';
import { ApiError } from './api-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const REFUSED = () =>
  new ApiError(403, 'cross_origin_request', 'Mutating requests are accepted only from the site itself.');

// Without a configured public origin (local development), the site is on this machine.
const LOOPBACK_ORIGIN = /^https?:\/\/(localhost|127\.0\.0\.1|\[::1\])(:[0-9]+)?$/;

/**
 * Defence in depth beside the double-submit cookie: a browser says where a request comes from, and
 * a mutating request from anywhere but the site is refused whatever it carries. `Sec-Fetch-Site`,
 * when sent, must be `same-origin` (or `none`); an `Origin`, when sent, must be one of
 * `allowedOrigins` (config `PUBLIC_ORIGIN`), or a loopback origin when none is configured. Never
 * compared with `Host`: a page on a name that an attacker's DNS points at this server (DNS
 * rebinding) is "same-origin" to the browser, and its `Host` matches its `Origin`. A client that
 * sends neither header (curl, a server) is not a browser and is left to the XSRF check.
 *
 * One exception: a same-origin request that carries an `Authorization` header, as the operator
 * pages (console, report) send from the API's own origin (docs/console.md). A browser never adds
 * that header by itself, so no other page can forge it; a rebound page would need the token too.
 */
export function originCheck({ allowedOrigins }: { readonly allowedOrigins: readonly string[] }): RequestHandler {
  const isSite = (origin: string) =>
    allowedOrigins.length > 0 ? allowedOrigins.includes(origin) : LOOPBACK_ORIGIN.test(origin);
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return next(REFUSED());
    if (site === 'same-origin' && req.get('authorization') !== undefined) return next();
    const origin = req.get('origin')?.toLowerCase();
    next(origin === undefined || isSite(origin) ? undefined : REFUSED());
  };
}
