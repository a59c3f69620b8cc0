// The canary verdict end to end: releases and telemetry in the real API (in-process), the verdict
// command of release-cli/src/telemetry reading both. A canary build with an injected failure rate is rolled
// back by the verdict itself (`--act yes`): its pointer's canary is aborted. Only signed page views
// count: a script's unsigned, replayed or forged batches move no verdict (issue 32's attack).
// The sequential rule's minimum is set small through the API's configuration, as ROLLOUT_MIN_VIEWS
// would (docs/rollouts.md), so the test sends fewer page views.
import { main as telemetryCommand } from '../../release-cli/src/telemetry/telemetry-tool';
import { rolloutRuleFromEnv } from '../src/rollouts';
import type * as NativePglite from './support/native-pglite';
import { JUDGED_PER_NETWORK } from '../src/telemetry/report-query';
import { askPageToken, postTelemetry } from './support/http-client';
import { startTestServer, type TestServer } from './support/test-server';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('./support/native-pglite').loadPgliteNatively(),
);
jest.setTimeout(120_000);

const TOKEN = 'verdict-test-operator-token-0123456789';
const LIVE = 'aaaaaaaaaaa1';
const CANARY = 'bbbbbbbbbbb2';
const MIN_VIEWS = 100;
const SESSIONS = 300;

let api: TestServer;
const env = { ...process.env };

