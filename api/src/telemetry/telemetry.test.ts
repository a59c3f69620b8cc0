import { validateTelemetryBatch, type TelemetryBatch, type TelemetryReport } from '@special-gift/shared/telemetry';
import { testEngines } from '../../test/support/test-databases';
import { startTestServer, type TestServer } from '../../test/support/test-server';
import type * as NativePglite from '../../test/support/native-pglite';
import { buildReport } from '../telemetry/report-query';
import { toRows } from './telemetry-rows';
import { TelemetryStore } from './telemetry-store';
import { insertRows, purgeTelemetry } from './telemetry-tables';
import { ROUTE_OWNERS, TELEMETRY_VOCABULARY } from '../telemetry/vocabulary';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);

jest.setTimeout(60_000);

const OPERATOR_TOKEN = 'test-operator-token-0123456789-abcdefgh';
const CANARY = 'c0ffee000001';
const BASELINE = 'ba5e11e00001';

function pageBatch(overrides: Record<string, unknown> = {}) {
  return {
    v: 1,
    route: '/sign-up',
    device: 'phone',
    builds: { signup: CANARY, intro: 'image' },
    events: [
      { type: 'vital', name: 'FCP', value: 800, remote: null, t: 800 },
      { type: 'vital', name: 'LCP', value: 1900, remote: 'signup', rating: 'good', target: 'main>h1', t: 1900 },
      { type: 'load_failure', remote: 'signup', phase: 'lazy_chunk', kind: 'timeout', t: 2500 },
      { type: 'vital', name: 'INP', value: 120, remote: null, t: 9000 },
      { type: 'vital', name: 'CLS', value: 0.05, remote: 'signup', t: 9100 },
      { type: 'uncaught', remote: null, errorName: 'TypeError', t: 9200, rejection: false },
    ],
    ...overrides,
  };
}

/** A batch as the endpoint would accept it, for writing rows directly. */
function valid(value: unknown): TelemetryBatch {
  const checked = validateTelemetryBatch(value, TELEMETRY_VOCABULARY);
  if (!checked.ok) throw new Error(checked.problems.join(', '));
  return checked.value;
}

