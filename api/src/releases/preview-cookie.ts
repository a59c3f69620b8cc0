import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The preview cookie's signing key for one remote of one environment, derived from the operator
 * token: every replica computes the same one, nothing more to configure. Per remote, and the cookie
 * names the token that made it (checked live at each snapshot), so revoking one team's token ends
 * only the previews that token started; replacing the operator token ends every preview. Per
 * environment, so a staging preview is nothing to production when both share an operator token
 * (and a browser: the cookie is the host's, whichever API answers).
 */
export function previewKey(operatorToken: string, environment: string, remote: string): Buffer {
  return createHmac('sha256', operatorToken)
    .update(`special-gift release preview cookie v3 ${environment} ${remote}`)
    .digest();
}

export const PREVIEW_COOKIE = 'sg_preview';
export const PREVIEW_MAX_AGE_SECONDS = 8 * 60 * 60;

export interface Preview {
  readonly remote: string;
  readonly buildId: string;
  readonly expiresAt: number;
  /** The token that started it (`operator` for the operator credential). */
  readonly tokenId: string;
}

function signature(key: Buffer, payload: string): string {
  return createHmac('sha256', key).update(payload).digest('base64url');
}

/** `<remote>.<buildId>.<expiry epoch seconds>.<token id>.<HMAC-SHA256, base64url>`: a cookie value without escaping. */
export function signPreview(operatorToken: string, environment: string, preview: Preview): string {
  const payload = `${preview.remote}.${preview.buildId}.${preview.expiresAt}.${preview.tokenId}`;
  return `${payload}.${signature(previewKey(operatorToken, environment, preview.remote), payload)}`;
}

/**
 * The preview the cookie names if its signature is this environment's and it has not expired; else
 * null (its token is the caller's to check).
 */
export function verifyPreview(
  operatorToken: string,
  environment: string,
  value: string,
  nowSeconds: number,
): Preview | null {
  const match =
    /^([a-z][a-z0-9-]{0,31})\.([0-9a-f]{12})\.([0-9]{1,12})\.([0-9a-f]{24}|operator)\.([A-Za-z0-9_-]{43})$/.exec(value);
  if (!match) return null;
  const [, remote = '', buildId = '', expiry = '', tokenId = '', mac = ''] = match;
  const key = previewKey(operatorToken, environment, remote);
  const expected = Buffer.from(signature(key, `${remote}.${buildId}.${expiry}.${tokenId}`));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  const expiresAt = Number(expiry);
  return expiresAt > nowSeconds ? { remote, buildId, expiresAt, tokenId } : null;
}
