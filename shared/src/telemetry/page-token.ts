// A page token's wire format (docs/telemetry.md, "Signed page views"): the API issues one per
// composed page, the composer writes it into the page, the page's telemetry batch sends it back.
// Printed and parsed here only; its MAC only the API makes and checks (api/src/telemetry/page-token.ts).
//
// Grammar (ABNF, RFC 5234):
//   page-token = id "." issued-at "." bucket "." sg-builds "." mac
//   id         = 22base64url        ; 11 random (8 bytes), then 11 of the client's network hash
//   issued-at  = 1*12DIGIT          ; epoch seconds
//   bucket     = DIGIT / %x31-39 DIGIT   ; the canary bucket, 0 to 99
//   sg-builds  = <@special-gift/shared/builds>   ; the page's builds, empty when none is released
//   mac        = 43base64url        ; HMAC-SHA256 (32 bytes) over the rest and the API's environment
//   base64url  = ALPHA / DIGIT / "-" / "_"
import { PAGE_BUILDS_SOURCE } from '../builds';

/** What a page token says of its page. */
export interface PageTokenClaims {
  readonly id: string;
  /** Epoch seconds. */
  readonly issuedAt: number;
  readonly bucket: number;
  /** The page's `Sg-Builds` (`intro=<id>,signup=<id>`), empty when no remote is released. */
  readonly builds: string;
}

export const PAGE_TOKEN_PATTERN = new RegExp(
  `^([A-Za-z0-9_-]{22})\\.([0-9]{1,12})\\.([0-9]|[1-9][0-9])\\.(${PAGE_BUILDS_SOURCE})\\.([A-Za-z0-9_-]{43})$`,
);

/** The token for these claims and their MAC; refuses claims the grammar does not allow. */
export function formatPageToken(claims: PageTokenClaims, mac: string): string {
  const token = `${claims.id}.${claims.issuedAt}.${claims.bucket}.${claims.builds}.${mac}`;
  if (!PAGE_TOKEN_PATTERN.test(token)) throw new Error('A page token must follow its grammar (page-token.ts).');
  return token;
}

/** The claims and MAC of a well-formed token; null for anything else. */
export function parsePageToken(token: string): { readonly claims: PageTokenClaims; readonly mac: string } | null {
  const match = PAGE_TOKEN_PATTERN.exec(token);
  if (!match) return null;
  const [, id = '', issuedAt = '', bucket = '', builds = '', mac = ''] = match;
  return { claims: { id, issuedAt: Number(issuedAt), bucket: Number(bucket), builds }, mac };
}
