import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError } from './api-error';
import { sameSecret } from './signing';
import { readCookie, XSRF_COOKIE_NAME, XSRF_HEADER_NAME } from '@special-gift/shared/xsrf';

export { XSRF_COOKIE_NAME, XSRF_HEADER_NAME };

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function createXsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Double-submit XSRF protection. Any response to a request without the cookie sets one (readable by
 * the page's JS, so not HttpOnly; SameSite=Strict so other sites never send it). A mutating request
 * must echo the cookie's value in the header: another origin can make the browser send the cookie
 * but cannot read it to copy it. A rejected request still gets a cookie, so the client can retry once.
 */
export function xsrfProtection({ cookieSecure }: { readonly cookieSecure: boolean }): RequestHandler {
  return (req, res, next) => {
    const cookieToken = readCookie(req.headers.cookie ?? '', XSRF_COOKIE_NAME);
    if (!cookieToken) {
      res.cookie(XSRF_COOKIE_NAME, createXsrfToken(), {
        path: '/',
        sameSite: 'strict',
        secure: cookieSecure,
        httpOnly: false,
      });
    }
    if (SAFE_METHODS.has(req.method)) return next();
    const headerToken = req.get(XSRF_HEADER_NAME);
    if (!cookieToken || !headerToken || !sameSecret(cookieToken, headerToken)) {
      return next(
        new ApiError(
          403,
          'xsrf_mismatch',
          `The ${XSRF_HEADER_NAME} header must equal the ${XSRF_COOKIE_NAME} cookie. Read the cookie and retry.`,
        ),
      );
    }
    next();
  };
}
