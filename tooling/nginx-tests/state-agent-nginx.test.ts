/**
 * The host's real nginx (deploy/nginx/host.conf.template, run with Debian's nginx) with the state
 * agent (tooling/state-agent) as RELEASE_STATE_UPSTREAM: a page's snapshot comes from the agent,
 * reading a signed state from a folder store, and never from the API, and nginx signs the page's
 * token from that snapshot (page-token-nginx.test.ts); a preview cookie's visitor still asks the API
 * for the snapshot. Without RELEASE_STATE_UPSTREAM, the other nginx tests ask the API for snapshots.
 */
import { type Socket } from 'node:dgram';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectForBucket } from '@special-gift/shared/release-state';
import { parsePageToken } from '@special-gift/shared/telemetry';
import { toPageTemplate } from '../composition/composition';
import { folderReader } from '../composition/release-state-source';
import { startStateAgent, type RunningStateAgent } from '../state-agent/agent';
import { ENVIRONMENT, publishToFolder, releasedState, testSettings } from '../state-agent/test-support';
import { freePort, type RunningNginx, startDnsServer, startHostNginx } from './nginx-under-test';

const INDEX =
  '<!doctype html><html lang=en dir=ltr><head><title>x</title><script defer src=/main.abc.js></script></head><body><div id=root></div></body></html>';
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
    (www) => writeFileSync(join(www, 'page.shtml'), toPageTemplate(INDEX, 1, '/page-loader.1.js')),
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

const page = async (cookie: string) => {
  const body = await (await fetch(`${nginx.url}/sign-up`, { headers: { cookie } })).text();
  return {
    builds: /data-sg-builds="([^"]*)"/.exec(body)?.[1],
    integrity: /data-sg-integrity="([^"]*)"/.exec(body)?.[1],
    token: /data-sg-page-token="([^"]*)"/.exec(body)?.[1],
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

it('keeps composing released pages with the API down', async () => {
  api.closeAllConnections();
  await new Promise((resolve) => api.close(resolve));
  const { builds, token } = await page('sg_bucket=77');
  expect(builds).toBe(selectForBucket(STATE, 77).builds);
  expect(token).not.toBe('');
});
