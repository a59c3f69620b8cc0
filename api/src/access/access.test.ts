// Scoped credentials, the audit trail and locks against the real API (docs/access.md): the scope
// matrix (role × action × own or other remote × live, expired or revoked token), one audit entry per
// change with the token's identity, a forged actor ignored, revocation at once on another app over
// the same database, rotation without a gap, previews ended per remote, the failure rate limit.
import type { AddressInfo } from 'node:net';
import { actionsOf, ROLE_NEEDED, type AccessAction, type AccessIdentity } from '@special-gift/shared/api';
import { createTestDatabase, testEngines, type TestDatabase } from '../../test/support/test-databases';
import { startTestServer, type TestServer } from '../../test/support/test-server';
import type * as NativePglite from '../../test/support/native-pglite';
import { createApp } from '../app';
import type { Database, Queryable } from '../db/database';
import { openDatabase } from '../db/open-database';
import { createApiServer } from '../http/protocol-errors';
import { holdLiveCreator, insertToken, isTokenLive, revokeToken, type NewToken } from './token-store';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);

jest.setTimeout(120_000);

const OPERATOR = 'access-test-operator-token-0123456789abcdef';
const INTEGRITY = { 'remoteEntry.js': `sha384-${'E'.repeat(64)}` };
const OWN = 'signup';
const OTHER = 'intro';
const ROLES = ['viewer', 'deployer', 'admin'] as const;
type Role = (typeof ROLES)[number];
const STATES = ['live', 'expired', 'revoked'] as const;
let nextBuild = 1;
const freshBuildId = () => (0x200000000000 + nextBuild++).toString(16);

interface Action {
  readonly name: string;
  /** What `GET /v1/access/me` calls it: the matrix holds the API to the list the console reads. */
  readonly key: AccessAction;
  readonly needs: Role;
  /** A change: leaves exactly one audit entry. */
  readonly writes: boolean;
  run(remote: string, token: string): Promise<Response>;
  /** Puts back what an allowed run changed, after its audit entry is checked. */
  undo?(remote: string): Promise<void>;
}

/** The `sg_preview=…` pair a preview's answer sets, as a browser would send it back. */
const previewCookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith('sg_preview='))
    ?.split(';')[0] ?? '';

