import { randomBytes } from 'node:crypto';
import { parsePageBuilds } from '@special-gift/shared/builds';
import {
  formatPageToken,
  IMAGE_BUILD_ID,
  mintPageToken,
  networkHash as networkHashUnder,
  pageTokenKeys as sharedPageTokenKeys,
  pageTokenPayload,
  parsePageToken,
  type HmacBytes,
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

const hmacBytes: HmacBytes = (key, data) => hmac(Buffer.from(key), data);

/** The keys (shared's `pageTokenKeys`): the first signs, all verify; none: page tokens are off. */
export const pageTokenKeys = (configured: string | undefined, operatorToken: string | undefined): Buffer[] =>
  sharedPageTokenKeys(configured, operatorToken, hmacBytes).map((key) => Buffer.from(key));

/** The client's network as stored and put in its tokens (shared's `networkHash`, under this key). */
export const networkHash = (key: Buffer, address: string | undefined) => networkHashUnder(hmacBytes, key, address);

const networkOfId = (id: string) => id.slice(11);

export function signPageToken(key: Buffer, environment: string, claims: PageTokenClaims): string {
  return formatPageToken(claims, sign(key, pageTokenPayload(environment, claims)));
}

/** A new token for a page composed now with these builds and bucket, for a visitor at `client`. */
export function issuePageToken(
  key: Buffer,
  environment: string,
  { bucket, builds, now, client }: { bucket: number; builds: string; now: number; client: string | undefined },
): string {
  return mintPageToken(hmacBytes, key, environment, {
    bucket,
    builds,
    nowSeconds: now,
    client,
    random8: randomBytes(8),
  });
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
  keys: readonly Buffer[],
  environment: string,
  batch: TelemetryBatch,
  nowSeconds: number,
  client: string | undefined,
): PageTokenCheck {
  if (batch.token === undefined || keys.length === 0) return { provenance: 'unsigned' };
  const token = parsePageToken(batch.token);
  if (!token) return { provenance: 'forged' };
  const payload = pageTokenPayload(environment, token.claims);
  const key = keys.find((candidate) => hasValidSignature(candidate, payload, token.mac));
  if (!key) return { provenance: 'forged' };
  const { claims } = token;
  if (claims.issuedAt > nowSeconds + CLOCK_SKEW_SECONDS) return { provenance: 'forged' };
  const expiresAt = claims.issuedAt + PAGE_TOKEN_LIFETIME_SECONDS;
  if (expiresAt <= nowSeconds) return { provenance: 'expired' };
  const tokenBuilds = parsePageBuilds(claims.builds);
  for (const [remote, build] of Object.entries(batch.builds))
    if ((Object.hasOwn(tokenBuilds, remote) ? tokenBuilds[remote] : IMAGE_BUILD_ID) !== build)
      return { provenance: 'mismatched' };
  // Tokens fetched on many networks and spent from one (or the reverse) sign nothing. The network
  // is hashed under the key that signed: during a rotation a token keeps its own.
  const network = networkHash(key, client);
  if (networkOfId(claims.id) !== network) return { provenance: 'mismatched' };
  return { provenance: 'signed', id: claims.id, expiresAt, network };
}
