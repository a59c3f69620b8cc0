/**
 * The page token as nginx mints it (docs/telemetry.md, "Signed page views"), with njs: the source of
 * deploy/nginx/njs/page-token.js, which render-njs.ts bundles from this file and shared's page-token.ts
 * (one definition of the token, its network and its MAC for the API, the Node composer and nginx).
 * nginx's location decides who gets none (a preview's page, an address past its limit); this checks
 * the page's builds and signs. Without a token, the page's batch is unsigned.
 */
import { mintPageToken, pageTokenKeys, type HmacBytes } from '../../../shared/src/telemetry/page-token';

/** njs's `crypto` module (render-njs.ts imports it under this name: the global `crypto` is WebCrypto). */
declare const njsCrypto: {
  createHmac(
    algorithm: 'sha256',
    key: Uint8Array,
  ): {
    update(data: string): { digest(): Uint8Array };
  };
};

/** What this handler uses of njs's request object. */
interface NjsRequest {
  readonly variables: Readonly<Record<string, string | undefined>>;
  readonly headersIn: Readonly<Record<string, string | undefined>>;
  return(status: number, body?: string): void;
  headersOut: Record<string, string | undefined>;
  subrequest(uri: string, options: { method: 'GET' }, done: (reply: NjsRequest & { status: number }) => void): void;
}

/** The location that asks the visitor's snapshot afresh (host.conf.template), its cache the fallback. */
const FRESH_SNAPSHOT = '/_sg_snapshot_fresh';

// digest() is a Buffer in njs; as a plain Uint8Array its subarray and indexing behave as shared expects.
const hmac: HmacBytes = (key, data) => new Uint8Array(njsCrypto.createHmac('sha256', key).update(data).digest());

/** A 204 without a token, and why, as the API says it (`Sg-Page-Token-Refused`). */
function refuse(r: NjsRequest, reason: string): void {
  r.headersOut['Sg-Page-Token-Refused'] = reason;
  r.return(204);
}

/**
 * js_content of /_sg_page_token, which a page's collector asks: 200 with the token for the
 * visitor's bucket ($sg_bucket), the page's builds (its `Sg-Builds`) and client ($remote_addr),
 * signed with the first of PAGE_TOKEN_KEY's keys for $sg_page_token_environment, if those builds are
 * what that bucket gets now; else a 204 that says why. "Now" is the location's cached snapshot
 * ($sg_builds), else, when that differs (a release in its last second), the snapshot asked afresh.
 */
function pageToken(r: NjsRequest): void {
  r.headersOut['Cache-Control'] = 'no-store';
  const builds = r.headersIn['Sg-Builds'] ?? '';
  if (builds === (r.variables.sg_builds ?? '')) return sign(r, builds);
  r.subrequest(FRESH_SNAPSHOT, { method: 'GET' }, (reply) => {
    // A page composed before a release (or for another bucket) names builds no longer served here.
    if (reply.status !== 200 || (reply.headersOut['Sg-Builds'] ?? '') !== builds) return refuse(r, 'builds_not_served');
    sign(r, builds);
  });
}

function sign(r: NjsRequest, builds: string): void {
  // Read per page, not when the module loads: nginx's master reads its configuration with the whole
  // environment, its workers have only what the main config's `env` lists.
  const [key] = pageTokenKeys(process.env.PAGE_TOKEN_KEY, undefined, hmac);
  const environment = r.variables.sg_page_token_environment ?? '';
  if (key === undefined || environment === '') return refuse(r, 'page_tokens_off');
  let token: string;
  try {
    token = mintPageToken(hmac, key, environment, {
      bucket: Number(r.variables.sg_bucket),
      builds,
      nowSeconds: Math.floor(Date.now() / 1000),
      client: r.variables.remote_addr,
      random8: crypto.getRandomValues(new Uint8Array(8)),
    });
  } catch {
    return refuse(r, 'bad_builds');
  }
  r.headersOut['Content-Type'] = 'text/plain';
  r.return(200, token);
}

export default { pageToken };
