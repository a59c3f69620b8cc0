// The preview cookie's wire format and its signing: printed and parsed here only.
//
// Grammar (ABNF, RFC 5234):
//   sg-preview = remote "." build-id "." expires-at "." token-id "." mac
//   remote, build-id = <@special-gift/shared/builds>
//   expires-at = 1*12DIGIT                  ; epoch seconds
//   token-id   = 24( DIGIT / %x61-66 ) / "operator"  ; the token that started it, checked live at each snapshot
//   mac        = 43( ALPHA / DIGIT / "-" / "_" )    ; base64url HMAC-SHA256 of all before it, under previewKey
// No character of it needs escaping in a cookie.
import { BUILD_ID_SOURCE, REMOTE_NAME_SOURCE } from '@special-gift/shared/builds';
import { hasValidSignature, hmac, sign } from '../http/signing';

/**
 * The preview cookie's signing key for one remote of one environment, derived from the operator
 * token: every replica computes the same one, nothing more to configure. Per remote, and the cookie
 * names the token that made it (checked live at each snapshot), so revoking one team's token ends
 * only the previews that token started; replacing the operator token ends every preview. Per
 * environment, so a staging preview is nothing to production when both share an operator token
 * (and a browser: the cookie is the host's, whichever API answers).
 */
export function previewKey(operatorToken: string, environment: string, remote: string): Buffer {
  return hmac(operatorToken, `special-gift release preview cookie v3 ${environment} ${remote}`);
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

const PREVIEW_COOKIE_PATTERN = new RegExp(
  `^((${REMOTE_NAME_SOURCE})\\.(${BUILD_ID_SOURCE})\\.([0-9]{1,12})\\.([0-9a-f]{24}|operator))\\.([A-Za-z0-9_-]{43})$`,
);

/** The cookie's value for this preview, signed for this environment. */
export function signPreview(operatorToken: string, environment: string, preview: Preview): string {
  const payload = `${preview.remote}.${preview.buildId}.${preview.expiresAt}.${preview.tokenId}`;
  const value = `${payload}.${sign(previewKey(operatorToken, environment, preview.remote), payload)}`;
  if (!PREVIEW_COOKIE_PATTERN.test(value))
    throw new Error('A preview cookie must follow its grammar (preview-cookie.ts).');
  return value;
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
  const [, payload = '', remote = '', buildId = '', expiry = '', tokenId = '', mac = ''] =
    PREVIEW_COOKIE_PATTERN.exec(value) ?? [];
  if (!payload || !hasValidSignature(previewKey(operatorToken, environment, remote), payload, mac)) return null;
  const expiresAt = Number(expiry);
  return expiresAt > nowSeconds ? { remote, buildId, expiresAt, tokenId } : null;
}
