import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ApiError } from './api-error';

const DISABLED = () =>
  new ApiError(503, 'releases_disabled', 'Releases are off on this API: it runs without an OPERATOR_TOKEN.');
const UNAUTHORIZED = () =>
  new ApiError(401, 'unauthorized', 'Send the operator token as `Authorization: Bearer <token>`.');

/** Constant-time equality; hashing first makes the comparison independent of the lengths too. */
function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** Without a configured token the operator's report is off, not open. */
export const REPORT_OFF = () =>
  new ApiError(401, 'unauthorized', 'Operator access is off: the API has no OPERATOR_TOKEN.');

/**
 * Operator endpoints (release writes, the telemetry report) need the operator token as a bearer
 * token, compared in constant time; 401 otherwise. Without a configured token: `whenOff`, by default
 * 503 `releases_disabled` (an unconfigured deployment can never be released to).
 */
export function requireOperator(operatorToken: string | undefined, whenOff: () => ApiError = DISABLED): RequestHandler {
  return (req, res, next) => {
    if (operatorToken === undefined) return next(whenOff());
    const match = /^Bearer (\S+)$/.exec(req.get('authorization') ?? '');
    if (!match?.[1] || !sameSecret(match[1], operatorToken)) {
      res.set('WWW-Authenticate', 'Bearer realm="operator"');
      return next(UNAUTHORIZED());
    }
    next();
  };
}

/**
 * The preview cookie's signing key, derived from the operator token: every replica computes the same
 * one, nothing more to configure, and rotating the token ends every preview.
 */
export function previewKey(operatorToken: string): Buffer {
  return createHmac('sha256', operatorToken).update('special-gift release preview cookie v1').digest();
}

export const PREVIEW_COOKIE = 'sg_preview';
export const PREVIEW_MAX_AGE_SECONDS = 8 * 60 * 60;

export interface Preview {
  readonly remote: string;
  readonly buildId: string;
  readonly expiresAt: number;
}

function signature(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** `<remote>.<buildId>.<expiry epoch seconds>.<HMAC-SHA256, base64url>`: a cookie value without escaping. */
export function signPreview(key: Buffer, preview: Preview): string {
  const payload = `${preview.remote}.${preview.buildId}.${preview.expiresAt}`;
  return `${payload}.${signature(key, payload)}`;
}

/** The preview the cookie names if its signature is ours and it has not expired; else null. */
export function verifyPreview(key: Buffer, value: string, nowSeconds: number): Preview | null {
  const match = /^([a-z][a-z0-9-]{0,31})\.([0-9a-f]{12})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return null;
  const [, remote = '', buildId = '', expiry = '', mac = ''] = match;
  const expected = Buffer.from(signature(key, `${remote}.${buildId}.${expiry}`));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const expiresAt = Number(expiry);
  return expiresAt > nowSeconds ? { remote, buildId, expiresAt } : null;
}
