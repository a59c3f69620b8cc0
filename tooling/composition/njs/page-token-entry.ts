/**
 * The page token as nginx mints it (docs/telemetry.md, "Signed page views"), with njs: the source of
 * deploy/nginx/njs/page-token.js, which render-njs.ts bundles from this file and shared's page-token.ts
 * (one definition of the token, its network and its MAC for the API, the Node composer and nginx).
 * nginx's location decides who gets none (a preview's page, an address past its limit); this only
 * signs, and an include that fails for any reason is an empty one: the page goes without a token.
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
  return(status: number, body?: string): void;
  headersOut: Record<string, string>;
}

// digest() is a Buffer in njs; as a plain Uint8Array its subarray and indexing behave as shared expects.
const hmac: HmacBytes = (key, data) => new Uint8Array(njsCrypto.createHmac('sha256', key).update(data).digest());

/**
 * js_content of /_sg_page_token: 200 with the token for this page's bucket ($sg_bucket), builds
 * ($sg_builds, from the snapshot the page was composed with) and client ($remote_addr), signed with
 * the first of PAGE_TOKEN_KEY's keys for $sg_page_token_environment; 204 (an empty include) without
 * a key or for anything the token's grammar refuses.
 */
function pageToken(r: NjsRequest): void {
  r.headersOut['Cache-Control'] = 'no-store';
  // Read per page, not when the module loads: nginx's master reads its configuration with the whole
  // environment, its workers have only what the main config's `env` lists.
  const [key] = pageTokenKeys(process.env.PAGE_TOKEN_KEY, undefined, hmac);
  const environment = r.variables.sg_page_token_environment ?? '';
  if (key === undefined || environment === '') return r.return(204);
  let token: string;
  try {
    token = mintPageToken(hmac, key, environment, {
      bucket: Number(r.variables.sg_bucket),
      builds: r.variables.sg_builds ?? '',
      nowSeconds: Math.floor(Date.now() / 1000),
      client: r.variables.remote_addr,
      random8: crypto.getRandomValues(new Uint8Array(8)),
    });
  } catch {
    return r.return(204);
  }
  r.headersOut['Content-Type'] = 'text/plain';
  r.return(200, token);
}

export default { pageToken };
