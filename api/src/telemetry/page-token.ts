import { randomBytes } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { ipKeyGenerator } from 'express-rate-limit';
import { parsePageBuilds } from '@special-gift/shared/builds';
import {
  formatPageToken,
  IMAGE_BUILD_ID,
  parsePageToken,
  type PageTokenClaims,
  type Provenance,
  type TelemetryBatch,
} from '@special-gift/shared/telemetry';
import { hasValidSignature, hmac, sign } from '../http/signing';

/*
 * A page token (docs/telemetry.md, "Signed page views"; its wire format, parsed and printed:
 * @special-gift/shared/telemetry's page-token.ts): the composer asks for one per composed page and
 * writes it into the page; the page's batch sends it back. It says which builds (per remote) and
 * which canary bucket the page was composed with, when, and a unique id, under an HMAC-SHA256 only
 * the API can make, over the API's environment too (a staging page's token means nothing in
 * production). Its id is 11 random characters (8 bytes), then the client's network hash
 * (`networkHash`, 11): the network rides in the id so the MAC covers it.
 */

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
  if (operatorToken) return hmac(operatorToken, 'special-gift page token key v1');
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
  hmac(key, `pt-net1|${networkOf(address)}`)
    .subarray(0, 8)
    .toString('base64url');

const networkOfId = (id: string) => id.slice(11);

/** What the MAC covers: the claims and the API's environment. */
const signed = (environment: string, claims: PageTokenClaims) =>
  `pt1|${environment}|${claims.id}|${claims.issuedAt}|${claims.bucket}|${claims.builds}`;

export function signPageToken(key: Buffer, environment: string, claims: PageTokenClaims): string {
  return formatPageToken(claims, sign(key, signed(environment, claims)));
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
  const token = parsePageToken(batch.token);
  if (!token || !hasValidSignature(key, signed(environment, token.claims), token.mac)) return { provenance: 'forged' };
  const { claims } = token;
  if (claims.issuedAt > nowSeconds + CLOCK_SKEW_SECONDS) return { provenance: 'forged' };
  const expiresAt = claims.issuedAt + PAGE_TOKEN_LIFETIME_SECONDS;
  if (expiresAt <= nowSeconds) return { provenance: 'expired' };
  const tokenBuilds = parsePageBuilds(claims.builds);
  for (const [remote, build] of Object.entries(batch.builds))
    if ((Object.hasOwn(tokenBuilds, remote) ? tokenBuilds[remote] : IMAGE_BUILD_ID) !== build)
      return { provenance: 'mismatched' };
  // Tokens fetched on many networks and spent from one (or the reverse) sign nothing.
  const network = networkHash(key, client);
  if (networkOfId(claims.id) !== network) return { provenance: 'mismatched' };
  return { provenance: 'signed', id: claims.id, expiresAt, network };
}
