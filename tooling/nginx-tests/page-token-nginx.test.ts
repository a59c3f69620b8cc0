/**
 * The page token with the host's real nginx (deploy/nginx/host.conf.template, rendered as the image
 * renders it, run with Debian's nginx and its njs): every page view asks /_sg_page_token, as its
 * collector does, and gets a token nginx mints itself (deploy/nginx/njs/page-token.js) for its
 * bucket, the builds that bucket gets now and the visitor's network, which the API's own check
 * accepts; no request leaves nginx for it. None (a 204 that says why) for a preview's page, builds
 * the bucket no longer gets, past an address's allowance, or without a key.
 */
import { type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import { PAGE_TOKEN_PATTERN, parsePageToken, type TelemetryBatch } from '@special-gift/shared/telemetry';
import { checkPageToken, pageTokenKeys } from '../../api/src/telemetry/page-token';
import { COMPOSED_PAGE_CACHE_CONTROL, PAGE_TOKEN } from '../composition/composition';
import { freePort, type RunningNginx, startDnsServer, startHostNginx, writePageTemplate } from './nginx-under-test';

const BUILDS = 'signup=0123456789ab';
const KEY = 'k'.repeat(32);
const NEXT_KEY = 'n'.repeat(32);
const ENVIRONMENT = 'staging';
/** The allowance of the host that tests it (the others' is the default, 60, which no test reaches). */
const PER_MINUTE = 3;

let dns: Socket;
let api: Server;
let nginx: RunningNginx;
let behindProxy: RunningNginx;
let limited: RunningNginx;
let unlimited: RunningNginx;
let keyless: RunningNginx;
let rotating: RunningNginx;
/** What reached the stand-in API other than the snapshot: nothing, for a token. */
const apiAsked: string[] = [];

/** The host's nginx in front of the stand-in API, with the key and environment, plus `more`. */
const hostNginx = (apiPort: number, more: Record<string, string> = {}) =>
  startHostNginx(apiPort, dns, writePageTemplate, { PAGE_TOKEN_KEY: KEY, RELEASE_ENVIRONMENT: ENVIRONMENT, ...more });

beforeAll(async () => {
  dns = await startDnsServer(() => []);
  const apiPort = await freePort();
  api = createServer((req, res) => {
    if (req.url?.startsWith('/v1/releases/snapshot')) {
      res.writeHead(200, { 'sg-builds': BUILDS, 'sg-integrity': '', 'cache-control': 'public, max-age=1' });
      return void res.end('{}');
    }
    apiAsked.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => api.listen(apiPort, '127.0.0.1', resolve));
  [nginx, behindProxy, limited, unlimited, keyless, rotating] = await Promise.all([
    hostNginx(apiPort),
    // The same host behind a proxy it trusts (an Ingress controller on loopback here).
    hostNginx(apiPort, { REAL_IP_FROM: '127.0.0.1,::1' }),
    hostNginx(apiPort, { PAGE_TOKENS_PER_MINUTE: String(PER_MINUTE) }),
    hostNginx(apiPort, { PAGE_TOKENS_PER_MINUTE: '0' }),
    hostNginx(apiPort, { PAGE_TOKEN_KEY: '' }),
    // During a rotation: the new key first (it signs), the old one still verifying.
    hostNginx(apiPort, { PAGE_TOKEN_KEY: `${NEXT_KEY},${KEY}` }),
  ]);
});

afterAll(async () => {
  for (const running of [nginx, behindProxy, limited, unlimited, keyless, rotating]) running?.stop();
  dns?.close();
  api?.closeAllConnections();
  await new Promise((resolve) => api?.close(resolve));
});

beforeEach(() => {
  apiAsked.length = 0;
});

/**
 * A page view as a browser makes it: the page, then its collector's request for the token, with the
 * page's builds (`<html data-sg-builds>`, else `builds`) and the cookies, the bucket a first visit
 * was given included.
 */
const page = async (
  cookie?: string,
  { via = nginx, headers = {}, builds }: { via?: RunningNginx; headers?: Record<string, string>; builds?: string } = {},
) => {
  const response = await fetch(`${via.url}/sign-up`, { headers: { ...(cookie ? { cookie } : {}), ...headers } });
  const body = await response.text();
  const setCookie = response.headers.get('set-cookie');
  const cookies = [cookie, setCookie?.split(';')[0]].filter(Boolean).join('; ');
  const pageBuilds = builds ?? /data-sg-builds="([^"]*)"/.exec(body)?.[1] ?? '';
  const started = Date.now();
  const answer = await fetch(`${via.url}${PAGE_TOKEN.path}`, {
    headers: { ...headers, ...(cookies ? { cookie: cookies } : {}), [PAGE_TOKEN.buildsHeader]: pageBuilds },
  });
  const token = await answer.text();
  return {
    status: response.status,
    body,
    token,
    tokenStatus: answer.status,
    tokenMs: Date.now() - started,
    refused: answer.headers.get(PAGE_TOKEN.refusedHeader),
    tokenCacheControl: answer.headers.get('cache-control'),
    setCookie,
    cacheControl: response.headers.get('cache-control'),
  };
};

