import { formatPageBuilds } from '@special-gift/shared/builds';
import type { AddressInfo } from 'node:net';
import { createTestDatabase, testEngines, type TestDatabase } from '../../test/support/test-databases';
import { startTestServer, type TestServer } from '../../test/support/test-server';
import type * as NativePglite from '../../test/support/native-pglite';
import { createApp } from '../app';
import type { Database } from '../db/database';
import { openDatabase } from '../db/open-database';
import { createApiServer } from '../http/protocol-errors';
import { applyAction, previousLiveBuild } from './action-store';
import { purgeBuilds, registerBuild } from './build-registry';
import { signPreview, verifyPreview } from './preview-cookie';
import { POINTER_MEMO_MS, servedForBucket } from './snapshot';

const CHANGE = { actor: { tokenId: 'operator', tokenName: 't', channel: 'cli' }, environment: 'production' } as const;

const buildsForBucket = (rows: Parameters<typeof servedForBucket>[0], bucket: number) =>
  servedForBucket(rows, bucket).builds;

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);

jest.setTimeout(60_000);

const TOKEN = 'test-operator-token-0123456789abcdef';
const AUTH = { authorization: `Bearer ${TOKEN}` };
let nextBuild = 1;
const freshBuildId = () => (0x100000000000 + nextBuild++).toString(16);
const sri = (letter: string) => `sha384-${letter.repeat(64)}`;
const INTEGRITY = { 'remoteEntry.js': sri('E'), '1.js': sri('C'), 'assets/i18n/fr.json': sri('T') };

describe('the snapshot rules', () => {
  it('serves the canary to buckets below its percentage, the live build to the rest', () => {
    const rows = [
      {
        remote: 'signup',
        live: 'aaaaaaaaaaaa',
        canary: 'bbbbbbbbbbbb',
        canaryPercent: 20,
        liveIntegrity: { 'remoteEntry.js': 'live' },
        canaryIntegrity: { 'remoteEntry.js': 'canary' },
      },
      {
        remote: 'intro',
        live: 'cccccccccccc',
        canary: null,
        canaryPercent: 0,
        liveIntegrity: null,
        canaryIntegrity: null,
      },
    ];
    expect(buildsForBucket(rows, 0)).toEqual({ intro: 'cccccccccccc', signup: 'bbbbbbbbbbbb' });
    expect(buildsForBucket(rows, 19).signup).toBe('bbbbbbbbbbbb');
    expect(buildsForBucket(rows, 20).signup).toBe('aaaaaaaaaaaa');
    expect(buildsForBucket(rows, 99).signup).toBe('aaaaaaaaaaaa');
    expect(formatPageBuilds(buildsForBucket(rows, 0))).toBe('intro=cccccccccccc,signup=bbbbbbbbbbbb');
    expect(formatPageBuilds({})).toBe('');
    // The hashes are always the served build's.
    expect(servedForBucket(rows, 19).integrity.signup).toEqual({ 'remoteEntry.js': 'canary' });
    expect(servedForBucket(rows, 20).integrity.signup).toEqual({ 'remoteEntry.js': 'live' });
    expect(servedForBucket(rows, 0).integrity.intro).toBeNull();
  });

  it('rolls back along the releases, not back and forth between two', () => {
    const servable = () => true;
    const history = [
      { action: 'release', buildId: 'a' },
      { action: 'release', buildId: 'b' },
      { action: 'canary', buildId: 'c' },
      { action: 'promote', buildId: 'c' },
    ] as const;
    expect(previousLiveBuild(history, 'c', servable)).toBe('b');
    const once = [...history, { action: 'rollback', buildId: 'b' }] as const;
    expect(previousLiveBuild(once, 'b', servable)).toBe('a');
    const twice = [...once, { action: 'rollback', buildId: 'a' }] as const;
    expect(previousLiveBuild(twice, 'a', servable)).toBeNull();
    expect(previousLiveBuild(history, 'c', (id) => id !== 'b')).toBe('a');
  });
});

