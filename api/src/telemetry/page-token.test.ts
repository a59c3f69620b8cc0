// Signed page views against the real API (docs/telemetry.md): the composer's page token is issued
// only for the builds a bucket is served, a batch's token signs one page view once, and a replayed,
// forged, expired or mismatched token is kept for the report but refused for the verdict.
import { PAGE_TOKEN_PATTERN, type BuildReport, type Provenance } from '@special-gift/shared/telemetry';
import { askPageToken, postTelemetry } from '../../test/support/http-client';
import { testEngines } from '../../test/support/test-databases';
import { startTestServer, type TestServer } from '../../test/support/test-server';
import type * as NativePglite from '../../test/support/native-pglite';
import { PAGE_TOKEN_LIFETIME_SECONDS, signPageToken } from './page-token';
import { PAGE_TOKEN_REFUSED_HEADER } from './routes';
import { buildReport, JUDGED_PER_NETWORK } from './report-query';
import { TelemetryStore } from './telemetry-store';
import { purgeTelemetry } from './telemetry-tables';
import { ROUTE_OWNERS } from './vocabulary';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);
jest.setTimeout(120_000);

const KEY = 'page-token-test-key-0123456789-abcdefghij';
const OPERATOR = 'page-token-test-operator-token-0123456789';
const CANARY = 'c0ffee00c0de';
const LIVE = 'a11e00000001';
/** The canary is at 20 %: buckets 0-19 get it, the others the live build. */
const CANARY_BUCKET = 5;
const LIVE_BUCKET = 50;