beforeAll(async () => {
  api = await startTestServer({
    operatorToken: TOKEN,
    telemetryBatchesPerMinute: 0,
    pageTokensPerMinute: 0,
    // The test stands for the host's proxy: each page view's visitor is its X-Forwarded-For.
    trustedProxies: ['127.0.0.1', '::1'],
    rolloutRule: rolloutRuleFromEnv({ ROLLOUT_MIN_VIEWS: String(MIN_VIEWS) }),
  });
  Object.assign(process.env, { SG_RELEASE_API: api.baseUrl, OPERATOR_TOKEN: TOKEN });
});
afterAll(async () => {
  process.env = env;
  await api.close();
});

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  const response = await fetch(`${api.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (response.status >= 400) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response;
}
const revision = async () =>
  ((await (await call('GET', '/v1/releases/remotes/signup')).json()) as { revision: number }).revision;
const act = async (action: string, extra: Record<string, unknown> = {}) =>
  call('POST', '/v1/releases/remotes/signup/actions', {
    action,
    expectedRevision: await revision(),
    reason: 'verdict test',
    ...extra,
  });

/** The page token the composer would write into a page of `bucket` (the canary is at 20 %: buckets 0-19). */
async function pageToken(bucket: number, build: string, client?: string): Promise<string> {
  const answer = await askPageToken(api.baseUrl, bucket, `signup=${build}`, client);
  expect(answer.status).toBe(200);
  return answer.text();
}

/**
 * `sessions` page views of /sign-up on `build`, the first `failing` of them with a load failure:
 * `signed` as real visitors' pages send them (each its own page's token, each visitor on a network of
 * its own), `one-network` as a script fetching real pages from one network and spending their
 * tokens, `unsigned` as a script with no page behind it does, `replayed` as a script reusing one
 * real page's token.
 */
async function pageViews(
  build: string,
  sessions: number,
  failing: number,
  how: 'signed' | 'one-network' | 'unsigned' | 'replayed' = 'signed',
): Promise<void> {
  const bucket = build === CANARY ? 5 : 50;
  const shared = how === 'replayed' ? await pageToken(bucket, build) : undefined;
  for (let i = 0; i < sessions; i += 1) {
    const client =
      how === 'signed' ? `10.${(i >> 8) & 255}.${i & 255}.1` : how === 'one-network' ? '192.0.2.1' : undefined;
    const token = how === 'signed' || how === 'one-network' ? await pageToken(bucket, build, client) : shared;
    const events: unknown[] = [
      { type: 'vital', name: 'LCP', value: 1200, remote: 'signup', t: 1300 },
      { type: 'vital', name: 'INP', value: 80, remote: 'signup', t: 5000 },
    ];
    if (i < failing)
      events.push({ type: 'load_failure', remote: 'signup', phase: 'lazy_chunk', kind: 'network', t: 4000 });
    const response = await postTelemetry(
      api.baseUrl,
      {
        v: 1,
        route: '/sign-up',
        device: 'phone',
        builds: { intro: 'image', signup: build, thankyou: 'image' },
        events,
        ...(token === undefined ? {} : { token }),
      },
      client,
    );
    expect(response.status).toBe(202);
  }
}

async function signedSessions(build: string): Promise<number> {
  const report = (await (await call('GET', '/v1/telemetry/report?window=1h&remote=signup')).json()) as {
    remotes: Array<{ remote: string; builds: Array<{ build: string; signed: { sessions: number } }> }>;
  };
  return report.remotes.find((r) => r.remote === 'signup')?.builds.find((b) => b.build === build)?.signed.sessions ?? 0;
}

async function reportedSessions(build: string): Promise<number> {
  const report = (await (await call('GET', '/v1/telemetry/report?window=1h&remote=signup')).json()) as {
    remotes: Array<{ remote: string; builds: Array<{ build: string; sessions: number }> }>;
  };
  return report.remotes.find((r) => r.remote === 'signup')?.builds.find((b) => b.build === build)?.sessions ?? 0;
}

it('holds without enough sessions, then rolls a failing canary back by itself', async () => {
  for (const buildId of [LIVE, CANARY])
    await call('POST', '/v1/releases/builds', {
      remote: 'signup',
      buildId,
      contractMajor: 1,
      files: 9,
      bytes: 9000,
      integrity: { 'remoteEntry.js': `sha384-${'E'.repeat(64)}` },
    });
  await act('release', { buildId: LIVE });
  await act('canary', { buildId: CANARY, percent: 20 });
  // The verdict runs as the team's deployer token, and acts even on a locked remote.
  const created = await call('POST', '/v1/access/tokens', {
    remote: 'signup',
    role: 'deployer',
    name: 'signup verdict',
    expiresInDays: 1,
  });
  expect(created.status).toBe(201);
  const { token, id } = (await created.json()) as { token: string; id: string };
  const locked = await call('POST', '/v1/releases/remotes/signup/lock', { reason: 'incident: canary under watch' });
  expect(locked.status).toBe(200);
  process.env.SG_RELEASE_TOKEN = token;
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    // No field data yet: the arms come from the pointer, and there is nothing to judge.
    expect(await telemetryCommand(['verdict', 'signup', '--act', 'yes'])).toBe(2);

    // Issue 32's attack: a script with no page view behind it posts 700 batches per arm, errors on
    // the canary's; another replays one real page's token 700 times. All get 202 and show in the
    // report, and the verdict, which counts signed page views only, holds: no rollback.
    await pageViews(LIVE, 700, 0, 'unsigned');
    await pageViews(CANARY, 700, 700, 'unsigned');
    await pageViews(CANARY, 700, 700, 'replayed');
    await api.telemetry.flush();
    expect(await reportedSessions(CANARY)).toBe(1400);
    expect(await signedSessions(CANARY)).toBe(1);
    expect(await telemetryCommand(['verdict', 'signup', '--act', 'yes'])).toBe(2);
    const held = log.mock.calls.map((args) => args.join(' ')).join('\n');
    expect(held).toMatch(new RegExp(`canary +${CANARY} +1 +1 .* 700 +699 \\(replayed 699\\)`));
    expect(held).not.toContain('Aborted');
    log.mockClear();

    // The same script fetching 200 real pages from one network and spending each token once, with
    // errors: all signed, but the verdict judges at most JUDGED_PER_NETWORK of one network's.
    await pageViews(CANARY, 200, 200, 'one-network');
    await api.telemetry.flush();
    expect(await signedSessions(CANARY)).toBe(1 + JUDGED_PER_NETWORK);
    expect(await telemetryCommand(['verdict', 'signup', '--act', 'yes'])).toBe(2);
    log.mockClear();

    // The baseline fails 1 % of its page views, the canary 6 %: real pages, each signed. The rule,
    // checked at any moment, proves the canary worse (always-valid p under 0.05) and rolls it back.
    await pageViews(LIVE, SESSIONS, Math.round(SESSIONS * 0.01));
    await pageViews(CANARY, SESSIONS, Math.round(SESSIONS * 0.06));
    await api.telemetry.flush(); // the test server writes its buffer on demand
    expect(await signedSessions(CANARY)).toBe(SESSIONS + 1 + JUDGED_PER_NETWORK);

    expect(await telemetryCommand(['verdict', 'signup', '--act', 'yes'])).toBe(3);
    const printed = log.mock.calls.map((args) => args.join(' ')).join('\n');
    expect(printed).toContain('ROLL BACK');
    expect(printed).toMatch(/Error rate 7\.\d\d% against 1\.00% \(harm: log Λ = \d+\.\d\d, always-valid p = 0\.00\d+/);
    expect(printed).toMatch(/errors +2\d\/30\d \(7\.\d\d%\) +3\/300 \(1\.00%\) .* harm/);
    expect(printed).toContain(`Aborted signup's canary ${CANARY}`);
  } finally {
    log.mockRestore();
    delete process.env.SG_RELEASE_TOKEN;
  }
  const state = (await (await call('GET', '/v1/releases/remotes/signup')).json()) as {
    pointer: { live: string; canary: string | null };
    history: Array<{ action: string; actor: string; reason: string }>;
  };
  expect(state.pointer).toMatchObject({ live: LIVE, canary: null });
  expect(state.history[0]).toMatchObject({ action: 'abort', actor: 'signup verdict' });
  expect(state.history[0]?.reason).toMatch(/^canary verdict: /);
  const audit = (await (await call('GET', '/v1/access/audit?remote=signup')).json()) as {
    entries: Array<{ action: string; tokenId: string; reason: string }>;
  };
  expect(audit.entries[0]).toMatchObject({ action: 'abort', tokenId: id });
});