describe.each(testEngines())('releases on %s', (engine) => {
  let server: TestServer;
  let now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    server = await startTestServer({ engine, operatorToken: TOKEN, releaseNow: () => now });
  });
  afterAll(async () => {
    await server?.close();
  });

  const url = (path: string) => `${server.baseUrl}/v1/releases${path}`;
  const post = (path: string, body: unknown, headers: Record<string, string> = AUTH) =>
    fetch(url(path), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const publish = async (remote: string, buildId = freshBuildId(), contractMajor = 1) => {
    const response = await post('/builds', {
      remote,
      buildId,
      contractMajor,
      files: 12,
      bytes: 3456,
      actor: 'ada',
      integrity: INTEGRITY,
    });
    expect(response.status).toBe(201);
    return buildId;
  };
  const state = async (remote: string) => {
    const response = await fetch(url(`/remotes/${remote}`), { headers: AUTH });
    expect(response.status).toBe(200);
    return (await response.json()) as {
      pointer: { live: string; canary: string | null; canaryPercent: number; revision: number } | null;
      revision: number;
      builds: Array<{ buildId: string; purgedAt: string | null }>;
      history: Array<{ revision: number; action: string; buildId: string | null; previousLive: string | null }>;
    };
  };
  const act = async (remote: string, body: Record<string, unknown>) => {
    const expectedRevision = (await state(remote)).revision;
    return post(`/remotes/${remote}/actions`, { expectedRevision, actor: 'ada', reason: 'test', ...body });
  };
  const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;
  const snapshot = async (query = '', headers: Record<string, string> = {}) => {
    // Past the in-process memo of another test's write.
    await new Promise((resolve) => setTimeout(resolve, POINTER_MEMO_MS + 10));
    const response = await fetch(url(`/snapshot${query}`), { headers });
    return { response, body: (await response.json()) as { environment: string; builds: Record<string, string> } };
  };

  it('publishes a build once: 201, then 200 for the same one, 409 for the same id with other metadata', async () => {
    const buildId = freshBuildId();
    const body = {
      remote: 'intro',
      buildId,
      contractMajor: 1,
      files: 3,
      bytes: 100,
      actor: 'ada',
      integrity: INTEGRITY,
    };
    expect((await post('/builds', body)).status).toBe(201);
    expect((await post('/builds', body)).status).toBe(200);
    const different = await post('/builds', { ...body, files: 4 });
    expect(different.status).toBe(409);
    expect(await errorCode(different)).toBe('build_conflict');
    // The same id with other hashes is another claim on the id, not the same build.
    const otherHashes = await post('/builds', { ...body, integrity: { ...INTEGRITY, '1.js': sri('D') } });
    expect(otherHashes.status).toBe(409);
  });

  it('records a build\'s footprint (entry, first screen, shared versions); an older publisher\'s is "not recorded", filled in later without an audit entry', async () => {
    const footprint = {
      entryBytes: 22_856,
      firstScreenBytes: 41_000,
      sharedVersions: { react: '19.3.1', '@special-gift/shared': '1.0.0', 'react/jsx-runtime': '19.3.1' },
    };
    const body = { remote: 'intro', contractMajor: 1, files: 3, bytes: 100, integrity: INTEGRITY };
    const withIt = freshBuildId();
    expect((await post('/builds', { ...body, buildId: withIt, ...footprint })).status).toBe(201);
    const without = freshBuildId();
    expect((await post('/builds', { ...body, buildId: without })).status).toBe(201);
    const builds = async () => (await state('intro')).builds as Array<{ buildId: string } & Record<string, unknown>>;
    expect((await builds()).find((build) => build.buildId === withIt)).toMatchObject({
      ...footprint,
      // Stored in name order, whatever order they came in.
      sharedVersions: { '@special-gift/shared': '1.0.0', react: '19.3.1', 'react/jsx-runtime': '19.3.1' },
    });
    expect((await builds()).find((build) => build.buildId === without)).toMatchObject({
      entryBytes: null,
      firstScreenBytes: null,
      sharedVersions: null,
    });
    // Publishing the same build again with a publisher that reads it records it: a record, not a change.
    const audited = async () =>
      (await server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_trail WHERE action = 'publish'"))
        .rows[0]?.n;
    const before = await audited();
    expect((await post('/builds', { ...body, buildId: without, ...footprint })).status).toBe(200);
    expect((await builds()).find((build) => build.buildId === without)).toMatchObject({ entryBytes: 22_856 });
    expect(await audited()).toBe(before);
    // Bad footprints are refused with 422, never stored.
    for (const bad of [
      { entryBytes: -1 },
      { firstScreenBytes: 1.5 },
      { sharedVersions: ['react'] },
      { sharedVersions: { 'React Dom': '1' } },
      { sharedVersions: { react: 19 } },
      { sharedVersions: { react: 'x'.repeat(65) } },
    ]) {
      const refused = await post('/builds', { ...body, buildId: freshBuildId(), ...bad });
      expect(`${JSON.stringify(bad)}: ${refused.status} ${await errorCode(refused)}`).toBe(
        `${JSON.stringify(bad)}: 422 invalid_release_request`,
      );
    }
  });

  it("carries the entry's and the texts' hashes of the builds a page gets, the canary's to its buckets", async () => {
    const remote = 'integrity-check';
    const register = async (integrity: Record<string, string>) => {
      const buildId = freshBuildId();
      const body = { remote, buildId, contractMajor: 1, files: 3, bytes: 100, actor: 'ada', integrity };
      expect((await post('/builds', body)).status).toBe(201);
      return buildId;
    };
    const live = await register(INTEGRITY);
    const canary = await register({ ...INTEGRITY, 'remoteEntry.js': sri('F') });
    expect((await act(remote, { action: 'release', buildId: live })).status).toBe(200);
    expect((await act(remote, { action: 'canary', buildId: canary, percent: 10 })).status).toBe(200);
    const header = async (bucket: number) =>
      ((await snapshot(`?bucket=${bucket}`)).response.headers.get('sg-integrity') ?? '')
        .split(',')
        .filter((pair) => pair.startsWith(`${remote}/`));
    // Only what the host loads by URL itself: the chunks' hashes travel inside remoteEntry.js.
    expect(await header(50)).toEqual([
      `${remote}/assets/i18n/fr.json=${sri('T')}`,
      `${remote}/remoteEntry.js=${sri('E')}`,
    ]);
    expect(await header(5)).toContain(`${remote}/remoteEntry.js=${sri('F')}`);
  });

  it('refuses bad input with 422, a missing or wrong token with 401, never a 5xx', async () => {
    const ok = { remote: 'intro', buildId: freshBuildId(), contractMajor: 1, files: 1, bytes: 1, actor: 'a' };
    const bad = [
      // Fail closed: no hashes, no entry's hash, a malformed one, a path out of the build.
      ok,
      { ...ok, integrity: { '1.js': sri('C') } },
      { ...ok, integrity: { 'remoteEntry.js': 'sha256-abc' } },
      { ...ok, integrity: { 'remoteEntry.js': sri('E'), '../x.js': sri('C') } },
      { ...ok, integrity: ['remoteEntry.js'] },
      { remote: 'Intro', buildId: freshBuildId(), contractMajor: 1, files: 1, bytes: 1, actor: 'a' },
      { remote: 'intro', buildId: 'xyz', contractMajor: 1, files: 1, bytes: 1, actor: 'a' },
      { remote: 'intro', buildId: freshBuildId(), contractMajor: -1, files: 1, bytes: 1, actor: 'a' },
      { remote: 'intro', buildId: freshBuildId(), contractMajor: 1, files: 0, bytes: 1, actor: 'a' },
    ];
    for (const body of bad) expect((await post('/builds', body)).status).toBe(422);
    expect((await post('/remotes/intro/actions', { action: 'fly', expectedRevision: 0, actor: 'a' })).status).toBe(422);
    expect(
      (
        await post('/remotes/intro/actions', {
          action: 'canary',
          buildId: freshBuildId(),
          expectedRevision: 0,
          actor: 'a',
        })
      ).status,
    ).toBe(422);
    expect((await post('/remotes/intro/purge', { buildIds: [] })).status).toBe(422);
    expect((await post('/builds', [1, 2])).status).toBe(400);
    const anonymous = await post('/builds', {}, {});
    expect(anonymous.status).toBe(401);
    expect(await errorCode(anonymous)).toBe('unauthorized');
    expect((await post('/builds', {}, { authorization: `Bearer ${TOKEN}x` })).status).toBe(401);
    expect((await fetch(url('/remotes/intro'))).status).toBe(401);
  });

  it('releases, canaries by bucket, promotes, rolls back and detaches, keeping the history', async () => {
    const remote = 'thankyou';
    const [first, second, third] = [await publish(remote), await publish(remote), await publish(remote)];
    expect((await act(remote, { action: 'release', buildId: first })).status).toBe(200);
    const canary = await act(remote, { action: 'canary', buildId: second, percent: 20 });
    expect(canary.status).toBe(200);
    expect((await canary.json()) as unknown).toMatchObject({
      pointer: { live: first, canary: second, canaryPercent: 20, revision: 2 },
      revision: 2,
    });

    const inCanary = await snapshot('?bucket=19');
    expect(inCanary.body.builds[remote]).toBe(second);
    expect(inCanary.response.headers.get('cache-control')).toBe('public, max-age=1');
    expect(inCanary.response.headers.get('sg-builds')).toContain(`${remote}=${second}`);
    expect((await snapshot('?bucket=20')).body.builds[remote]).toBe(first);
    expect((await snapshot('', { cookie: 'sg_bucket=5' })).body.builds[remote]).toBe(second);
    expect((await snapshot('', { cookie: 'sg_bucket=50' })).body.builds[remote]).toBe(first);
    // No bucket at all: not in any canary.
    expect((await snapshot()).body.builds[remote]).toBe(first);
    expect((await snapshot('', { cookie: 'sg_bucket=nonsense' })).body.builds[remote]).toBe(first);
    expect((await snapshot('?bucket=100')).response.status).toBe(422);

    expect((await act(remote, { action: 'promote' })).status).toBe(200);
    expect((await state(remote)).pointer).toMatchObject({ live: second, canary: null, canaryPercent: 0 });
    expect((await act(remote, { action: 'release', buildId: third })).status).toBe(200);
    expect((await act(remote, { action: 'rollback' })).status).toBe(200);
    expect((await state(remote)).pointer?.live).toBe(second);
    expect((await act(remote, { action: 'rollback' })).status).toBe(200);
    expect((await state(remote)).pointer?.live).toBe(first);
    expect((await act(remote, { action: 'rollback', buildId: third })).status).toBe(200);
    expect((await state(remote)).pointer?.live).toBe(third);

    expect((await act(remote, { action: 'detach' })).status).toBe(200);
    const detached = await state(remote);
    expect(detached.pointer).toBeNull();
    expect(detached.revision).toBe(8);
    expect(detached.history.map((entry) => entry.action)).toEqual([
      'detach',
      'rollback',
      'rollback',
      'rollback',
      'release',
      'promote',
      'canary',
      'release',
    ]);
    expect((await snapshot()).body.builds[remote]).toBeUndefined();
    // The revision continues after a detach.
    expect((await act(remote, { action: 'release', buildId: first })).status).toBe(200);
    expect((await state(remote)).pointer?.revision).toBe(9);
  });

  it('refuses what cannot be done, each with its own code and message', async () => {
    const remote = 'refusals';
    const published = await publish(remote);
    const expectRefusal = async (body: Record<string, unknown>, status: number, code: string, message: RegExp) => {
      const response = await act(remote, body);
      expect(response.status).toBe(status);
      const error = ((await response.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe(code);
      expect(error.message).toMatch(message);
    };
    await expectRefusal({ action: 'release', buildId: freshBuildId() }, 404, 'unknown_build', /not published/);
    await expectRefusal({ action: 'canary', buildId: published, percent: 10 }, 409, 'release_refused', /no live build/);
    await expectRefusal({ action: 'promote' }, 409, 'release_refused', /no canary to promote/);
    await expectRefusal({ action: 'abort' }, 409, 'release_refused', /no canary to abort/);
    await expectRefusal({ action: 'rollback' }, 409, 'release_refused', /no live build to roll back/);
    await expectRefusal({ action: 'detach' }, 409, 'release_refused', /no pointer/);
    expect((await act(remote, { action: 'release', buildId: published })).status).toBe(200);
    await expectRefusal({ action: 'rollback' }, 409, 'release_refused', /no previous live build/);
    await expectRefusal({ action: 'canary', buildId: published, percent: 10 }, 409, 'release_refused', /already live/);
    const stale = await post(`/remotes/${remote}/actions`, { action: 'detach', expectedRevision: 0, actor: 'a' });
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as { error: { message: string } }).error.message).toMatch(/revision 1, not 0/);

    // Purge: never a build in use; a purged build can no longer be released.
    const old = await publish(remote);
    const inUse = await post(`/remotes/${remote}/purge`, { buildIds: [published, old] });
    expect(inUse.status).toBe(409);
    expect(((await inUse.json()) as { error: { message: string } }).error.message).toContain(published);
    expect((await post(`/remotes/${remote}/purge`, { buildIds: [freshBuildId()] })).status).toBe(404);
    const purged = await post(`/remotes/${remote}/purge`, { buildIds: [old] });
    expect(purged.status).toBe(200);
    await expectRefusal({ action: 'release', buildId: old }, 404, 'unknown_build', /purged/);
    expect((await state(remote)).builds.find((build) => build.buildId === old)?.purgedAt).not.toBeNull();
  });

  it('of two actions on the same revision exactly one wins, the other is a 409', async () => {
    const remote = 'race';
    const [a, b] = [await publish(remote), await publish(remote)];
    const responses = await Promise.all([
      post(`/remotes/${remote}/actions`, { action: 'release', buildId: a, expectedRevision: 0, actor: 'x' }),
      post(`/remotes/${remote}/actions`, { action: 'release', buildId: b, expectedRevision: 0, actor: 'y' }),
    ]);
    expect(responses.map((response) => response.status).sort()).toEqual([200, 409]);
    const loser = responses.find((response) => response.status === 409);
    expect(await errorCode(loser ?? responses[0]!)).toBe('release_conflict');
    expect((await state(remote)).history).toHaveLength(1);
  });

  it('a preview cookie overrides one remote, only when signed by us, unexpired, and of a servable build', async () => {
    const remote = 'previewed';
    const [live, candidate] = [await publish(remote), await publish(remote)];
    expect((await act(remote, { action: 'release', buildId: live })).status).toBe(200);

    const started = await post('/preview', { remote, buildId: candidate });
    expect(started.status).toBe(200);
    const setCookie = started.headers.getSetCookie().find((cookie) => cookie.startsWith('sg_preview='));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Max-Age=28800/);
    expect(setCookie).toMatch(/Path=\//);
    const cookie = setCookie?.split(';')[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^sg_preview=${remote}\\.${candidate}\\.[0-9]+\\.operator\\.[A-Za-z0-9_-]{43}$`));

    const previewed = await snapshot('', { cookie });
    expect(previewed.body.builds[remote]).toBe(candidate);
    expect(previewed.response.headers.get('cache-control')).toBe('private, no-store');
    expect(previewed.response.headers.get('sg-builds')).toContain(`${remote}=${candidate}`);

    const [name = '', value = ''] = cookie.split('=');
    const forged = `${name}=${value.slice(0, -2)}${value.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await snapshot('', { cookie: forged })).body.builds[remote]).toBe(live);
    const otherKey = signPreview('another-operator-token-0123456789abcdef', 'production', {
      remote,
      buildId: candidate,
      expiresAt: now + 60,
      tokenId: 'operator',
    });
    expect((await snapshot('', { cookie: `sg_preview=${otherKey}` })).body.builds[remote]).toBe(live);
    const unpublished = signPreview(TOKEN, 'production', {
      remote,
      buildId: freshBuildId(),
      expiresAt: now + 60,
      tokenId: 'operator',
    });
    // Signed with another remote's key: the keys are per remote.
    const [, build = '', expiry = '', , mac = ''] = value.split('.');
    expect(verifyPreview(TOKEN, 'production', `${remote}.${build}.${expiry}.operator.${mac}`, now)).not.toBeNull();
    expect(verifyPreview(TOKEN, 'production', `intro.${build}.${expiry}.operator.${mac}`, now)).toBeNull();
    // And per environment: the same cookie is nothing to another environment's API.
    expect(verifyPreview(TOKEN, 'staging', `${remote}.${build}.${expiry}.operator.${mac}`, now)).toBeNull();
    expect((await snapshot('', { cookie: `sg_preview=${unpublished}` })).body.builds[remote]).toBe(live);
    const { response: plain } = await snapshot('', { cookie: `sg_preview=${unpublished}` });
    expect(plain.headers.get('cache-control')).toBe('public, max-age=1');

    now += 8 * 60 * 60 + 1;
    expect((await snapshot('', { cookie })).body.builds[remote]).toBe(live);

    // Needs the token to start; a cross-site browser POST is refused even with it; stopping needs none.
    expect((await post('/preview', { remote, buildId: candidate }, {})).status).toBe(401);
    expect(
      (await post('/preview', { remote, buildId: candidate }, { ...AUTH, 'sec-fetch-site': 'cross-site' })).status,
    ).toBe(403);
    const stopped = await fetch(url('/preview'), { method: 'DELETE' });
    expect(stopped.status).toBe(204);
    expect(stopped.headers.getSetCookie().join()).toMatch(/sg_preview=;/);

    const page = await fetch(url('/preview'));
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await page.text()).toContain('src="preview.js"');
    expect((await fetch(url('/preview.js'))).headers.get('content-type')).toMatch(/javascript/);
  });

  it('the snapshot always sends Sg-Builds, and Vary: Cookie', async () => {
    const { response } = await snapshot('?bucket=0');
    expect(response.status).toBe(200);
    expect(response.headers.get('sg-builds')).not.toBeNull();
    expect(response.headers.get('vary')).toMatch(/Cookie/i);
  });

  it('answers 503 releases_disabled for writes without an operator token, while the snapshot works', async () => {
    const disabled = await startTestServer({ engine });
    try {
      const write = await fetch(`${disabled.baseUrl}/v1/releases/builds`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...AUTH },
        body: '{}',
      });
      expect(write.status).toBe(503);
      expect(await errorCode(write)).toBe('releases_disabled');
      const empty = await fetch(`${disabled.baseUrl}/v1/releases/snapshot`);
      expect(empty.status).toBe(200);
      expect(empty.headers.get('sg-builds')).toBe('');
      expect(empty.headers.get('sg-integrity')).toBe('');
      expect(await empty.json()).toEqual({ environment: 'production', builds: {}, integrity: '' });
    } finally {
      await disabled.close();
    }
  });
});