function post(server: TestServer, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${server.baseUrl}/v1/telemetry`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers },
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
}

async function count(server: TestServer, table: string): Promise<number> {
  const result = await server.db.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
  return result.rows[0]?.count ?? -1;
}

describe.each(testEngines())('telemetry on %s', (engine) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ engine, operatorToken: OPERATOR_TOKEN, telemetryBatchesPerMinute: 0 });
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.telemetry.flush();
    await server.db.query('DELETE FROM telemetry_sessions');
    await server.db.query('DELETE FROM telemetry_events');
  });

  describe('POST /v1/telemetry', () => {
    it('answers 202 with no body, as text/plain (sendBeacon) and as JSON, without any XSRF token', async () => {
      const plain = await post(server, pageBatch());
      const json = await post(server, pageBatch(), { 'content-type': 'application/json' });
      expect([plain.status, json.status]).toEqual([202, 202]);
      expect(await plain.text()).toBe('');
      await server.telemetry.flush();
      expect(await count(server, 'telemetry_sessions')).toBe(4); // 2 pages × 2 remotes
      expect(await count(server, 'telemetry_events')).toBe(12);
      const { rows } = await server.db.query<{ remote: string; failures: number; lcp: number; inp: number }>(
        `SELECT DISTINCT remote, failures, lcp, inp FROM telemetry_sessions ORDER BY remote`,
      );
      // INP named no remote: it is the route's (/sign-up → signup); the uncaught error is nobody's.
      expect(rows).toEqual([
        { remote: 'intro', failures: 0, lcp: null, inp: null },
        { remote: 'signup', failures: 1, lcp: 1900, inp: 120 },
      ]);
    });

    it('refuses another site (the origin check still applies)', async () => {
      const response = await post(server, pageBatch(), {
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      });
      expect(response.status).toBe(403);
    });

    it('422 lists the problems, never echoing what was sent', async () => {
      const response = await post(server, pageBatch({ route: '/x?email=someone@example.com', extra: 1 }));
      expect(response.status).toBe(422);
      const body = (await response.json()) as { error: { code: string; problems: string[] } };
      expect(body.error.code).toBe('invalid_telemetry');
      expect(body.error.problems).toEqual(['extra: unknown_key', 'route: unknown_route']);
      expect(JSON.stringify(body)).not.toContain('someone');
    });

    const event = pageBatch().events[1];
    const deep = '['.repeat(40) + ']'.repeat(40);
    const cases: Array<[string, string | Buffer, Record<string, string>, number, string]> = [
      ['malformed JSON', '{"v":1,', {}, 400, 'invalid_json'],
      ['empty body', '', {}, 400, 'invalid_json'],
      ['a JSON string', '"hello"', {}, 422, 'invalid_telemetry'],
      ['null', 'null', {}, 422, 'invalid_telemetry'],
      ['an array', '[1,2,3]', {}, 422, 'invalid_telemetry'],
      [
        'wrong types',
        JSON.stringify({ v: '1', route: 5, device: [], builds: 'x', events: 'y' }),
        {},
        422,
        'invalid_telemetry',
      ],
      ['nested junk', deep, {}, 400, 'invalid_body'],
      [
        'junk in an event',
        JSON.stringify(pageBatch({ events: [{ ...event, t: { $gt: 1 } }] })),
        {},
        422,
        'invalid_telemetry',
      ],
      [
        'unicode junk',
        JSON.stringify(pageBatch({ route: '/sign-up\u202e\u0000', device: '📱' })),
        {},
        422,
        'invalid_telemetry',
      ],
      [
        'lone surrogate escapes',
        '{"v":1,"route":"\\ud800","device":"phone","builds":{},"events":[]}',
        {},
        422,
        'invalid_telemetry',
      ],
      ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), {}, 415, 'unsupported_media_type'],
      ['too many events', JSON.stringify(pageBatch({ events: Array(51).fill(event) })), {}, 422, 'invalid_telemetry'],
      ['unknown keys', JSON.stringify({ ...pageBatch(), message: 'stack trace' }), {}, 422, 'invalid_telemetry'],
      [
        'a negative value',
        JSON.stringify(pageBatch({ events: [{ ...event, value: -1 }] })),
        {},
        422,
        'invalid_telemetry',
      ],
      ['a NaN value (not JSON)', '{"v":1,"events":[{"value":NaN}]}', {}, 400, 'invalid_json'],
      ['a huge number', JSON.stringify(pageBatch({ events: [{ ...event, t: 1e308 }] })), {}, 422, 'invalid_telemetry'],
      ['over 16 KiB', JSON.stringify({ ...pageBatch(), pad: 'x'.repeat(17_000) }), {}, 413, 'payload_too_large'],
      [
        'a form content type',
        'v=1',
        { 'content-type': 'application/x-www-form-urlencoded' },
        415,
        'unsupported_media_type',
      ],
      ['no content type', JSON.stringify(pageBatch()), { 'content-type': '' }, 415, 'unsupported_media_type'],
      [
        'another charset',
        JSON.stringify(pageBatch()),
        { 'content-type': 'text/plain; charset=latin1' },
        415,
        'unsupported_media_type',
      ],
      ['gzip', JSON.stringify(pageBatch()), { 'content-encoding': 'gzip' }, 415, 'unsupported_media_type'],
    ];
    it.each(cases)('bad input: %s, never a 5xx', async (_name, body, headers, status, code) => {
      const response = await post(server, body, headers);
      expect(response.status).toBe(status);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
    });

    it('the whole bad-input matrix, at once: no 5xx, and nothing stored', async () => {
      const responses = await Promise.all(cases.map(([, body, headers]) => post(server, body, headers)));
      expect(responses.filter((response) => response.status >= 500)).toEqual([]);
      await server.telemetry.flush();
      expect(await count(server, 'telemetry_events')).toBe(0);
      expect(server.logs.filter((entry) => entry.level === 'error')).toEqual([]);
    });

    it('other methods answer 405', async () => {
      const response = await fetch(`${server.baseUrl}/v1/telemetry`);
      expect(response.status).toBe(405);
    });
  });

  describe('the report', () => {
    const report = (query = '', token: string | null = OPERATOR_TOKEN) =>
      fetch(`${server.baseUrl}/v1/telemetry/report${query}`, {
        headers: token === null ? {} : { authorization: `Bearer ${token}` },
      });

    it.each([
      ['no token', null],
      ['a wrong token', 'x'.repeat(40)],
      ['a prefix of the token', OPERATOR_TOKEN.slice(0, 20)],
    ])('refuses %s with 401 unauthorized', async (_name, token) => {
      const response = await report('', token);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unauthorized');
    });

    it('400 for an unknown window or remote', async () => {
      expect((await report('?window=1w')).status).toBe(400);
      expect((await report('?remote=evil')).status).toBe(400);
    });

    it('counts sessions, error rate and exact p75 per remote and build, in buckets', async () => {
      const now = new Date();
      const minutesAgo = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
      // Canary: 4 pages, 1 with a failure; LCP 1000, 2000, 3000, 4000 → nearest-rank p75 = 3000.
      // Baseline: 5 pages, none failed; INP 100..500 → p75 = 400 (rank ceil(0.75 × 5) = 4).
      const rows = [
        ...[1000, 2000, 3000, 4000].map((lcp, index) =>
          toRows(
            valid(
              pageBatch({
                builds: { signup: CANARY },
                events: [
                  { type: 'vital', name: 'LCP', value: lcp, remote: 'signup', t: 1 },
                  ...(index === 0 ? [{ type: 'render_error', remote: 'signup', errorName: 'TypeError', t: 2 }] : []),
                ],
              }),
            ),
            minutesAgo(index === 3 ? 40 : 2),
            ROUTE_OWNERS,
          ),
        ),
        ...[100, 200, 300, 400, 500].map((inp) =>
          toRows(
            valid(
              pageBatch({
                builds: { signup: BASELINE },
                events: [{ type: 'vital', name: 'INP', value: inp, remote: null, t: 1 }],
              }),
            ),
            minutesAgo(3),
            ROUTE_OWNERS,
          ),
        ),
        // Outside the hour: counted by the day only.
        toRows(valid(pageBatch({ builds: { signup: CANARY } })), minutesAgo(120), ROUTE_OWNERS),
      ];
      await insertRows(
        server.db,
        rows.flatMap((row) => row.sessions),
        rows.flatMap((row) => row.events),
      );

      const hour = await buildReport(server.db, { window: '1h', now });
      expect(hour.buckets.length).toBeGreaterThanOrEqual(12);
      const signup = hour.remotes.find((remote) => remote.remote === 'signup');
      const [baseline, canary] = signup?.builds ?? [];
      expect(canary).toMatchObject({ build: CANARY, sessions: 4, failedSessions: 1, errorRate: 0.25 });
      expect(canary?.p75).toEqual({ LCP: 3000, INP: null, CLS: null });
      expect(baseline).toMatchObject({ build: BASELINE, sessions: 5, failedSessions: 0, errorRate: 0 });
      expect(baseline?.p75).toEqual({ LCP: null, INP: 400, CLS: null });
      // The time series: the canary's 3 recent pages in the last bucket or the one before, 1 some 40 minutes back.
      expect(canary?.series.sessions.reduce((sum, value) => sum + value, 0)).toBe(4);
      expect(canary?.series.sessions).toHaveLength(hour.buckets.length);
      expect(canary?.series.errorRate.filter((value) => value !== null).length).toBeGreaterThanOrEqual(2);

      const day = await buildReport(server.db, { window: '1d', now, remote: 'signup' });
      expect(day.bucketSeconds).toBe(3600);
      expect(day.remotes.map((remote) => remote.remote)).toEqual(['signup']);
      expect(day.remotes[0]?.builds.find((build) => build.build === CANARY)?.sessions).toBe(5);

      const response = await report('?window=1h&remote=signup');
      expect(response.status).toBe(200);
      const body = (await response.json()) as TelemetryReport;
      expect(body.remotes[0]?.builds.map((build) => [build.build, build.sessions])).toEqual([
        [BASELINE, 5],
        [CANARY, 4],
      ]);
    });

    it('says per build which engines the vitals came from; a vital an engine lacks is missing, not 0', async () => {
      // What each engine measures (docs/browsers.md): Gecko has LCP and INP but no CLS; WebKit none.
      const vitals = (names: readonly string[]) =>
        pageBatch({
          builds: { signup: CANARY },
          events: names.map((name, index) => ({
            type: 'vital',
            name,
            value: name === 'CLS' ? 0.02 : 1000 + index,
            remote: 'signup',
            t: 100 + index,
          })),
        });
      const agents = {
        blink:
          'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
        gecko: 'Mozilla/5.0 (Android 14; Mobile; rv:153.0) Gecko/153.0 Firefox/153.0',
        webkit:
          'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      };
      const sent = [
        await post(server, vitals(['LCP', 'INP', 'CLS']), { 'user-agent': agents.blink }),
        await post(server, vitals(['LCP', 'INP', 'CLS']), { 'user-agent': agents.blink }),
        await post(server, vitals(['LCP', 'INP']), { 'user-agent': agents.gecko }),
        await post(server, vitals(['FCP']), { 'user-agent': agents.webkit }),
      ];
      expect(sent.map((response) => response.status)).toEqual([202, 202, 202, 202]);
      await server.telemetry.flush();

      const body = (await (await report('?window=1h&remote=signup')).json()) as TelemetryReport;
      const canary = body.remotes[0]?.builds.find((build) => build.build === CANARY);
      expect(canary?.sessions).toBe(4);
      // Each p75's sample: the sessions that reported the vital (webkit's page view reported none of them).
      expect(canary?.samples).toEqual({ LCP: 3, INP: 3, CLS: 2 });
      expect(canary?.engines).toEqual([
        { engine: 'blink', sessions: 2, failedSessions: 0, p75: { LCP: 1000, INP: 1001, CLS: 0.02 } },
        { engine: 'gecko', sessions: 1, failedSessions: 0, p75: { LCP: 1000, INP: 1001, CLS: null } },
        { engine: 'webkit', sessions: 1, failedSessions: 0, p75: { LCP: null, INP: null, CLS: null } },
      ]);
      // Only the engine's class is stored, never the User-Agent itself.
      const stored = await server.db.query<{ row: string }>(
        'SELECT row_to_json(s)::text AS row FROM telemetry_sessions s',
      );
      for (const { row } of stored.rows) expect(row).not.toMatch(/Mozilla|Android|iPhone/);
    });

    it('serves the page, its script and styles with a strict policy and no inline script', async () => {
      const page = await fetch(`${server.baseUrl}/v1/telemetry/report.html`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await page.text();
      expect(html).toContain('<script src="report.js" defer></script>');
      expect(html).not.toMatch(/<script>|src="\//);
      const script = await fetch(`${server.baseUrl}/v1/telemetry/report.js`);
      expect(script.headers.get('content-type')).toMatch(/javascript/);
      expect((await script.text()).length).toBeGreaterThan(10_000);
      const css = await fetch(`${server.baseUrl}/v1/telemetry/report.css`);
      expect(await css.text()).toContain('.uplot');
    });
  });

  describe('retention', () => {
    it('purges what is older than the retention, keeps the rest', async () => {
      const old = toRows(valid(pageBatch()), new Date(Date.now() - 31 * 86_400_000).toISOString(), ROUTE_OWNERS);
      const recent = toRows(valid(pageBatch()), new Date(Date.now() - 29 * 86_400_000).toISOString(), ROUTE_OWNERS);
      await insertRows(server.db, [...old.sessions, ...recent.sessions], [...old.events, ...recent.events]);
      expect(await purgeTelemetry(server.db, { retentionDays: 30 })).toBe(old.sessions.length + old.events.length);
      expect(await count(server, 'telemetry_sessions')).toBe(recent.sessions.length);
      expect(await count(server, 'telemetry_events')).toBe(recent.events.length);
    });
  });
});

describe('rate limit and buffer', () => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  it('429 past the per-client limit', async () => {
    server = await startTestServer({ telemetryBatchesPerMinute: 3 });
    const statuses: number[] = [];
    for (let index = 0; index < 5; index += 1) statuses.push((await post(server, pageBatch())).status);
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
  });

  it('the buffer drops and counts when full, and writes everything else on close', async () => {
    server = await startTestServer({ telemetryBatchesPerMinute: 0 });
    const store = new TelemetryStore(server.db, ROUTE_OWNERS, { maxBufferedRows: 20, flushEveryMs: 3_600_000 });
    const batch = toRows(valid(pageBatch()), '', ROUTE_OWNERS);
    const perBatch = batch.sessions.length + batch.events.length; // 8
    const accepted = [1, 2, 3].map(() => store.accept(valid(pageBatch())));
    expect(accepted).toEqual([true, true, false]);
    expect(store.counts).toMatchObject({ accepted: 2, dropped: 1 });
    await store.close();
    expect(store.counts.writtenRows).toBe(2 * perBatch);
    expect(store.accept(valid(pageBatch()))).toBe(false);
  });
});
