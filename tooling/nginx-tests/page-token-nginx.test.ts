/**
 * The page token's include with the host's real nginx (deploy/nginx/host.conf.template, rendered
 * as the image renders it, run with Debian's nginx) in front of a stand-in API: every composed page
 * asks the API once, uncached, with its bucket, its snapshot's builds and the visitor's address, and
 * prints the token after the first screen's markup; an API that is slow, refuses or is down leaves
 * the page without a token, served in full and within the bound.
 */
import { type Socket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { COMPOSED_PAGE_CACHE_CONTROL, PAGE_TOKEN, toPageTemplate } from '../composition/composition';
import { freePort, type RunningNginx, startDnsServer, startHostNginx } from './nginx-under-test';

const INDEX =
  '<!doctype html><html lang=en dir=ltr><head><title>x</title><script defer src=/main.abc.js></script></head><body><div id=root></div></body></html>';
const BUILDS = 'signup=0123456789ab';
const TOKEN = `${'A'.repeat(22)}.1764000000.7.${BUILDS}.${'m'.repeat(43)}`;

let dns: Socket;
let api: Server;
let nginx: RunningNginx;
let behindProxy: RunningNginx;

/** The host's nginx in front of the stand-in API, its environment plus `more`. */
const hostNginx = (apiPort: number, more: Record<string, string> = {}) =>
  startHostNginx(
    apiPort,
    dns,
    (www) => writeFileSync(join(www, 'page.shtml'), toPageTemplate(INDEX, 1, '/page-loader.1.js')),
    more,
  );
/** How the stand-in API answers the token: at once, never, or with an error status. */
let tokenAnswer: 'token' | 'hang' | number = 'token';
/** What the stand-in's refusals carry: quotes and markup, as an error's JSON would. */
const HOSTILE_BODY = '{"error":{"code":"x"}}"><script>alert(1)</script>';
const asked: Array<{ url: string; headers: IncomingHttpHeaders }> = [];

beforeAll(async () => {
  dns = await startDnsServer(() => []);
  const apiPort = await freePort();
  api = createServer((req, res) => {
    if (req.url?.startsWith('/v1/releases/snapshot')) {
      res.writeHead(200, { 'sg-builds': BUILDS, 'sg-integrity': '', 'cache-control': 'public, max-age=1' });
      return void res.end('{}');
    }
    if (req.url?.startsWith(PAGE_TOKEN.path)) {
      asked.push({ url: req.url, headers: req.headers });
      if (tokenAnswer === 'hang') return; // never answers
      if (typeof tokenAnswer === 'number')
        return void res
          .writeHead(tokenAnswer, { 'content-type': 'application/json', location: '/x' })
          .end(HOSTILE_BODY);
      return void res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end(TOKEN);
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => api.listen(apiPort, '127.0.0.1', resolve));
  nginx = await hostNginx(apiPort);
  // The same host behind a proxy it trusts (an Ingress controller on loopback here).
  behindProxy = await hostNginx(apiPort, { REAL_IP_FROM: '127.0.0.1,::1' });
});

afterAll(async () => {
  nginx?.stop();
  behindProxy?.stop();
  dns?.close();
  api?.closeAllConnections();
  await new Promise((resolve) => api?.close(resolve));
});

const page = async (
  cookie?: string,
  { via = nginx, headers = {} }: { via?: RunningNginx; headers?: Record<string, string> } = {},
) => {
  const started = Date.now();
  const response = await fetch(`${via.url}/sign-up`, { headers: { ...(cookie ? { cookie } : {}), ...headers } });
  const body = await response.text();
  return {
    status: response.status,
    body,
    ms: Date.now() - started,
    setCookie: response.headers.get('set-cookie'),
    cacheControl: response.headers.get('cache-control'),
  };
};
const tokenIn = (body: string) => /<div hidden data-sg-page-token="([^"]*)"><\/div><\/body>/.exec(body)?.[1];

beforeEach(() => {
  asked.length = 0;
  tokenAnswer = 'token';
});

it("asks the API for each page's token, uncached, with its bucket, builds and the visitor's address", async () => {
  const first = await page('sg_bucket=7; sg_lang=fr');
  const second = await page('sg_bucket=7; sg_lang=fr');
  expect([first.status, second.status]).toEqual([200, 200]);
  expect([tokenIn(first.body), tokenIn(second.body)]).toEqual([TOKEN, TOKEN]);
  // A page with a single-use token: never from a shared cache.
  expect(first.cacheControl).toBe(COMPOSED_PAGE_CACHE_CONTROL);
  expect(COMPOSED_PAGE_CACHE_CONTROL).toBe('private, no-cache');
  expect(first.body).toContain(`data-sg-builds="${BUILDS}"`);
  expect(asked.map(({ url }) => url)).toEqual([`${PAGE_TOKEN.path}?bucket=7`, `${PAGE_TOKEN.path}?bucket=7`]);
  expect(asked[0]?.headers).toMatchObject({ 'sg-builds': BUILDS, 'x-forwarded-for': '127.0.0.1' });
  // The visitor's cookies stay with nginx.
  expect(asked[0]?.headers.cookie).toBeUndefined();
});

it('names the visitor behind a trusted proxy (REAL_IP_FROM), and only there believes X-Forwarded-For', async () => {
  const spoofed = { 'x-forwarded-for': '198.51.100.9, 203.0.113.9' };
  expect(tokenIn((await page('sg_bucket=7', { via: behindProxy, headers: spoofed })).body)).toBe(TOKEN);
  // The proxy's own last hop: the client it saw (what the client prepended is not believed).
  expect(asked[0]?.headers['x-forwarded-for']).toBe('203.0.113.9');
  // Without REAL_IP_FROM, a client's X-Forwarded-For names nobody: the peer is the client.
  await page('sg_bucket=7', { headers: spoofed });
  expect(asked[1]?.headers['x-forwarded-for']).toBe('127.0.0.1');
});

it('asks with the bucket a first visit is given', async () => {
  const { setCookie, body } = await page();
  const given = /sg_bucket=([0-9]+)/.exec(setCookie ?? '')?.[1];
  expect(given).toBeDefined();
  expect(asked.map(({ url }) => url)).toEqual([`${PAGE_TOKEN.path}?bucket=${given}`]);
  expect(tokenIn(body)).toBe(TOKEN);
});

// Every status but 200 (a redirect, one nginx's list never named, a 2xx without a token): its body
// must never reach the attribute, or it would break out of it.
it.each(['hang', 204, 301, 304, 409, 413, 414, 422, 429, 431, 501, 503, 599] as const)(
  'serves the whole page without a token when the API answers %s',
  async (mode) => {
    tokenAnswer = mode;
    const { status, body, ms } = await page('sg_bucket=7');
    expect(status).toBe(200);
    expect(tokenIn(body)).toBe('');
    expect(body).not.toContain('alert(1)');
    expect(body).not.toContain('"error"');
    expect(body).toMatch(/<div id="root">.*<\/html>$/s);
    expect(asked).toHaveLength(1);
    // Within the bound (and nginx's timer granularity), never the API's own 30 s.
    expect(ms).toBeLessThan(PAGE_TOKEN.timeoutMs + 250);
  },
);

it('serves the page without a token when the API is down', async () => {
  api.closeAllConnections();
  await new Promise((resolve) => api.close(resolve));
  const { status, body } = await page('sg_bucket=7');
  expect(status).toBe(200);
  expect(tokenIn(body)).toBe('');
  expect(body).toMatch(/<\/html>$/);
});
