import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { selectForBucket } from '@special-gift/shared/release-state';
import { pageTokenPayload, parsePageToken } from '@special-gift/shared/telemetry';
import { httpReader } from '../composition/release-state-source';
import type { RunningStateAgent } from './agent';
import { readStateAgentSettings } from './settings';
import { agentPerTest, ENVIRONMENT, publishToFolder, releasedState, startHttpStore, STATE_KEY } from './test-support';

const agents = agentPerTest();
let agent: RunningStateAgent | undefined;
beforeEach(() => {
  agent = undefined;
});

const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });
const snapshot = (bucket: string | number) => get(`${agent!.url}/v1/releases/snapshot?bucket=${bucket}`);
const token = (bucket: number, builds: string, client = '198.51.100.4') =>
  get(`${agent!.url}/v1/telemetry/page-token?bucket=${bucket}`, { 'sg-builds': builds, 'x-forwarded-for': client });
const health = async () => (await get(`${agent!.url}/health`)).json() as Promise<Record<string, unknown>>;
const waitFor = async (check: () => Promise<boolean>) => {
  for (let i = 0; i < 50; i += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('not in time');
};

describe('the state agent’s snapshot', () => {
  it('answers each bucket with the builds and integrity the state selects, the canary below its share', async () => {
    const state = releasedState(3, 10);
    publishToFolder(agents.folder(), state);
    agent = await agents.start();
    for (const bucket of [0, 9, 10, 99]) {
      const answer = await snapshot(bucket);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('sg-builds')).toBe(selectForBucket(state, bucket).builds);
      expect(answer.headers.get('sg-integrity')).toBe(selectForBucket(state, bucket).integrity);
      expect(answer.headers.get('cache-control')).toBe('public, max-age=1');
    }
    expect((await snapshot(9)).headers.get('sg-builds')).toBe('intro=0000000000b2,signup=0000000000c3');
    expect((await snapshot(10)).headers.get('sg-builds')).toBe('intro=0000000000b2,signup=0000000000a1');
    expect(await (await snapshot(0)).json()).toEqual({
      environment: ENVIRONMENT,
      builds: { intro: '0000000000b2', signup: '0000000000c3' },
      integrity: selectForBucket(state, 0).integrity,
    });
  });

  it('answers 204 when nothing is released, and the API’s error for a bad bucket', async () => {
    agent = await agents.start();
    expect((await snapshot(5)).status).toBe(204);
    const bad = await snapshot('100');
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({
      error: { code: 'invalid_release_request', message: '`bucket` must be an integer from 0 to 99.' },
    });
    expect(await health()).toMatchObject({ status: 'ready', serial: null, problem: null });
  });

  it('refuses a tampered current.json, keeps the last good state and says so in /health', async () => {
    publishToFolder(agents.folder(), releasedState(3));
    agent = await agents.start();
    const good = (await snapshot(50)).headers.get('sg-builds');
    // A newer state moving signup to its canary, its current.json altered after signing.
    publishToFolder(agents.folder(), releasedState(4, 100), STATE_KEY, (current) => ({
      ...current,
      publishedAt: '2026-12-01T11:00:00.000Z',
    }));
    await waitFor(async () => (await health()).problem !== null);
    expect(await health()).toMatchObject({ serial: 3, problem: expect.stringContaining('signature') });
    expect((await snapshot(50)).headers.get('sg-builds')).toBe(good);
    // Signed by a key the host does not trust: refused too.
    publishToFolder(agents.folder(), releasedState(6), { id: 'evil', secret: 'not-a-key-the-host-trusts-0123456789' });
    await waitFor(async () => String((await health()).problem).includes('evil'));
    expect((await snapshot(50)).headers.get('sg-builds')).toBe(good);
  });

  it('reads an HTTP store; while it is down keeps serving the last good state, then takes the next', async () => {
    const store = await startHttpStore(agents.folder());
    try {
      publishToFolder(agents.folder(), releasedState(1));
      agent = await agents.start({}, httpReader(store.url));
      expect((await snapshot(0)).headers.get('sg-builds')).toBe('intro=0000000000b2,signup=0000000000a1');
      store.setDown(true);
      await waitFor(async () => (await health()).problem !== null);
      expect(await health()).toMatchObject({ serial: 1, problem: 'HTTP 503 for _state/production/current.json' });
      expect((await snapshot(0)).headers.get('sg-builds')).toBe('intro=0000000000b2,signup=0000000000a1');
      publishToFolder(agents.folder(), releasedState(2, 50));
      store.setDown(false);
      await waitFor(async () => (await health()).serial === 2);
      expect((await snapshot(0)).headers.get('sg-builds')).toBe('intro=0000000000b2,signup=0000000000c3');
      expect((await health()).problem).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('answers 503 (nginx then keeps its stale copy) when the store was never read', async () => {
    const store = await startHttpStore(agents.folder());
    store.setDown(true);
    try {
      agent = await agents.start({}, httpReader(store.url));
      expect((await snapshot(0)).status).toBe(503);
      expect((await get(`${agent.url}/ready`)).status).toBe(200);
    } finally {
      await store.close();
    }
  });
});

describe('the state agent’s kept state (RELEASE_STATE_CACHE_FILE)', () => {
  it('serves the last accepted state after a restart while the store is down, checked again; a changed file is refused', async () => {
    const store = await startHttpStore(agents.folder());
    const keptStateFile = path.join(agents.folder(), 'kept.json');
    try {
      publishToFolder(agents.folder(), releasedState(2, 50));
      agent = await agents.start({ keptStateFile }, httpReader(store.url));
      await agent.stop();
      store.setDown(true);
      agent = await agents.start({ keptStateFile }, httpReader(store.url));
      expect((await snapshot(0)).headers.get('sg-builds')).toBe('intro=0000000000b2,signup=0000000000c3');
      expect(await health()).toMatchObject({
        serial: 2,
        problem: expect.stringMatching(
          new RegExp(`^HTTP 503 for _state/production/.*\\(serving the state kept in ${keptStateFile}\\)$`),
        ),
      });
      // The store back: its state again, the problem gone.
      store.setDown(false);
      await waitFor(async () => (await health()).problem === null);
      await agent.stop();
      // A kept state changed by anyone but the API: its SHA-256 no longer matches; nothing served.
      writeFileSync(keptStateFile, readFileSync(keptStateFile, 'utf8').replaceAll('0000000000c3', '0000000000e5'));
      store.setDown(true);
      agent = await agents.start({ keptStateFile }, httpReader(store.url));
      expect((await snapshot(0)).status).toBe(503);
      expect(String((await health()).problem)).toContain('SHA-256');
    } finally {
      await store.close();
    }
  });
});

describe('the state agent’s page tokens', () => {
  const KEY = 'p'.repeat(32);
  const mac = (key: string, value: string) => {
    const parsed = parsePageToken(value);
    return createHmac('sha256', key).update(pageTokenPayload(ENVIRONMENT, parsed!.claims)).digest('base64url');
  };

  it('signs a token for the builds the bucket is served, bound to them; refuses others with 204', async () => {
    publishToFolder(agents.folder(), releasedState(3, 10));
    agent = await agents.start();
    const builds = 'intro=0000000000b2,signup=0000000000c3';
    const answer = await token(5, builds);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const value = await answer.text();
    expect(parsePageToken(value)?.claims).toMatchObject({ bucket: 5, builds });
    expect(parsePageToken(value)?.mac).toBe(mac(KEY, value));
    for (const [bucket, sent, reason] of [
      [50, builds, 'builds_not_served'],
      [5, 'nonsense', 'bad_builds'],
      [100, builds, 'bad_bucket'],
    ] as const) {
      const refused = await token(bucket, sent);
      expect([refused.status, refused.headers.get('sg-page-token-refused'), await refused.text()]).toEqual([
        204,
        reason,
        '',
      ]);
    }
  });

  it('limits tokens per address and minute (then 204), and gives none when tokens are off', async () => {
    agent = await agents.start({ pageTokensPerMinute: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await token(1, '')).status);
    expect(statuses).toEqual([200, 200, 204]);
    expect((await token(1, '', '203.0.113.9')).status).toBe(200);
    await agent.stop();
    agent = await agents.start({ pageTokenKeys: [] });
    expect((await token(1, '')).status).toBe(204);
  });
});

describe('the state agent’s settings', () => {
  const base = { RELEASE_STATE_BASE_URL: 'http://s3:4568/sg-builds/builds', OPERATOR_TOKEN: 'o'.repeat(43) };

  it('derives the keys from the operator token as the API does, or takes them given', () => {
    const derived = readStateAgentSettings(base);
    expect(derived.stateKeys).toHaveLength(1);
    expect(derived.pageTokenKeys).toHaveLength(1);
    expect(derived).toMatchObject({ environment: 'production', port: 3010, listenHost: '127.0.0.1', refreshMs: 250 });
    const given = readStateAgentSettings({
      ...base,
      RELEASE_STATE_KEYS: `k1:${'a'.repeat(32)},k0:${'b'.repeat(32)}`,
      PAGE_TOKEN_KEY: `${'n'.repeat(32)},${'o'.repeat(32)}`,
    });
    expect(given.stateKeys.map((key) => key.id)).toEqual(['k1', 'k0']);
    expect(given.pageTokenKeys).toHaveLength(2);
  });

  it.each([
    [{ RELEASE_STATE_BASE_URL: 's3://sg-builds' }, /RELEASE_STATE_BASE_URL/],
    [{ OPERATOR_TOKEN: '' }, /RELEASE_STATE_KEYS/],
    [{ RELEASE_ENVIRONMENT: 'Prod!' }, /RELEASE_ENVIRONMENT/],
    [{ PAGE_TOKEN_KEY: 'short' }, /PAGE_TOKEN_KEY/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ PAGE_TOKENS_PER_MINUTE: '-1' }, /PAGE_TOKENS_PER_MINUTE/],
    [{ RELEASE_STATE_CACHE_FILE: 'relative.json' }, /RELEASE_STATE_CACHE_FILE/],
  ])('refuses %p', (change, message) => {
    expect(() => readStateAgentSettings({ ...base, ...change })).toThrow(message);
  });
});