/** The API's verdict on a batch of this page's builds carrying `token`, sent from `client`. */
const apiCheck = (token: string | undefined, client: string, keys = KEY, environment = ENVIRONMENT) => {
  const batch: TelemetryBatch = {
    v: 1,
    route: 'signup',
    device: 'desktop',
    builds: { signup: '0123456789ab' },
    events: [],
    token,
  };
  return checkPageToken(pageTokenKeys(keys, undefined), environment, batch, Math.floor(Date.now() / 1000), client)
    .provenance;
};

it("signs each page's token in nginx, for its bucket and builds, as the API checks them", async () => {
  const first = await page('sg_bucket=7; sg_lang=fr');
  const second = await page('sg_bucket=7; sg_lang=fr');
  expect([first.status, second.status]).toEqual([200, 200]);
  expect(first.token).toMatch(PAGE_TOKEN_PATTERN);
  expect(parsePageToken(first.token ?? '')?.claims).toMatchObject({ bucket: 7, builds: BUILDS });
  expect(first.body).toContain(`data-sg-builds="${BUILDS}"`);
  expect(apiCheck(first.token, '127.0.0.1')).toBe('signed');
  // Its network is the client's /24; another environment's API, or another key, calls it forged.
  expect(apiCheck(first.token, '127.0.0.200')).toBe('signed');
  expect(apiCheck(first.token, '10.0.0.1')).toBe('mismatched');
  expect(apiCheck(first.token, '127.0.0.1', KEY, 'production')).toBe('forged');
  expect(apiCheck(first.token, '127.0.0.1', NEXT_KEY)).toBe('forged');
  // One id per page view (its 8 random bytes), and nobody asked for either token.
  expect(parsePageToken(second.token ?? '')?.claims.id).not.toBe(parsePageToken(first.token ?? '')?.claims.id);
  expect(apiAsked).toEqual([]);
  // The page names its bucket's builds: never from a shared cache; its token, from no cache at all.
  expect(first.cacheControl).toBe(COMPOSED_PAGE_CACHE_CONTROL);
  expect(first.tokenCacheControl).toBe('no-store');
});

it('keeps the token out of the page: two views of one bucket and language get the same bytes', async () => {
  const first = await page('sg_bucket=7; sg_lang=fr');
  const second = await page('sg_bucket=7; sg_lang=fr');
  expect(second.body).toBe(first.body);
  expect(first.body).not.toContain(first.token);
});

it('signs no token for builds the bucket does not get now (a page from before a release)', async () => {
  for (const builds of ['signup=ba9876543210', '', 'a"><script>']) {
    const { tokenStatus, token, refused } = await page('sg_bucket=7', { builds });
    expect([tokenStatus, token, refused]).toEqual([204, '', 'builds_not_served']);
  }
});

it('signs a first visit with the bucket its Set-Cookie gives it', async () => {
  const { setCookie, token } = await page();
  const given = /sg_bucket=([0-9]+)/.exec(setCookie ?? '')?.[1];
  expect(given).toBeDefined();
  expect(parsePageToken(token ?? '')?.claims.bucket).toBe(Number(given));
  expect(apiCheck(token, '127.0.0.1')).toBe('signed');
});

it("gives a preview cookie's page no token (its builds are not its bucket's)", async () => {
  const { status, token, refused, body } = await page('sg_bucket=7; sg_preview=anything');
  expect(status).toBe(200);
  expect([token, refused]).toEqual(['', 'preview']);
  expect(body).toMatch(/<div id="root">.*<\/html>$/s);
});

