import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { ipKeyGenerator } from 'express-rate-limit';
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
  /**
   * 22 characters: 11 random (8 bytes), then the client's network hash (`networkHash`, 11). The
   * network rides in the id so the token keeps its shape (PAGE_TOKEN_PATTERN) and the MAC covers it.
   */
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

/**
 * The network a client address is in: its /24 (IPv4, and IPv4 mapped in IPv6) or its /56 (IPv6,
 * what one household or small site gets). One address is cheap to change, a network less so.
 */
export function networkOf(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const plain = ipKeyGenerator(address, 56);
  return isIPv4(plain) ? `${plain.split('.').slice(0, 3).join('.')}.0/24` : plain;
}

/**
 * The client's network as stored and put in its tokens: 8 bytes of an HMAC under the token key,
 * base64url (11 characters). Never the address: without the key, the hash says nothing of it.
 */
export const networkHash = (key: Buffer, address: string | undefined) =>
  createHmac('sha256', key)
    .update(`pt-net1|${networkOf(address)}`)
    .digest()
    .subarray(0, 8)
    .toString('base64url');

const networkOfId = (id: string) => id.slice(11);

const mac = (key: Buffer, environment: string, claims: PageTokenClaims) =>
  createHmac('sha256', key)
    .update(`pt1|${environment}|${claims.id}|${claims.issuedAt}|${claims.bucket}|${claims.builds}`)
    .digest('base64url');

export function signPageToken(key: Buffer, environment: string, claims: PageTokenClaims): string {
  return `${claims.id}.${claims.issuedAt}.${claims.bucket}.${claims.builds}.${mac(key, environment, claims)}`;
}

/** A new token for a page composed now with these builds and bucket, for a visitor at `client`. */
export function issuePageToken(
  key: Buffer,
  environment: string,
  { bucket, builds, now, client }: { bucket: number; builds: string; now: number; client: string | undefined },
): string {
  const id = randomBytes(8).toString('base64url') + networkHash(key, client);
  return signPageToken(key, environment, { id, issuedAt: now, bucket, builds });
}

/** What a batch's token proves, before its one use is checked against the database. */
export type PageTokenCheck =
  | { readonly provenance: 'signed'; readonly id: string; readonly expiresAt: number; readonly network: string }
  | { readonly provenance: Exclude<Provenance, 'signed' | 'replayed'> };

/**
 * Checks a batch's token: signature, age, that the batch names the token's builds (a remote the
 * token does not list ran its image build) and comes from the network the token was issued to
 * (`client`: the sender's address, as the API's trusted proxies give it). The id's first use is the
 * store's to check.
 */
export function checkPageToken(
  key: Buffer | null,
  environment: string,
  batch: TelemetryBatch,
  nowSeconds: number,
  client: string | undefined,
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
  // Tokens fetched on many networks and spent from one (or the reverse) sign nothing.
  const network = networkHash(key, client);
  if (networkOfId(id) !== network) return { provenance: 'mismatched' };
  return { provenance: 'signed', id, expiresAt, network };
}