describe.each(testEngines())('scoped tokens, audit trail and locks on %s', (engine) => {
  let server: TestServer;
  const live: Record<string, string> = {};

  const call = async (method: string, path: string, token: string | null, body?: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const ok = async <T>(response: Promise<Response>): Promise<T> => {
    const answered = await response;
    if (answered.status >= 300) throw new Error(`${answered.status}: ${await answered.text()}`);
    return (await answered.json()) as T;
  };
  const revision = async (remote: string) =>
    (await ok<{ revision: number }>(call('GET', `/v1/releases/remotes/${remote}`, OPERATOR))).revision;
  const createToken = (remote: string, role: Role, name: string, as = OPERATOR) =>
    ok<{ token: string; id: string; name: string }>(
      call('POST', '/v1/access/tokens', as, { remote, role, name, expiresInDays: 30 }),
    );
  const revoke = (id: string, as = OPERATOR) => call('POST', `/v1/access/tokens/${id}/revoke`, as, { reason: 'test' });
  const auditRows = async () =>
    (await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_trail')).rows[0]?.n ?? 0;
  const lastAudit = async () =>
    (await ok<{ entries: Array<Record<string, unknown>> }>(call('GET', '/v1/access/audit?limit=1', OPERATOR)))
      .entries[0];
  /** Registers a build (a one-file stand-in) of `remote` with `token`. */
  const publish = (remote: string, token: string, buildId: string, extra: Record<string, unknown> = {}) =>
    call('POST', '/v1/releases/builds', token, {
      remote,
      buildId,
      contractMajor: 1,
      files: 1,
      bytes: 1,
      integrity: INTEGRITY,
      ...extra,
    });
  const release = async (remote: string, token: string, buildId: string, extra: Record<string, unknown> = {}) =>
    call('POST', `/v1/releases/remotes/${remote}/actions`, token, {
      action: 'release',
      buildId,
      expectedRevision: await revision(remote),
      reason: 'test',
      ...extra,
    });

  /** Another app over the same database, as another replica (or another environment's API) would be. */
  const startReplica = async (options: { releaseEnvironment?: string; authFailuresPerMinute?: number } = {}) => {
    const app = createApp({ db: server.db, cookieSecure: false, log: false, operatorToken: OPERATOR, ...options });
    const replica = createApiServer(app);
    await new Promise<void>((resolve) => replica.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(replica.address() as AddressInfo).port}`,
      close: async () => {
        replica.closeAllConnections();
        await new Promise((resolve) => replica.close(resolve));
      },
    };
  };

  const ACTIONS: Action[] = [
    {
      name: 'read releases',
      key: 'read',
      needs: ROLE_NEEDED.read,
      writes: false,
      run: (r, t) => call('GET', `/v1/releases/remotes/${r}`, t),
    },
    {
      name: 'read the audit trail',
      key: 'read',
      needs: ROLE_NEEDED.read,
      writes: false,
      run: (r, t) => call('GET', `/v1/access/audit?remote=${r}`, t),
    },
    {
      name: 'read field data',
      key: 'read',
      needs: ROLE_NEEDED.read,
      writes: false,
      run: (r, t) => call('GET', `/v1/telemetry/report?remote=${r}`, t),
    },
    {
      name: 'publish',
      key: 'publish',
      needs: ROLE_NEEDED.publish,
      writes: true,
      run: (r, t) => publish(r, t, freshBuildId()),
    },
    {
      name: 'release',
      key: 'release',
      needs: ROLE_NEEDED.release,
      writes: true,
      run: (r, t) => release(r, t, live[r] ?? ''),
    },
    {
      name: 'lock',
      key: 'lock',
      needs: ROLE_NEEDED.lock,
      writes: true,
      run: (r, t) => call('POST', `/v1/releases/remotes/${r}/lock`, t, { reason: 'matrix' }),
      undo: async (r) =>
        void (await ok(call('POST', `/v1/releases/remotes/${r}/unlock`, OPERATOR, { reason: 'matrix' }))),
    },
    {
      name: 'preview',
      key: 'preview',
      needs: ROLE_NEEDED.preview,
      writes: true,
      run: (r, t) => call('POST', '/v1/releases/preview', t, { remote: r, buildId: live[r] }),
    },
    {
      name: 'create tokens',
      key: 'tokens',
      needs: ROLE_NEEDED.tokens,
      writes: true,
      run: (r, t) =>
        call('POST', '/v1/access/tokens', t, {
          remote: r,
          role: 'viewer',
          name: 'made in the matrix',
          expiresInDays: 1,
        }),
    },
    {
      name: 'list tokens',
      key: 'tokens',
      needs: ROLE_NEEDED.tokens,
      writes: false,
      run: (r, t) => call('GET', `/v1/access/tokens?remote=${r}`, t),
    },
  ];

  beforeAll(async () => {
    server = await startTestServer({ engine, operatorToken: OPERATOR, authFailuresPerMinute: 0 });
    for (const remote of [OWN, OTHER]) {
      const buildId = freshBuildId();
      await ok(publish(remote, OPERATOR, buildId));
      await ok(release(remote, OPERATOR, buildId));
      live[remote] = buildId;
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers each role × action × own or other remote × live, expired or revoked token as the matrix says', async () => {
    const tokens = new Map<string, { token: string; id: string; name: string }>();
    for (const role of ROLES)
      for (const state of STATES) {
        const made = await createToken(OWN, role, `${OWN} ${role} ${state}`);
        if (state === 'expired')
          await server.db.query("UPDATE access_tokens SET expires_at = now() - interval '1 minute' WHERE id = $1", [
            made.id,
          ]);
        if (state === 'revoked') expect((await revoke(made.id)).status).toBe(200);
        tokens.set(`${role} ${state}`, made);
      }
    // What each live token says it may do (the console offers exactly that), checked against the API below.
    const offered = new Map<Role, readonly AccessAction[]>();
    for (const role of ROLES) {
      const me = await ok<AccessIdentity>(call('GET', '/v1/access/me', tokens.get(`${role} live`)?.token ?? null));
      expect(me).toMatchObject({ role, remote: OWN, actions: actionsOf(role), remotes: [OWN] });
      offered.set(role, me.actions);
    }
    const table: string[] = [];
    for (const action of ACTIONS)
      for (const role of ROLES)
        for (const remote of [OWN, OTHER])
          for (const state of STATES) {
            const { token, id, name } = tokens.get(`${role} ${state}`) ?? { token: '', id: '', name: '' };
            const expected =
              state !== 'live'
                ? 401
                : remote !== OWN || ROLES.indexOf(role) < ROLES.indexOf(action.needs)
                  ? 403
                  : 'allowed';
            const before = await auditRows();
            const response = await action.run(remote, token);
            const got = response.status < 300 ? 'allowed' : response.status;
            const body = (await response.json()) as { error?: { code: string; message: string } };
            table.push(`${action.name} | ${role} | ${remote === OWN ? 'own' : 'other'} | ${state} | ${got}`);
            if (state === 'live' && remote === OWN)
              expect(`${role} offers ${action.key}: ${offered.get(role)?.includes(action.key)}`).toBe(
                `${role} offers ${action.key}: ${got === 'allowed'}`,
              );
            expect(`${action.name} ${role} ${remote} ${state}: ${got}`).toBe(
              `${action.name} ${role} ${remote} ${state}: ${expected}`,
            );
            if (got === 403) expect(body.error?.code).toBe('forbidden');
            if (got === 401) expect(body.error?.code).toBe('unauthorized');
            // A refusal leaves nothing; a change exactly one entry, in the token's name; a read none.
            const added = (await auditRows()) - before;
            expect(`${action.name}: ${added}`).toBe(`${action.name}: ${got === 'allowed' && action.writes ? 1 : 0}`);
            if (got === 'allowed' && action.writes) {
              expect(await lastAudit()).toMatchObject({ remote, tokenId: id, tokenName: name, channel: 'cli' });
              await action.undo?.(remote);
            }
          }
    expect(table).toHaveLength(ACTIONS.length * ROLES.length * 2 * STATES.length);
  });

  it('tells the operator credential it is an admin of every remote, with no expiry', async () => {
    expect(await ok(call('GET', '/v1/access/me', OPERATOR))).toEqual({
      tokenId: 'operator',
      name: 'operator',
      role: 'admin',
      remote: null,
      environment: 'production',
      expiresAt: null,
      actions: actionsOf('admin'),
      remotes: ['intro', 'signup', 'thankyou'],
    });
    expect((await call('GET', '/v1/access/me', 'sg_not-a-token')).status).toBe(401);
  });

  it('ignores a forged actor: history, builds and audit name the token', async () => {
    const deployer = await createToken(OWN, 'deployer', 'signup CI');
    expect(await ok(call('GET', '/v1/access/me', deployer.token))).toEqual({
      tokenId: deployer.id,
      name: 'signup CI',
      role: 'deployer',
      remote: OWN,
      environment: 'production',
      expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown,
      actions: actionsOf('deployer'),
      remotes: [OWN],
    });
    const buildId = freshBuildId();
    const published = await publish(OWN, deployer.token, buildId, { actor: 'mallory' });
    expect(published.status).toBe(201);
    expect((await release(OWN, deployer.token, buildId, { actor: 'mallory' })).status).toBe(200);
    const state = await ok<{
      history: Array<{ actor: string }>;
      builds: Array<{ buildId: string; publishedBy: string }>;
    }>(call('GET', `/v1/releases/remotes/${OWN}`, OPERATOR));
    expect(state.history[0]?.actor).toBe('signup CI');
    expect(state.builds.find((build) => build.buildId === buildId)?.publishedBy).toBe('signup CI');
    const audit = await ok<{ entries: Array<{ tokenName: string; tokenId: string; action: string }> }>(
      call('GET', `/v1/access/audit?remote=${OWN}&limit=2`, deployer.token),
    );
    expect(audit.entries.map((entry) => [entry.action, entry.tokenName, entry.tokenId])).toEqual([
      ['release', 'signup CI', deployer.id],
      ['publish', 'signup CI', deployer.id],
    ]);
    expect(JSON.stringify(audit)).not.toContain('mallory');
    live[OWN] = buildId;
  });

  it('the trail: per remote for its tokens, whole for the operator, never edited nor deleted', async () => {
    const admin = await createToken(OWN, 'admin', 'signup admin');
    expect((await call('GET', '/v1/access/audit', admin.token)).status).toBe(403);
    const whole = await ok<{ entries: Array<{ remote: string }> }>(
      call('GET', '/v1/access/audit?limit=1000', OPERATOR),
    );
    expect(new Set(whole.entries.map((entry) => entry.remote))).toEqual(new Set([OWN, OTHER]));
    const own = await ok<{ entries: Array<{ remote: string }> }>(
      call('GET', `/v1/access/audit?remote=${OWN}&limit=1000`, admin.token),
    );
    expect(own.entries.every((entry) => entry.remote === OWN)).toBe(true);
    for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'])
      expect((await call(method, '/v1/access/audit', OPERATOR, {})).status).toBe(405);
    await expect(server.db.query("UPDATE audit_trail SET token_name = 'someone else'")).rejects.toThrow(/append-only/);
    await expect(server.db.query('DELETE FROM audit_trail')).rejects.toThrow(/append-only/);
  });

  it('a lock refuses release, canary, promote and detach with its reason; abort and rollback still work', async () => {
    const deployer = await createToken(OWN, 'deployer', 'incident lead');
    const candidate = freshBuildId();
    await ok(publish(OWN, OPERATOR, candidate));
    await ok(
      call('POST', `/v1/releases/remotes/${OWN}/actions`, deployer.token, {
        action: 'canary',
        buildId: candidate,
        percent: 10,
        expectedRevision: await revision(OWN),
        reason: '',
      }),
    );
    await ok(call('POST', `/v1/releases/remotes/${OWN}/lock`, deployer.token, { reason: 'incident 7' }));
    const again = await call('POST', `/v1/releases/remotes/${OWN}/lock`, deployer.token, { reason: 'twice' });
    expect(again.status).toBe(409);
    for (const body of [
      { action: 'release', buildId: candidate },
      { action: 'canary', buildId: candidate, percent: 20 },
      { action: 'promote' },
      { action: 'detach' },
    ]) {
      const refused = await call('POST', `/v1/releases/remotes/${OWN}/actions`, deployer.token, {
        ...body,
        expectedRevision: await revision(OWN),
        reason: '',
      });
      expect(refused.status).toBe(409);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('remote_locked');
      expect(error.message).toMatch(
        /^signup is locked by incident lead since .*: incident 7\. Only abort and rollback/,
      );
    }
    // A rollback to a build never live here would be a release by another name: refused too.
    const fresh = freshBuildId();
    await ok(publish(OWN, OPERATOR, fresh));
    const sneaked = await call('POST', `/v1/releases/remotes/${OWN}/actions`, deployer.token, {
      action: 'rollback',
      buildId: fresh,
      expectedRevision: await revision(OWN),
      reason: 'not really a rollback',
    });
    expect(sneaked.status).toBe(409);
    expect(((await sneaked.json()) as { error: { code: string } }).error.code).toBe('remote_locked');
    const state = await ok<{ lock: { reason: string; lockedBy: string } | null }>(
      call('GET', `/v1/releases/remotes/${OWN}`, deployer.token),
    );
    expect(state.lock).toMatchObject({ reason: 'incident 7', lockedBy: 'incident lead' });
    // The way back stays open (the canary verdict's automatic abort: api/test/canary-verdict.test.ts).
    const aborted = await call('POST', `/v1/releases/remotes/${OWN}/actions`, deployer.token, {
      action: 'abort',
      expectedRevision: await revision(OWN),
      reason: 'bad canary',
    });
    expect(aborted.status).toBe(200);
    // Rolling back to the build live before the current one stays open.
    await ok(call('POST', `/v1/releases/remotes/${OWN}/unlock`, deployer.token, { reason: 'release' }));
    const before = live[OWN]!;
    expect((await release(OWN, deployer.token, candidate)).status).toBe(200);
    await ok(call('POST', `/v1/releases/remotes/${OWN}/lock`, deployer.token, { reason: 'incident 8' }));
    const back = await call('POST', `/v1/releases/remotes/${OWN}/actions`, deployer.token, {
      action: 'rollback',
      buildId: before,
      expectedRevision: await revision(OWN),
      reason: 'back to the last good build',
    });
    expect(back.status).toBe(200);
    await ok(call('POST', `/v1/releases/remotes/${OWN}/unlock`, deployer.token, { reason: 'over' }));
    expect((await release(OWN, deployer.token, candidate)).status).toBe(200);
    live[OWN] = candidate;
  });

  it('revocation holds at once on another replica; rotation has no gap', async () => {
    // A second app over the same database: nothing about tokens is kept in a process.
    const replica = await startReplica();
    const replicaUrl = replica.url;
    const readOn = (base: string, token: string) =>
      fetch(`${base}/v1/releases/remotes/${OWN}`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.status,
      );
    try {
      const old = await createToken(OWN, 'viewer', 'dashboard 2026');
      expect(await readOn(replicaUrl, old.token)).toBe(200);
      const next = await createToken(OWN, 'viewer', 'dashboard 2027');
      // Both valid together until the old one is revoked.
      expect([await readOn(server.baseUrl, old.token), await readOn(replicaUrl, next.token)]).toEqual([200, 200]);
      expect((await revoke(old.id)).status).toBe(200);
      expect(await readOn(replicaUrl, old.token)).toBe(401);
      expect(await readOn(server.baseUrl, old.token)).toBe(401);
      expect(await readOn(replicaUrl, next.token)).toBe(200);
      expect((await revoke(old.id)).status).toBe(404);
    } finally {
      await replica.close();
    }
  });

  it("revoking one team's token ends that token's previews only", async () => {
    const signup = await createToken(OWN, 'deployer', 'signup previewer');
    const intro = await createToken(OTHER, 'deployer', 'intro previewer');
    const previewCookie = async (remote: string, token: string) => {
      const started = await call('POST', '/v1/releases/preview', token, { remote, buildId: live[remote] });
      expect(started.status).toBe(200);
      return previewCookieOf(started);
    };
    const previewed = async (cookie: string) => {
      const response = await fetch(`${server.baseUrl}/v1/releases/snapshot`, { headers: { cookie } });
      return response.headers.get('cache-control') === 'private, no-store';
    };
    const [signupCookie, introCookie] = [
      await previewCookie(OWN, signup.token),
      await previewCookie(OTHER, intro.token),
    ];
    expect([await previewed(signupCookie), await previewed(introCookie)]).toEqual([true, true]);
    expect((await revoke(signup.id)).status).toBe(200);
    expect([await previewed(signupCookie), await previewed(introCookie)]).toEqual([false, true]);
  });

  it('refuses a token of another environment, and limits failed authentications', async () => {
    const staging = await startReplica({ releaseEnvironment: 'staging', authFailuresPerMinute: 3 });
    try {
      // A staging deployer cannot purge a build production has had live (a rollback target there).
      const productionTarget = freshBuildId();
      const current = freshBuildId();
      for (const buildId of [productionTarget, current]) {
        await ok(publish(OWN, OPERATOR, buildId));
        expect((await release(OWN, OPERATOR, buildId)).status).toBe(200);
      }
      live[OWN] = current;
      const stagingDeployer = await ok<{ token: string }>(
        fetch(`${staging.url}/v1/access/tokens`, {
          method: 'POST',
          headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'staging ci', remote: OWN, role: 'deployer', expiresInDays: 1 }),
        }),
      );
      const purge = await fetch(`${staging.url}/v1/releases/remotes/${OWN}/purge`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stagingDeployer.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ buildIds: [productionTarget] }),
      });
      expect(purge.status).toBe(409);
      expect(((await purge.json()) as { error: { message: string } }).error.message).toMatch(
        /another environment's release history/,
      );
      const made = await createToken(OWN, 'viewer', 'production viewer');
      // A production token shown to the staging API (the same database).
      const foreign = await fetch(`${staging.url}/v1/releases/remotes/${OWN}`, {
        headers: { authorization: `Bearer ${made.token}` },
      });
      expect(foreign.status).toBe(403);
      expect(((await foreign.json()) as { error: { message: string } }).error.message).toMatch(
        /for the production environment/,
      );
      const attempt = () =>
        fetch(`${staging.url}/v1/releases/remotes/${OWN}`, { headers: { authorization: 'Bearer sg_guess' } });
      const operator = () =>
        fetch(`${staging.url}/v1/releases/remotes/${OWN}`, { headers: { authorization: `Bearer ${OPERATOR}` } });
      // Successes do not count; failures do, and past the limit every request of the client waits.
      for (let i = 0; i < 5; i += 1) expect((await operator()).status).toBe(200);
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await attempt()).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
      const limited = await operator();
      expect(limited.status).toBe(429);
      expect(((await limited.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    } finally {
      await staging.close();
    }
  });

  it('revoking an admin token revokes the tokens it created, and theirs, each with its audit entry', async () => {
    const admin = await createToken(OWN, 'admin', 'signup admin 2026');
    const deployer = await createToken(OWN, 'deployer', 'signup CI by admin', admin.token);
    const subAdmin = await createToken(OWN, 'admin', 'signup deputy', admin.token);
    const viewer = await createToken(OWN, 'viewer', 'dashboard by deputy', subAdmin.token);
    const unrelated = await createToken(OWN, 'deployer', 'signup CI by operator');
    const read = (token: string) =>
      fetch(`${server.baseUrl}/v1/releases/remotes/${OWN}`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.status,
      );
    expect(await Promise.all([admin, deployer, subAdmin, viewer, unrelated].map((t) => read(t.token)))).toEqual([
      200, 200, 200, 200, 200,
    ]);
    const before = await auditRows();
    const answer = await revoke(admin.id);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { id: string; alsoRevoked: Array<{ id: string; revokedAt: string | null }> };
    expect(body.id).toBe(admin.id);
    expect(body.alsoRevoked.map((t) => t.id).sort()).toEqual([deployer.id, subAdmin.id, viewer.id].sort());
    expect(body.alsoRevoked.every((t) => t.revokedAt !== null)).toBe(true);
    // At once, for every token it made and every token those made; not for the operator's.
    expect(await Promise.all([admin, deployer, subAdmin, viewer, unrelated].map((t) => read(t.token)))).toEqual([
      401, 401, 401, 401, 200,
    ]);
    expect((await auditRows()) - before).toBe(4);
    const trail = await ok<{ entries: Array<{ action: string; toState: string; fromState: string; reason: string }> }>(
      call('GET', `/v1/access/audit?remote=${OWN}&limit=4`, OPERATOR),
    );
    expect(trail.entries.every((entry) => entry.action === 'token-revoke')).toBe(true);
    expect(
      trail.entries.filter((entry) => entry.reason === `created by "signup admin 2026" (${admin.id}), revoked with it`),
    ).toHaveLength(3);
  });

  it('rotates an admin token with no gap: cascade false keeps its tokens, under its creator for a later cascade', async () => {
    const head = await createToken(OWN, 'admin', 'signup head admin');
    const old = await createToken(OWN, 'admin', 'signup admin (old)', head.token);
    const ci = await createToken(OWN, 'deployer', 'signup CI by old admin', old.token);
    const successor = await createToken(OWN, 'admin', 'signup admin (new)', old.token);
    const read = (token: string) =>
      fetch(`${server.baseUrl}/v1/releases/remotes/${OWN}`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.status,
      );
    const refused = await call('POST', `/v1/access/tokens/${old.id}/revoke`, successor.token, { cascade: 'no' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/`cascade` must be true/);

    const before = await auditRows();
    const answer = await call('POST', `/v1/access/tokens/${old.id}/revoke`, successor.token, {
      reason: 'rotation',
      cascade: false,
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { alsoRevoked: unknown[]; reattached: Array<{ id: string }> };
    expect(body.alsoRevoked).toEqual([]);
    expect(body.reattached.map((t) => t.id).sort()).toEqual([ci.id, successor.id].sort());
    expect(await Promise.all([old, ci, successor].map((t) => read(t.token)))).toEqual([401, 200, 200]);
    expect((await auditRows()) - before).toBe(1);
    expect(await lastAudit()).toMatchObject({
      action: 'token-revoke',
      reason: 'rotation',
      toState: expect.stringContaining(`kept, now under its creator: `) as unknown,
    });

    // The kept tokens now answer to the head admin: its cascade (the default) still reaches them.
    const cascaded = await ok<{ alsoRevoked: Array<{ id: string }> }>(revoke(head.id));
    expect(cascaded.alsoRevoked.map((t) => t.id).sort()).toEqual([ci.id, successor.id].sort());
    expect(await Promise.all([head, ci, successor].map((t) => read(t.token)))).toEqual([401, 401, 401]);
  });

  it("ignores a preview cookie of another environment's API, even with the same operator token", async () => {
    const staging = await startReplica({ releaseEnvironment: 'staging' });
    try {
      const previewOn = async (base: string) => {
        const started = await fetch(`${base}/v1/releases/preview`, {
          method: 'POST',
          headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
          body: JSON.stringify({ remote: OWN, buildId: live[OWN] }),
        });
        expect(started.status).toBe(200);
        return previewCookieOf(started);
      };
      const previewed = async (base: string, cookie: string) =>
        (await fetch(`${base}/v1/releases/snapshot`, { headers: { cookie } })).headers.get('cache-control') ===
        'private, no-store';
      const [productionCookie, stagingCookie] = [await previewOn(server.baseUrl), await previewOn(staging.url)];
      expect(productionCookie).not.toBe(stagingCookie);
      expect([await previewed(server.baseUrl, productionCookie), await previewed(staging.url, stagingCookie)]).toEqual([
        true,
        true,
      ]);
      expect([await previewed(staging.url, productionCookie), await previewed(server.baseUrl, stagingCookie)]).toEqual([
        false,
        false,
      ]);
    } finally {
      await staging.close();
    }
  });
});

// Two pools on one PostgreSQL (two replicas): a token minted while its creator, or a token above
// it, is being revoked either waits and is refused, or is revoked with it; never live under a
// revoked creator. PGlite has one connection, so it cannot race.
const onPostgres = testEngines().includes('postgres') ? describe : describe.skip;
onPostgres('minting and revoking race on postgres', () => {
  let database: TestDatabase;
  let one: Database;
  let two: Database;
  const newToken = (name: string, createdById: string): NewToken => ({
    name,
    remote: OWN,
    environment: 'production',
    role: 'admin',
    expiresAt: new Date(Date.now() + 86_400_000),
    createdBy: name,
    createdById,
  });
  const mint = (db: Database, name: string, createdById: string) =>
    db.transaction(async (tx) => (await insertToken(tx, newToken(name, createdById))).record);
  /** Runs `work` in a transaction on `db` and holds it open until the returned `commit` is called. */
  const held = async <T>(db: Database, work: (tx: Queryable) => Promise<T>) => {
    let commit = () => {};
    const gate = new Promise<void>((resolve) => (commit = resolve));
    let reached = (_value: T) => {};
    const done = new Promise<T>((resolve) => (reached = resolve));
    const finished = db.transaction(async (tx) => {
      const value = await work(tx);
      reached(value);
      await gate;
      return value;
    });
    return { value: await done, commit, finished };
  };
  const settledWithin = async (promise: Promise<unknown>, ms: number) => {
    let settled = false;
    void promise.finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, ms));
    return settled;
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    one = await openDatabase(database.config);
    two = await openDatabase(database.config);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.drop();
  });

  it.each([
    ['the token being revoked', 0],
    ['a token it created', 1],
  ])('a token minted under %s, committed during the revocation, is revoked with it', async (_, depth) => {
    const root = await mint(one, `root ${depth}`, 'operator');
    const parent = depth === 0 ? root : await mint(one, `child ${depth}`, root.id);
    const minting = await held(one, async (tx) => {
      expect(await holdLiveCreator(tx, parent.id)).toBe(true);
      return (await insertToken(tx, newToken(`minted ${depth}`, parent.id))).record;
    });
    const revoking = two.transaction((tx) => revokeToken(tx, root.id, true));
    // The revocation waits for the mint's lock on its creator instead of reading past it.
    expect(await settledWithin(revoking, 300)).toBe(false);
    minting.commit();
    await minting.finished;
    const revocation = await revoking;
    expect(revocation?.alsoRevoked.map((t) => t.id)).toContain(minting.value.id);
    expect(await isTokenLive(one, minting.value.id)).toBe(false);
  });

  it('a cascade from a creator waits for a revocation without cascade under it, and revokes what it kept', async () => {
    const head = await mint(one, 'head', 'operator');
    const middle = await mint(one, 'middle', head.id);
    const kept = await mint(one, 'kept', middle.id);
    const rotating = await held(one, (tx) => revokeToken(tx, middle.id, false));
    expect(rotating.value?.reattached.map((t) => t.id)).toEqual([kept.id]);
    const cascading = two.transaction((tx) => revokeToken(tx, head.id, true));
    expect(await settledWithin(cascading, 300)).toBe(false);
    rotating.commit();
    await rotating.finished;
    expect((await cascading)?.alsoRevoked.map((t) => t.id)).toEqual([kept.id]);
    expect(await isTokenLive(one, kept.id)).toBe(false);
  });

  it('a mint under a creator being revoked waits, then is refused', async () => {
    const root = await mint(one, 'root refused', 'operator');
    const revoking = await held(one, (tx) => revokeToken(tx, root.id, true));
    const holding = two.transaction((tx) => holdLiveCreator(tx, root.id));
    expect(await settledWithin(holding, 300)).toBe(false);
    revoking.commit();
    await revoking.finished;
    expect(await holding).toBe(false);
  });
});