it(`gives one address ${PER_MINUTE} tokens a minute, then serves its pages in full without one`, async () => {
  // A preview's pages first: refused before the limit, they spend none of it.
  for (let count = 0; count < PER_MINUTE; count += 1)
    expect((await page('sg_bucket=7; sg_preview=x', { via: limited })).token).toBe('');
  const pages = [];
  for (let count = 0; count <= PER_MINUTE; count += 1) pages.push(await page('sg_bucket=7', { via: limited }));
  expect(pages.map(({ status }) => status)).toEqual(Array<number>(PER_MINUTE + 1).fill(200));
  expect(pages.slice(0, PER_MINUTE).map(({ token }) => apiCheck(token, '127.0.0.1'))).toEqual(
    Array<string>(PER_MINUTE).fill('signed'),
  );
  const past = pages[PER_MINUTE];
  expect([past?.tokenStatus, past?.token, past?.refused]).toEqual([204, '', 'rate_limited']);
  expect(past?.body).toMatch(/<div id="root">.*<\/html>$/s);
});

it('gives one address a token for every page with PAGE_TOKENS_PER_MINUTE=0 (no limit, as the API)', async () => {
  const tokens = [];
  for (let count = 0; count < 70; count += 1) tokens.push((await page('sg_bucket=7', { via: unlimited })).token);
  expect(tokens.filter((token) => apiCheck(token, '127.0.0.1') === 'signed')).toHaveLength(70);
  expect(new Set(tokens).size).toBe(70);
});

it('signs no page without a key (tokens off), and still serves it', async () => {
  const { status, token, refused, body } = await page('sg_bucket=7', { via: keyless });
  expect(status).toBe(200);
  expect([token, refused]).toEqual(['', 'page_tokens_off']);
  expect(body).toMatch(/<div id="root">.*<\/html>$/s);
});

it('signs with the first of two keys during a rotation; an API holding both accepts it', async () => {
  const { token } = await page('sg_bucket=7', { via: rotating });
  expect(apiCheck(token, '127.0.0.1', NEXT_KEY)).toBe('signed');
  expect(apiCheck(token, '127.0.0.1', `${NEXT_KEY},${KEY}`)).toBe('signed');
  expect(apiCheck(token, '127.0.0.1', KEY)).toBe('forged');
});

it.each([
  ['an IPv4 address', '203.0.113.9', '203.0.113.77'],
  ['an IPv4 address mapped in IPv6', '::ffff:198.51.100.7', '198.51.100.8'],
  ['an IPv6 address', '2001:db8:ab:1234::1', '2001:db8:ab:12ff::9'],
])(
  'signs for the network of the visitor behind a trusted proxy (REAL_IP_FROM): %s',
  async (_, forwarded, sameNetwork) => {
    // What the client prepended is not believed; the proxy's own last hop names the client.
    const headers = { 'x-forwarded-for': `192.0.2.1, ${forwarded}` };
    const { token } = await page('sg_bucket=7', { via: behindProxy, headers });
    expect(apiCheck(token, forwarded)).toBe('signed');
    expect(apiCheck(token, sameNetwork)).toBe('signed');
    expect(apiCheck(token, '127.0.0.1')).toBe('mismatched');
    expect(apiCheck(token, '192.0.2.1')).toBe('mismatched');
  },
);

it("believes no client's X-Forwarded-For without REAL_IP_FROM: the peer is the client", async () => {
  const { token } = await page('sg_bucket=7', { headers: { 'x-forwarded-for': '203.0.113.9' } });
  expect(apiCheck(token, '127.0.0.1')).toBe('signed');
  expect(apiCheck(token, '203.0.113.9')).toBe('mismatched');
});

it('answers at once, with no upstream to wait for', async () => {
  const { token, tokenMs } = await page('sg_bucket=7');
  expect(token).toMatch(PAGE_TOKEN_PATTERN);
  // The old hop's bound; a local answer is far under it (timer granularity aside).
  expect(tokenMs).toBeLessThan(PAGE_TOKEN.timeoutMs + 250);
});

it('answers only GET', async () => {
  const answer = await fetch(`${nginx.url}${PAGE_TOKEN.path}`, { method: 'POST', body: 'x' });
  expect(answer.status).toBe(403);
});

it('keeps signing pages with the API down (only the snapshot was ever asked of it)', async () => {
  api.closeAllConnections();
  await new Promise((resolve) => api.close(resolve));
  const { status, token, body } = await page('sg_bucket=7');
  expect(status).toBe(200);
  expect(token).toMatch(PAGE_TOKEN_PATTERN);
  expect(body).toMatch(/<\/html>$/);
});