// PostgreSQL only: PGlite is one connection in one process.
const onPostgres = testEngines().includes('postgres') ? describe : describe.skip;
onPostgres('compare-and-swap across connections on postgres', () => {
  const engine = 'postgres';
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('two database handles (two pools, as two replicas) racing on one revision: one wins, every time', async () => {
    const [one, two] = [await openDatabase(database.config), await openDatabase(database.config)];
    try {
      for (let round = 0; round < 10; round += 1) {
        const remote = `race-${round}`;
        const ids = [freshBuildId(), freshBuildId()];
        for (const buildId of ids)
          await registerBuild(
            one,
            {
              remote,
              buildId,
              contractMajor: 1,
              files: 1,
              bytes: 1,
              integrity: INTEGRITY,
            },
            CHANGE,
          );
        /** Both replicas release at once from the same revision, each its own build. */
        const releaseAtOnce = (buildOf: (index: number) => string | undefined, expectedRevision: number) =>
          Promise.all(
            [one, two].map((db, index) =>
              applyAction(
                db,
                'production',
                remote,
                { action: 'release', buildId: buildOf(index), expectedRevision, reason: '' },
                CHANGE.actor,
              ),
            ),
          );
        const outcomes = await releaseAtOnce((index) => ids[index], 0);
        expect(outcomes.filter((outcome) => 'ok' in outcome)).toHaveLength(1);
        expect(outcomes.filter((outcome) => 'kind' in outcome && outcome.kind === 'conflict')).toHaveLength(1);
        const next = await releaseAtOnce((index) => ids[1 - index], 1);
        expect(next.filter((outcome) => 'ok' in outcome)).toHaveLength(1);
      }
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('a purge racing a release of the same build: never a pointer to a purged build', async () => {
    const [one, two] = [await openDatabase(database.config), await openDatabase(database.config)];
    try {
      for (let round = 0; round < 10; round += 1) {
        const remote = `purge-race-${round}`;
        const buildId = freshBuildId();
        await registerBuild(
          one,
          {
            remote,
            buildId,
            contractMajor: 1,
            files: 1,
            bytes: 1,
            integrity: INTEGRITY,
          },
          CHANGE,
        );
        const [released, purged] = await Promise.all([
          applyAction(
            one,
            'production',
            remote,
            {
              action: 'release',
              buildId,
              expectedRevision: 0,
              reason: '',
            },
            CHANGE.actor,
          ),
          purgeBuilds(two, remote, [buildId], CHANGE),
        ]);
        // Exactly one of them happened, whichever came first.
        expect(['ok' in released, 'ok' in purged].filter(Boolean)).toHaveLength(1);
        const dangling = await one.query(
          `SELECT 1 FROM release_pointers p JOIN release_builds b ON b.remote = p.remote AND b.build_id = p.live_build
           WHERE b.purged_at IS NOT NULL`,
        );
        expect(dangling.rows).toEqual([]);
      }
    } finally {
      await one.close();
      await two.close();
    }
  });
});

describe('the snapshot when the database fails', () => {
  it('answers 503 not_ready in the documented error shape, not a 500', async () => {
    const failing: Database = {
      engine: 'postgres',
      query: () => Promise.reject(Object.assign(new Error('relation does not exist'), { code: '42P01' })),
      exec: () => Promise.reject(new Error('down')),
      transaction: () => Promise.reject(new Error('down')),
      lost: new Promise<void>(() => undefined),
      ping: () => Promise.reject(new Error('down')),
      close: () => Promise.resolve(),
    };
    const server = createApiServer(createApp({ db: failing, cookieSecure: false, log: false, operatorToken: TOKEN }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/v1/releases/snapshot?bucket=3`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        error: { code: 'not_ready', message: 'The release pointers cannot be read right now.' },
      });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
