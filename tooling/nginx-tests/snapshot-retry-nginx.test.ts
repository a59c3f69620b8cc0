/**
 * The host's real nginx asks for a page's snapshot once more when the first try fails with nothing
 * cached (a host just started: a reset connection, a name that did not resolve, an answer past the
 * 300 ms bound), so such a page still gets its released builds and their hashes; two failures in a
 * row, and the page is composed with the remotes' own builds, still a full 200 page.
 * A front between nginx and the state agent fails the first N requests of each bucket it is told to.
 */
import { type Socket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selectForBucket } from '@special-gift/shared/release-state';
import { folderReader } from '../composition/release-state-source';
import { startStateAgent, type RunningStateAgent } from '../state-agent/agent';
import { ENVIRONMENT, publishToFolder, releasedState, testSettings } from '../state-agent/test-support';
import { freePort, type RunningNginx, startDnsServer, startHostNginx, writePageTemplate } from './nginx-under-test';

const STATE = releasedState(4, 10);

type Failure = 'reset' | 'slow';
/** Per bucket: how its next snapshot requests fail, in order; then they pass to the agent. */
const failures = new Map<string, Failure[]>();
const asked: string[] = [];
/** Slow answers not yet sent: cleared at the end, so none outlives the agent. */
const late = new Set<NodeJS.Timeout>();

let dns: Socket;
let api: Server;
let front: Server;
let store: string;
let agent: RunningStateAgent;
let nginx: RunningNginx;

beforeAll(async () => {
  dns = await startDnsServer(() => []);
  store = mkdtempSync(join(tmpdir(), 'sg-snapshot-retry-'));
  publishToFolder(store, STATE);
  agent = await startStateAgent(testSettings(), folderReader(store));
  front = createServer((req, res) => {
    const bucket = new URL(req.url ?? '/', 'http://front').searchParams.get('bucket') ?? '';
    asked.push(bucket);
    const failure = failures.get(bucket)?.shift();
    if (failure === 'reset') return req.socket.destroy();
    const pass = () =>
      fetch(`${agent.url}${req.url ?? '/'}`)
        .then(async (answer) => {
          res.writeHead(answer.status, Object.fromEntries(answer.headers));
          res.end(await answer.text());
        })
        .catch(() => res.destroy());
    // Past nginx's 300 ms bound for a snapshot, then answered (nginx has given up by then).
    if (failure === 'slow') {
      const timer = setTimeout(() => {
        late.delete(timer);
        void pass();
      }, 600);
      late.add(timer);
    } else void pass();
  });
  const frontPort = await freePort();
  await new Promise<void>((resolve) => front.listen(frontPort, '127.0.0.1', resolve));
  const apiPort = await freePort();
  // The API, which no page here should reach (no preview cookie).
  api = createServer((_req, res) => res.writeHead(500).end());
  await new Promise<void>((resolve) => api.listen(apiPort, '127.0.0.1', resolve));
  nginx = await startHostNginx(apiPort, dns, writePageTemplate, {
    RELEASE_STATE_UPSTREAM: `http://127.0.0.1:${frontPort}`,
    RELEASE_ENVIRONMENT: ENVIRONMENT,
  });
});

afterAll(async () => {
  for (const timer of late) clearTimeout(timer);
  nginx?.stop();
  await agent?.stop();
  dns?.close();
  for (const server of [front, api]) {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  rmSync(store, { recursive: true, force: true });
});

beforeEach(() => {
  asked.length = 0;
});

const page = async (bucket: number) => {
  const response = await fetch(`${nginx.url}/sign-up`, { headers: { cookie: `sg_bucket=${bucket}` } });
  const body = await response.text();
  return {
    status: response.status,
    builds: /data-sg-builds="([^"]*)"/.exec(body)?.[1],
    integrity: /data-sg-integrity="([^"]*)"/.exec(body)?.[1],
  };
};

it.each<[string, number, Failure]>([
  ['a reset connection', 3, 'reset'],
  ['an answer past the bound', 42, 'slow'],
])('asks once more after %s, and the first page of its bucket has its release', async (_what, bucket, failure) => {
  failures.set(String(bucket), [failure]);
  const { builds, integrity, status } = await page(bucket);
  expect(status).toBe(200);
  expect(builds).toBe(selectForBucket(STATE, bucket).builds);
  expect(integrity).toBe(selectForBucket(STATE, bucket).integrity);
  expect(asked).toEqual([String(bucket), String(bucket)]);
});

it('composes with the remotes’ own builds after two failures in a row, still a whole page', async () => {
  failures.set('77', ['reset', 'reset']);
  const { builds, integrity, status } = await page(77);
  expect(status).toBe(200);
  expect(builds).toBe('');
  expect(integrity).toBe('');
  expect(asked).toEqual(['77', '77']);
  // The next page asks again (nothing was cached) and gets the release.
  expect((await page(77)).builds).toBe(selectForBucket(STATE, 77).builds);
});
