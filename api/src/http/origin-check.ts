import type { RequestHandler } from 'express';
import { ApiError } from './api-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const REFUSED = () => new ApiError(403, 'cross_origin_request', 'Mutating requests are accepted only from the site itself.');

/**
 * Defence in depth beside the double-submit cookie: a browser says where a request comes from, and
 * a mutating request from another site is refused whatever it carries. `Sec-Fetch-Site` (every
 * current browser) must be `same-origin` (or `none`: typed by the user); without it, an `Origin`
 * must be the API's own (its `Host`) or one of `allowedOrigins`. A client that sends neither (curl,
 * a server) is not a browser and is left to the XSRF check.
 */
export function originCheck({ allowedOrigins }: { readonly allowedOrigins: readonly string[] }): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.get('sec-fetch-site');
    if (site !== undefined) return next(site === 'same-origin' || site === 'none' ? undefined : REFUSED());
    const origin = req.get('origin')?.toLowerCase();
    if (origin === undefined) return next();
    const host = req.get('host')?.toLowerCase();
    const own = host !== undefined && (origin === `http://${host}` || origin === `https://${host}`);
    next(own || allowedOrigins.includes(origin) ? undefined : REFUSED());
  };
}
