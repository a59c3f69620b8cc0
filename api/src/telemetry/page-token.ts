import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  IMAGE_BUILD_ID,
  PAGE_TOKEN_PATTERN,
  type Provenance,
  type TelemetryBatch,
} from '@special-gift/shared/telemetry';

/**
 * A page token (docs/telemetry.md, "Signed page views"): the composer asks for one per composed
 * page and writes it into the page; the page's batch sends it back. It says which builds (per
 * remote) and which canary bucket the page was composed with, when, and a unique id, under an
 * HMAC-SHA256 only the API can make, over the API's environment too (a staging page's token
 * means nothing in production).
 */
export interface PageTokenClaims {
  readonly id: string;
  /** Epoch seconds. */
  readonly issuedAt: number;
  readonly bucket: number;
  /** The page's `Sg-Builds`: `intro=<id>,signup=<id>`, empty when no remote is released. */
  readonly builds: string;
}

/**
 * 30 minutes. The batch is sent when the page is first hidden: a sign-up takes a few minutes, so
 * nearly every real page view is well inside it. A longer life would let a script stockpile tokens
 * (page fetches) over hours and spend them at once; 30 minutes bounds a stock to 30 minutes of the
 * per-address issue limit. A page open longer still sends its batch: it is kept for the report as
 * `expired`, not counted by the verdict.
 */
export const PAGE_TOKEN_LIFETIME_SECONDS = 30 * 60;
/** Replicas' clocks differ a little: a token "issued" further in the future than this is forged. */
const CLOCK_SKEW_SECONDS = 60;

/**
 * The signing key: `PAGE_TOKEN_KEY` when set, else derived from the operator token (every replica
 * derives the same one, nothing more to configure); neither: page tokens are off.
 */
export function pageTokenKey(configured: string | undefined, operatorToken: string | undefined): Buffer | null {
  if (configured) return Buffer.from(configured);
  if (operatorToken) return createHmac('sha256', operatorToken).update('special-gift page token key v1').digest();
  return null;
}

const mac = (key: Buffer, environment: string, claims: PageTokenClaims) =>
  createHmac('sha256', key)
    .update(`pt1|${environment}|${claims.id}|${claims.issuedAt}|${claims.bucket}|${claims.builds}`)
    .digest('base64url');

export function signPageToken(key: Buffer, environment: string, claims: PageTokenClaims): string {
  return `${claims.id}.${claims.issuedAt}.${claims.bucket}.${claims.builds}.${mac(key, environment, claims)}`;
}

/** A new token for a page composed now with these builds and bucket. */
export function issuePageToken(
  key: Buffer,
  environment: string,
  { bucket, builds, now }: { bucket: number; builds: string; now: number },
): string {
  return signPageToken(key, environment, { id: randomBytes(16).toString('base64url'), issuedAt: now, bucket, builds });
}

/** What a batch's token proves, before its one use is checked against the database. */
export type PageTokenCheck =
  | { readonly provenance: 'signed'; readonly id: string; readonly expiresAt: number }
  | { readonly provenance: Exclude<Provenance, 'signed' | 'replayed'> };

/**
 * Checks a batch's token: signature, age, and that the batch names the token's builds (a remote
 * the token does not list ran its image build). The id's first use is the store's to check.
 */
export function checkPageToken(
  key: Buffer | null,
  environment: string,
  batch: TelemetryBatch,
  nowSeconds: number,
): PageTokenCheck {
  if (batch.token === undefined || key === null) return { provenance: 'unsigned' };
  const [, id = '', issued = '', bucket = '', builds = '', given = ''] = PAGE_TOKEN_PATTERN.exec(batch.token) ?? [];
  const claims = { id, issuedAt: Number(issued), bucket: Number(bucket), builds };
  const expected = Buffer.from(mac(key, environment, claims));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return { provenance: 'forged' };
  if (claims.issuedAt > nowSeconds + CLOCK_SKEW_SECONDS) return { provenance: 'forged' };
  const expiresAt = claims.issuedAt + PAGE_TOKEN_LIFETIME_SECONDS;
  if (expiresAt <= nowSeconds) return { provenance: 'expired' };
  const tokenBuilds = new Map(
    builds === '' ? [] : builds.split(',').map((pair) => pair.split('=') as [string, string]),
  );
  for (const [remote, build] of Object.entries(batch.builds))
    if ((tokenBuilds.get(remote) ?? IMAGE_BUILD_ID) !== build) return { provenance: 'mismatched' };
  return { provenance: 'signed', id, expiresAt };
}
