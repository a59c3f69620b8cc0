/**
 * The host's real nginx (deploy/nginx/host.conf.template, run with Debian's nginx) with the state
 * agent (tooling/state-agent) as RELEASE_STATE_UPSTREAM: a page's snapshot comes from the agent,
 * reading a signed state from a folder store, and never from the API, and nginx signs the page's
 * token for that snapshot's builds (page-token-nginx.test.ts); a preview cookie's visitor still asks
 * the API for the snapshot. Composed pages are kept a second per route, language and bucket, and a
 * release still reaches new pages within 2 s. Without RELEASE_STATE_UPSTREAM, the other nginx tests
 * ask the API for snapshots.
 */
import { type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectForBucket } from '@special-gift/shared/release-state';
import { parsePageToken } from '@special-gift/shared/telemetry';
import { PAGE_TOKEN } from '../composition/composition';
import { folderReader } from '../composition/release-state-source';
import { startStateAgent, type RunningStateAgent } from '../state-agent/agent';
import { ENVIRONMENT, publishToFolder, releasedState, testSettings } from '../state-agent/test-support';
import { freePort, type RunningNginx, startDnsServer, startHostNginx, writePageTemplate } from './nginx-under-test';

const PREVIEW_BUILDS = 'signup=00000000000f';
const STATE = releasedState(4, 10);

let dns: Socket;
let api: Server;
let store: string;
let agent: RunningStateAgent;
let nginx: RunningNginx;
const apiAsked: string[] = [];

beforeAll(async () => {
  dns = await startDnsServer(() => []);
  store = mkdtempSync(join(tmpdir(), 'sg-agent-nginx-'));
  publishToFolder(store, STATE);
  agent = await startStateAgent(testSettings(), folderReader(store));
  const apiPort = await freePort();
  // The API, which only a preview's snapshot should reach.
  api = createServer((req, res) => {
    apiAsked.push(req.url ?? '');
    res.writeHead(200, { 'sg-builds': PREVIEW_BUILDS, 'sg-integrity': '', 'cache-control': 'private, no-store' });
    res.end('{}');
  });
  await new Promise<void>((resolve) => api.listen(apiPort, '127.0.0.1', resolve));
  nginx = await startHostNginx(
    apiPort,
    dns,
    writePageTemplate,
    // As in a pod: the agent on loopback, named by "localhost" (the script names it by address);
    // the host holds the agent's page-token key (testSettings), for the agent's environment.
    {
      RELEASE_STATE_UPSTREAM: agent.url.replace('127.0.0.1', 'localhost'),
      PAGE_TOKEN_KEY: 'p'.repeat(32),
      RELEASE_ENVIRONMENT: ENVIRONMENT,
    },
  );
});

afterAll(async () => {
  nginx?.stop();
  await agent?.stop();
  dns?.close();
  api?.closeAllConnections();
  await new Promise((resolve) => api?.close(resolve));
  rmSync(store, { recursive: true, force: true });
});

beforeEach(() => {
  apiAsked.length = 0;
});

/** A page view: the page, then its collector's request for the token with the page's builds. */
const page = async (cookie: string, path = '/sign-up') => {
  const response = await fetch(`${nginx.url}${path}`, { headers: { cookie } });
  const body = await response.text();
  const builds = /data-sg-builds="([^"]*)"/.exec(body)?.[1];
  const token = await fetch(`${nginx.url}${PAGE_TOKEN.path}`, {
    headers: { cookie, [PAGE_TOKEN.buildsHeader]: builds ?? '' },
  });
  return {
    body,
    cache: response.headers.get('x-cache-status'),
    builds,
    integrity: /data-sg-integrity="([^"]*)"/.exec(body)?.[1],
    token: await token.text(),
  };
};

it("composes each bucket's page from the agent's state, with its hashes and a token of those builds", async () => {
  for (const bucket of [3, 42]) {
    const { builds, integrity, token } = await page(`sg_bucket=${bucket}`);
    expect(builds).toBe(selectForBucket(STATE, bucket).builds);
    expect(integrity).toBe(selectForBucket(STATE, bucket).integrity);
    expect(parsePageToken(token ?? '')?.claims).toMatchObject({ bucket, builds });
  }
  expect(apiAsked).toEqual([]);
});

