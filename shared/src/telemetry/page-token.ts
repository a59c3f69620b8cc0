// A page token's wire format (docs/telemetry.md, "Signed page views"): the composer signs one per
// composed page and writes it into it, the page's telemetry batch sends it back, the API checks it
// (api/src/telemetry/page-token.ts). Printed, parsed, and what its MAC covers: here only. The HMAC
// itself is the holder's (node:crypto in the API and the Node composer, njs in nginx).
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

/** HMAC-SHA256 of `data` under `key`: its 32 bytes. The holder's own (this module imports none). */
export type HmacBytes = (key: Uint8Array, data: string) => Uint8Array;

/**
 * The page-token keys, as the API and every composer read them: `PAGE_TOKEN_KEY` when set (during a
 * rotation two, comma-separated: the first signs, both verify), else one derived from the operator
 * token (all derive the same, nothing more to configure); neither: page tokens are off.
 */
export function pageTokenKeys(
  configured: string | undefined,
  operatorToken: string | undefined,
  hmac: HmacBytes,
): Uint8Array[] {
  const encode = (text: string) => new TextEncoder().encode(text);
  if (configured)
    return configured
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean)
      .map(encode);
  if (operatorToken) return [hmac(encode(operatorToken), 'special-gift page token key v1')];
  return [];
}

/** What the MAC covers: the claims and the environment (a staging page's token means nothing in production). */
export const pageTokenPayload = (environment: string, claims: PageTokenClaims) =>
  `pt1|${environment}|${claims.id}|${claims.issuedAt}|${claims.bucket}|${claims.builds}`;

/**
 * The network a client address is in: its /24 (IPv4, and IPv4 mapped in IPv6) or its /56 (IPv6,
 * what one household or small site gets), printed as `a.b.c.0/24` or RFC 5952's `2001:db8:ab:1200::/56`.
 * One address is cheap to change, a network less so. Anything else is `unknown`.
 */
export function networkOf(address: string | undefined): string {
  if (!address) return 'unknown';
  const v4 = IPV4.exec(address) ?? MAPPED_IPV4.exec(address);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  const groups = ipv6Groups(address);
  if (!groups) return 'unknown';
  const [first = 0, second = 0, third = 0, fourth = 0] = groups;
  const prefix = [first, second, third, fourth & 0xff00, 0, 0, 0, 0];
  return `${formatIpv6(prefix)}/56`;
}

const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IPV4 = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);
const MAPPED_IPV4 = new RegExp(`^::ffff:${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`, 'i');

/** An IPv6 address's eight 16-bit groups (a zone or an embedded IPv4 tail allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  let text = address.replace(/%.*$/, '');
  const tail = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const v4 = IPV4.exec(tail[2] ?? '');
    if (!v4) return null;
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${tail[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const part = (half: string | undefined) => (half ? half.split(':') : []);
  const head = part(halves[0]);
  const rest = part(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return null;
  return all.map((group) => parseInt(group, 16));
}

/** RFC 5952: lower-case, no leading zeros, the longest run of two or more zero groups as `::` (the first if tied). */
function formatIpv6(groups: readonly number[]): string {
  let best = { start: -1, length: 1 };
  for (let start = 0; start < groups.length;) {
    let end = start;
    while (end < groups.length && groups[end] === 0) end += 1;
    if (end - start > best.length) best = { start, length: end - start };
    start = end === start ? start + 1 : end;
  }
  const text = groups.map((group) => group.toString(16));
  if (best.start < 0) return text.join(':');
  return `${text.slice(0, best.start).join(':')}::${text.slice(best.start + best.length).join(':')}`;
}

/**
 * The network as a token's id carries it and the store keeps it: 8 bytes of an HMAC under the
 * token key, base64url (11 characters). Never the address: without the key it says nothing of it.
 */
export const networkHash = (hmac: HmacBytes, key: Uint8Array, address: string | undefined) =>
  base64url(hmac(key, `pt-net1|${networkOf(address)}`).subarray(0, 8));

/** A token for a page composed now, signed under `key`: its id 8 random bytes, then the visitor's network hash. */
export function mintPageToken(
  hmac: HmacBytes,
  key: Uint8Array,
  environment: string,
  page: { bucket: number; builds: string; nowSeconds: number; client: string | undefined; random8: Uint8Array },
): string {
  if (page.random8.length !== 8) throw new Error('A page token id takes 8 random bytes.');
  const claims: PageTokenClaims = {
    id: base64url(page.random8) + networkHash(hmac, key, page.client),
    issuedAt: page.nowSeconds,
    bucket: page.bucket,
    builds: page.builds,
  };
  return formatPageToken(claims, base64url(hmac(key, pageTokenPayload(environment, claims))));
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Bytes as base64url without padding (as Node's `toString('base64url')`). */
export function base64url(bytes: Uint8Array): string {
  let text = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[index], bytes[index + 1], bytes[index + 2]];
    const chunk = (a << 16) | (b << 8) | c;
    const chars = Math.min(4, Math.ceil(((bytes.length - index) * 8) / 6));
    for (let position = 0; position < chars; position += 1) text += BASE64URL[(chunk >> (18 - 6 * position)) & 63];
  }
  return text;
}