describe.each(testEngines())('page tokens on %s', (engine) => {
  let server: TestServer;
  const clock = { now: Math.floor(Date.now() / 1000) };

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${OPERATOR}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const act = async (action: string, extra: Record<string, unknown>) => {
    const state = (await (await call('GET', '/v1/releases/remotes/signup')).json()) as { revision: number };
    expect(
      (
        await call('POST', '/v1/releases/remotes/signup/actions', {
          action,
          expectedRevision: state.revision,
          reason: '',
          ...extra,
        })
      ).status,
    ).toBe(200);
  };
  const mint = async (bucket: number, build: string, client?: string) => {
    const answer = await askPageToken(server.baseUrl, String(bucket), `signup=${build}`, client);
    expect(answer.status).toBe(200);
    return answer.text();
  };
  const post = (base: string, build: string, token?: string, client?: string) =>
    postTelemetry(
      base,
      {
        v: 1,
        route: '/sign-up',
        device: 'phone',
        builds: { signup: build, intro: 'image' },
        events: [{ type: 'vital', name: 'LCP', value: 1500, remote: 'signup', t: 1500 }],
        ...(token === undefined ? {} : { token }),
      },
      client,
    );
  /** The provenance counts of `build` of signup, after writing what is buffered; then clears the tables. */
  const provenanceOf = async (build: string): Promise<Partial<Record<Provenance, number>>> => {
    await server.telemetry.flush();
    const report = await buildReport(server.db, { window: '1h', remote: 'signup' });
    const found: BuildReport | undefined = report.remotes[0]?.builds.find((entry) => entry.build === build);
    await server.db.query('DELETE FROM telemetry_sessions');
    await server.db.query('DELETE FROM telemetry_events');
    return Object.fromEntries(Object.entries(found?.provenance ?? {}).filter(([, count]) => count > 0));
  };

  beforeAll(async () => {
    server = await startTestServer({
      engine,
      operatorToken: OPERATOR,
      pageTokenKey: KEY,
      pageTokensPerMinute: 0,
      telemetryBatchesPerMinute: 0,
      telemetryNow: () => clock.now,
      // The tests stand for the host's proxy: the visitor's address is its X-Forwarded-For.
      trustedProxies: ['127.0.0.1', '::1'],
    });
    for (const buildId of [LIVE, CANARY])
      expect(
        (
          await call('POST', '/v1/releases/builds', {
            remote: 'signup',
            buildId,
            contractMajor: 1,
            files: 1,
            bytes: 1,
            integrity: { 'remoteEntry.js': `sha384-${'E'.repeat(64)}` },
          })
        ).status,
      ).toBe(201);
    await act('release', { buildId: LIVE });
    await act('canary', { buildId: CANARY, percent: 20 });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('issues a token only for the builds a page of the bucket is served now, uncached', async () => {
    const answer = await askPageToken(server.baseUrl, String(CANARY_BUCKET), `signup=${CANARY}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const token = await answer.text();
    expect(token).toMatch(PAGE_TOKEN_PATTERN);
    expect(token.split('.').slice(1, 4)).toEqual([String(clock.now), String(CANARY_BUCKET), `signup=${CANARY}`]);
    // Two pages, two ids.
    expect((await mint(CANARY_BUCKET, CANARY)).split('.')[0]).not.toBe(token.split('.')[0]);
    expect(await mint(LIVE_BUCKET, LIVE)).toMatch(PAGE_TOKEN_PATTERN);

    // Every refusal is a bodiless 204: the composer prints the answer into an HTML attribute.
    const refusals: Array<[string, string, string]> = [
      [String(LIVE_BUCKET), `signup=${CANARY}`, 'builds_not_served'],
      [String(CANARY_BUCKET), `signup=${LIVE}`, 'builds_not_served'],
      [String(CANARY_BUCKET), '', 'builds_not_served'],
      ['100', `signup=${LIVE}`, 'bad_bucket'],
      ['x', `signup=${LIVE}`, 'bad_bucket'],
      [String(LIVE_BUCKET), 'signup=<script>', 'bad_builds'],
    ];
    for (const [bucket, builds, reason] of refusals) {
      const refused = await askPageToken(server.baseUrl, bucket, builds);
      expect(`${bucket} ${builds}: ${refused.status} ${refused.headers.get(PAGE_TOKEN_REFUSED_HEADER)}`).toBe(
        `${bucket} ${builds}: 204 ${reason}`,
      );
      expect(await refused.text()).toBe('');
    }
  });

  it("signs a page view once: the token's second batch, here or later, is replayed", async () => {
    const token = await mint(CANARY_BUCKET, CANARY);
    expect((await post(server.baseUrl, CANARY, token)).status).toBe(202);
    // The same page hidden twice, or a script replaying it: in the same write...
    expect((await post(server.baseUrl, CANARY, token)).status).toBe(202);
    expect(await provenanceOf(CANARY)).toEqual({ signed: 1, replayed: 1 });
    // ...and in a later one.
    expect((await post(server.baseUrl, CANARY, token)).status).toBe(202);
    expect(await provenanceOf(CANARY)).toEqual({ replayed: 1 });
  });

  it('refuses a forged, expired or mismatched token for the verdict, and keeps the batch for the report', async () => {
    const token = await mint(CANARY_BUCKET, CANARY);
    const [id = '', issued = '', bucket = '', builds = '', mac = ''] = token.split('.');
    const key = Buffer.from(KEY);
    const claims = { id, issuedAt: Number(issued), bucket: Number(bucket), builds };
    const cases: Array<[string, string, string]> = [
      // Another build written into a genuine token: its MAC no longer matches.
      ['forged', LIVE, [id, issued, String(LIVE_BUCKET), `signup=${LIVE}`, mac].join('.')],
      ['forged', CANARY, signPageToken(Buffer.from('another-key-of-32-characters-or-more!'), 'production', claims)],
      // The same key, another environment's token: a staging page means nothing in production.
      ['forged', CANARY, signPageToken(key, 'staging', claims)],
      ['forged', CANARY, signPageToken(key, 'production', { ...claims, issuedAt: clock.now + 3600 })],
      [
        'expired',
        CANARY,
        signPageToken(key, 'production', { ...claims, issuedAt: clock.now - PAGE_TOKEN_LIFETIME_SECONDS }),
      ],
      // A genuine token with a batch that names other builds than the page was given.
      ['mismatched', LIVE, token],
      ['unsigned', CANARY, ''],
    ];
    for (const [provenance, build, sent] of cases) {
      expect((await post(server.baseUrl, build, sent === '' ? undefined : sent)).status).toBe(202);
      expect(await provenanceOf(build)).toEqual({ [provenance]: 1 });
    }
    // A page open longer than the token's life: its batch still arrives, expired.
    const old = await mint(LIVE_BUCKET, LIVE);
    clock.now += PAGE_TOKEN_LIFETIME_SECONDS;
    try {
      expect((await post(server.baseUrl, LIVE, old)).status).toBe(202);
      expect(await provenanceOf(LIVE)).toEqual({ expired: 1 });
    } finally {
      clock.now -= PAGE_TOKEN_LIFETIME_SECONDS;
    }
    // A token that is not even shaped like one breaks the wire format.
    expect((await post(server.baseUrl, LIVE, 'not-a-token')).status).toBe(422);
  });

  it("signs only a batch from the token's network (/24, /56), and stores its keyed hash, never the address", async () => {
    const cases: Array<[issuedTo: string, sentFrom: string, provenance: Provenance]> = [
      ['203.0.113.7', '203.0.113.250', 'signed'],
      ['203.0.113.7', '198.51.100.7', 'mismatched'],
      ['203.0.113.7', '203.0.114.7', 'mismatched'],
      ['::ffff:203.0.113.7', '203.0.113.8', 'signed'],
      ['2001:db8:0:100::1', '2001:db8:0:1ff:ffff::2', 'signed'],
      ['2001:db8:0:100::1', '2001:db8:0:200::1', 'mismatched'],
    ];
    for (const [issuedTo, sentFrom, provenance] of cases) {
      const token = await mint(CANARY_BUCKET, CANARY, issuedTo);
      expect((await post(server.baseUrl, CANARY, token, sentFrom)).status).toBe(202);
      await server.telemetry.flush();
      const { rows } = await server.db.query<Record<string, unknown>>('SELECT * FROM telemetry_sessions');
      const stored = JSON.stringify(rows);
      expect(stored).not.toContain(issuedTo.replace('::ffff:', ''));
      expect(stored).not.toContain(sentFrom);
      expect(stored).not.toContain(issuedTo.split('.').slice(0, 3).join('.'));
      const signedRow = rows.find((row) => row.provenance === 'signed');
      if (provenance === 'signed') expect(signedRow?.network).toBe(token.split('.')[0]?.slice(11));
      expect(`${issuedTo} -> ${sentFrom}: ${JSON.stringify(await provenanceOf(CANARY))}`).toBe(
        `${issuedTo} -> ${sentFrom}: ${JSON.stringify({ [provenance]: 1 })}`,
      );
    }
  });

  it(`judges at most ${JUDGED_PER_NETWORK} signed page views per network and build in a window`, async () => {
    const views: Array<[client: string, count: number]> = [
      ['198.51.100.1', JUDGED_PER_NETWORK + 3],
      ['192.0.2.1', 2],
    ];
    for (const [client, count] of views)
      for (let i = 0; i < count; i += 1)
        expect((await post(server.baseUrl, LIVE, await mint(LIVE_BUCKET, LIVE, client), client)).status).toBe(202);
    await server.telemetry.flush();
    const report = await buildReport(server.db, { window: '1h', remote: 'signup' });
    const live = report.remotes[0]?.builds.find((entry) => entry.build === LIVE);
    expect(live?.provenance.signed).toBe(JUDGED_PER_NETWORK + 5);
    expect(live?.sessions).toBe(JUDGED_PER_NETWORK + 5);
    expect(live?.signed.sessions).toBe(JUDGED_PER_NETWORK + 2);
    await provenanceOf(LIVE); // clears the tables
  });

  it('lets one batch win a token when two replicas write it at the same time', async () => {
    const token = await mint(CANARY_BUCKET, CANARY);
    // Two stores over one database, as two replicas' buffers are.
    const stores = [0, 1].map(() => new TelemetryStore(server.db, ROUTE_OWNERS, { flushEveryMs: 3_600_000 }));
    const batch = {
      v: 1 as const,
      route: '/sign-up',
      device: 'phone' as const,
      builds: { signup: CANARY },
      events: [{ type: 'vital' as const, name: 'LCP' as const, value: 1500, remote: 'signup', t: 1500 }],
      token,
    };
    const [id = ''] = token.split('.');
    const expiresAt = clock.now + PAGE_TOKEN_LIFETIME_SECONDS;
    for (const store of stores)
      store.accept(batch, 'blink', { provenance: 'signed', id, expiresAt, network: id.slice(11) });
    await Promise.all(stores.map((store) => store.flush()));
    await Promise.all(stores.map((store) => store.close()));
    expect(await provenanceOf(CANARY)).toEqual({ signed: 1, replayed: 1 });
  });

  it("forgets a used token's id once the token has expired (and a margin for clocks has passed)", async () => {
    await server.db.query(
      "INSERT INTO telemetry_page_tokens (id, expires_at) VALUES ('gone', now() - interval '6 minutes'), ('kept', now() - interval '1 minute')",
    );
    await purgeTelemetry(server.db, { retentionDays: 30 });
    const { rows } = await server.db.query<{ id: string }>(
      "SELECT id FROM telemetry_page_tokens WHERE id IN ('gone', 'kept')",
    );
    expect(rows.map((row) => row.id)).toEqual(['kept']);
  });

  it('limits tokens per address, and issues none without a key', async () => {
    const limited = await startTestServer({ engine, operatorToken: OPERATOR, pageTokensPerMinute: 2 });
    const off = await startTestServer({ engine });
    try {
      // No release on this database: a page has no released build, and its Sg-Builds is empty.
      const statuses = [];
      for (let i = 0; i < 3; i += 1) statuses.push((await askPageToken(limited.baseUrl, '7', '')).status);
      expect(statuses).toEqual([200, 200, 204]);
      const limitedBody = await askPageToken(limited.baseUrl, '7', '');
      expect([limitedBody.headers.get(PAGE_TOKEN_REFUSED_HEADER), await limitedBody.text()]).toEqual([
        'rate_limited',
        '',
      ]);
      const refused = await askPageToken(off.baseUrl, '7', '');
      expect(refused.status).toBe(204);
      expect(refused.headers.get(PAGE_TOKEN_REFUSED_HEADER)).toBe('page_tokens_off');
    } finally {
      await limited.close();
      await off.close();
    }
  });
});