it("asks the API for a preview cookie's snapshot; its page gets no token (its builds are not the bucket's)", async () => {
  const { builds, token } = await page('sg_bucket=42; sg_preview=anything');
  expect(builds).toBe(PREVIEW_BUILDS);
  expect(token).toBe('');
  expect(apiAsked).toEqual(['/v1/releases/snapshot?bucket=42']);
});

it('keeps a composed page a second per route, language and bucket: one composition, the same bytes', async () => {
  const first = await page('sg_bucket=5; sg_lang=ar');
  const again = await page('sg_bucket=5; sg_lang=ar');
  expect([first.cache, again.cache]).toEqual(['MISS', 'HIT']);
  expect(again.body).toBe(first.body);
  // Another bucket, language or route is a page of its own.
  const other = await page('sg_bucket=3; sg_lang=ar');
  expect([other.cache, other.builds]).toEqual(['MISS', selectForBucket(STATE, 3).builds]);
  const french = await page('sg_bucket=5; sg_lang=fr');
  expect([french.cache, french.body.slice(0, 40)]).toEqual(['MISS', '<!doctype html><html lang="fr" dir="ltr"']);
  const elsewhere = await page('sg_bucket=5; sg_lang=ar', '/elsewhere');
  expect(elsewhere.cache).toBe('MISS');
  expect(elsewhere.body).not.toContain('sg-shell-page');
  // A visitor's other cookies do not make a page of their own; a preview's is never kept.
  const withSession = await page('sg_bucket=5; sg_lang=ar; session=abc');
  expect([withSession.cache, withSession.body]).toEqual(['HIT', first.body]);
  expect((await page('sg_bucket=5; sg_lang=ar; sg_preview=x')).cache).toBe('BYPASS');
  expect((await page('sg_bucket=5; sg_lang=ar; sg_preview=x')).cache).toBe('BYPASS');
  // Composed again once the second it was composed in is over.
  await new Promise((resolve) => setTimeout(resolve, 1_050));
  expect((await page('sg_bucket=5; sg_lang=ar')).cache).toBe('EXPIRED');
});

it('shows a release on new pages within 2 s, through the page cache', async () => {
  const bucket = 'sg_bucket=50';
  expect((await page(bucket)).builds).toBe(selectForBucket(STATE, 50).builds);
  // signup's canary build made live, for every bucket.
  const first = releasedState(5, 10);
  const signup = first.remotes.signup!;
  const next = {
    ...first,
    remotes: {
      ...first.remotes,
      signup: {
        ...signup,
        live: '0000000000c3',
        canary: null,
        canaryPercent: 0,
        integrity: { '0000000000c3': signup.integrity['0000000000c3']! },
      },
    },
  };
  const published = Date.now();
  publishToFolder(store, next);
  let builds: string | undefined;
  while (Date.now() - published < 5_000) {
    builds = (await page(bucket)).builds;
    if (builds === selectForBucket(next, 50).builds) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const elapsed = Date.now() - published;
  expect(builds).not.toBe(selectForBucket(STATE, 50).builds);
  expect(builds).toBe(selectForBucket(next, 50).builds);
  expect(elapsed).toBeLessThan(2_000);
  // The first state back (as serial 6), for the next test: until pages show it again.
  publishToFolder(store, { ...STATE, serial: 6 });
  for (let tries = 0; tries < 100 && (await page(bucket)).builds !== selectForBucket(STATE, 50).builds; tries += 1)
    await new Promise((resolve) => setTimeout(resolve, 50));
});

it('keeps composing released pages with the API down', async () => {
  api.closeAllConnections();
  await new Promise((resolve) => api.close(resolve));
  const { builds, token } = await page('sg_bucket=77');
  expect(builds).toBe(selectForBucket(STATE, 77).builds);
  expect(token).not.toBe('');
});
