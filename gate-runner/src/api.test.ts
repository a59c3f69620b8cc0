import { gateApi, GateApiError, GateJobGone } from './api';
import { gateJob, readBody, refusedUrl, startServer, type LocalServer } from './test-support';

const TOKEN = 'gate-runner-token-of-at-least-32-chars';
const JOB = gateJob({ integrity: { 'remoteEntry.js': 'sha384-abc' } });

/** A stand-in for the API's gate-job routes: answers by path, and keeps what it was sent. */
let answers: Record<string, { status: number; body?: unknown }>;
let received: Array<{ path: string; authorization?: string; body: unknown }>;
let api: LocalServer;

beforeAll(async () => {
  api = await startServer(async (req, res) => {
    const body = await readBody(req);
    received.push({
      path: req.url ?? '',
      authorization: req.headers.authorization,
      body: body ? JSON.parse(body) : undefined,
    });
    const answer = answers[req.url ?? ''] ?? {
      status: 404,
      body: { error: { code: 'not_found', message: 'No route.' } },
    };
    res.writeHead(answer.status, answer.body === undefined ? {} : { 'Content-Type': 'application/json' });
    res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
  });
});
afterAll(() => api.close());
beforeEach(() => {
  answers = {};
  received = [];
});

const client = () => gateApi({ apiUrl: api.url, token: TOKEN });

describe('the gate-job API client', () => {
  it('claims with the bearer token: null on 204, the job on 200', async () => {
    answers['/v1/rollouts/gate-jobs/claim'] = { status: 204 };
    await expect(client().claim()).resolves.toBeNull();
    answers['/v1/rollouts/gate-jobs/claim'] = { status: 200, body: JOB };
    await expect(client().claim()).resolves.toEqual(JOB);
    expect(received.map((request) => [request.path, request.authorization])).toEqual([
      ['/v1/rollouts/gate-jobs/claim', `Bearer ${TOKEN}`],
      ['/v1/rollouts/gate-jobs/claim', `Bearer ${TOKEN}`],
    ]);
  });

  it("keeps the base URL's path: an API behind a proxy's prefix (the host's /api/)", async () => {
    answers['/api/v1/rollouts/gate-jobs/claim'] = { status: 204 };
    await expect(gateApi({ apiUrl: `${api.url}/api`, token: TOKEN }).claim()).resolves.toBeNull();
    await expect(gateApi({ apiUrl: `${api.url}/api/`, token: TOKEN }).claim()).resolves.toBeNull();
    expect(received.map((request) => request.path)).toEqual([
      '/api/v1/rollouts/gate-jobs/claim',
      '/api/v1/rollouts/gate-jobs/claim',
    ]);
  });

  it('refuses a claimed job that is not one, saying what is wrong', async () => {
    answers['/v1/rollouts/gate-jobs/claim'] = { status: 200, body: { ...JOB, gate: 'contract', integrity: { a: 1 } } };
    await expect(client().claim()).rejects.toThrow(
      /"gate" is not integrity or acceptance; "integrity" is not an object of strings/,
    );
  });

  it('sends heartbeats and results with the claim nonce, and throws GateJobGone on a 409 gate_job_gone', async () => {
    answers['/v1/rollouts/gate-jobs/r-1/acceptance/heartbeat'] = { status: 204 };
    await client().heartbeat(JOB);
    answers['/v1/rollouts/gate-jobs/r-1/acceptance/result'] = {
      status: 409,
      body: { error: { code: 'gate_job_gone', message: 'The claim expired and the gate was claimed again.' } },
    };
    const verdict = { outcome: 'passed', reason: 'ok', detail: { runs: 2 } } as const;
    await expect(client().result(JOB, verdict)).rejects.toThrow(GateJobGone);
    expect(received.map((request) => request.body)).toEqual([{ nonce: 'n-1' }, { nonce: 'n-1', ...verdict }]);
  });

  it('says when the token is refused, another answer fails, or the API cannot be reached', async () => {
    answers['/v1/rollouts/gate-jobs/claim'] = {
      status: 401,
      body: { error: { code: 'unauthorized', message: 'No.' } },
    };
    await expect(client().claim()).rejects.toThrow(/refused the gate runner's token \(401 unauthorized\)/);
    await expect(client().heartbeat(JOB)).rejects.toThrow(
      new GateApiError('POST /v1/rollouts/gate-jobs/r-1/acceptance/heartbeat answered 404 not_found: No route..'),
    );
    await expect(gateApi({ apiUrl: await refusedUrl(), token: TOKEN }).claim()).rejects.toThrow(
      /^Cannot reach the API at http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED/,
    );
    expect(() => gateApi({ apiUrl: api.url, token: '' })).toThrow(/GATE_RUNNER_TOKEN is empty/);
  });
});
