import { sriOf } from '../../release-cli/src/sri';
import { pollGates, readConfig } from './main';
import { gateJob, readBody, refusedUrl, startServer } from './test-support';

describe("the gate runner's settings", () => {
  it('reads its environment with the documented defaults', () => {
    expect(
      readConfig({ API_URL: 'http://127.0.0.1:3004/', GATE_RUNNER_TOKEN: 't', GATE_HOST_URL: 'http://localhost:3000' }),
    ).toEqual({
      apiUrl: 'http://127.0.0.1:3004',
      token: 't',
      hostUrl: 'http://localhost:3000',
      chromiumPath: '/usr/bin/chromium',
      pollSeconds: 5,
      settleMs: 1500,
      healthPort: undefined,
    });
  });

  it("keeps the API's path, where a proxy serves it under one, and takes the host's origin", () => {
    expect(
      readConfig({
        API_URL: 'https://app.example/api/',
        GATE_RUNNER_TOKEN: 't',
        GATE_HOST_URL: 'https://app.example/sign-up',
      }),
    ).toMatchObject({ apiUrl: 'https://app.example/api', hostUrl: 'https://app.example' });
  });

  it('names every bad setting at once', () => {
    expect(() =>
      readConfig({ API_URL: 'ftp://x', GATE_POLL_SECONDS: '0', GATE_SETTLE_MS: '1.5', GATE_HEALTH_PORT: 'x' }),
    ).toThrow(
      'The gate runner cannot start: API_URL must be an http(s) URL, not "ftp://x"; GATE_HOST_URL must be an http(s) URL (it is not set); ' +
        'GATE_RUNNER_TOKEN must be set: the API\'s credential for gate runners; GATE_POLL_SECONDS must be a number of seconds above 0, at most 3600, not "0"; ' +
        'GATE_SETTLE_MS must be whole milliseconds up to 60000, not "1.5"; GATE_HEALTH_PORT must be a port number, not "x".',
    );
  });
});

describe("the gate runner's poll loop", () => {
  it('claims a gate, runs it against the host and answers it with the claim nonce, then keeps polling', async () => {
    const entry = 'var signup = {};\n';
    const job = gateJob({
      rolloutId: 'r-7',
      gate: 'integrity',
      nonce: 'n-7',
      integrity: { 'remoteEntry.js': sriOf(entry) },
    });
    const host = await startServer((req, res) => {
      if (req.url === '/config.json')
        res.end(JSON.stringify({ remotes: { signup: '/remotes/signup/remoteEntry.js' } }));
      else if (req.url === '/remotes/signup/builds/0123456789ab/remoteEntry.js') res.end(entry);
      else res.writeHead(404).end();
    });
    const stop = new AbortController();
    const results: unknown[] = [];
    let claims = 0;
    const api = await startServer(async (req, res) => {
      const body = await readBody(req);
      if (req.url === '/v1/rollouts/gate-jobs/claim') {
        claims++;
        if (claims === 1) res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(job));
        else {
          stop.abort(); // the second claim: the loop went back to polling
          res.writeHead(204).end();
        }
      } else if (req.url === '/v1/rollouts/gate-jobs/r-7/integrity/result') {
        results.push(JSON.parse(body));
        res.writeHead(204).end();
      } else res.writeHead(404).end();
    });
    try {
      const liveness = { lastPollOkAt: undefined as number | undefined };
      const config = readConfig({
        API_URL: api.url,
        GATE_RUNNER_TOKEN: 't',
        GATE_HOST_URL: host.url,
        GATE_POLL_SECONDS: '0.05',
      });
      const logged: string[] = [];
      await pollGates(config, liveness, stop.signal, (line) => logged.push(line));
      expect(results).toEqual([
        expect.objectContaining({
          nonce: 'n-7',
          outcome: 'passed',
          reason: 'All 1 files (17 bytes) match their recorded integrity.',
        }),
      ]);
      expect(claims).toBe(2);
      expect(logged).toEqual([
        'running the integrity of signup 0123456789ab (rollout r-7)',
        'the integrity of signup 0123456789ab (rollout r-7): passed: All 1 files (17 bytes) match their recorded integrity.',
      ]);
      expect(liveness.lastPollOkAt).toBeDefined();
    } finally {
      await Promise.all([api.close(), host.close()]);
    }
  });

  it('after an inconclusive answer, waits a poll interval before it claims again', async () => {
    const job = gateJob({
      rolloutId: 'r-8',
      gate: 'integrity',
      nonce: 'n-8',
      integrity: { 'remoteEntry.js': sriOf('var signup = {};\n') },
    });
    const stop = new AbortController();
    const events: Array<[string, number]> = [];
    const api = await startServer(async (req, res) => {
      await readBody(req);
      events.push([req.url ?? '', Date.now()]);
      if (req.url === '/v1/rollouts/gate-jobs/claim') {
        // The same gate, pending again after its inconclusive answer.
        if (events.filter(([url]) => url === req.url).length === 1)
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(job));
        else {
          stop.abort();
          res.writeHead(204).end();
        }
      } else res.writeHead(204).end();
    });
    try {
      const config = readConfig({
        API_URL: api.url,
        GATE_RUNNER_TOKEN: 't',
        GATE_HOST_URL: await refusedUrl(),
        GATE_POLL_SECONDS: '0.4',
      });
      const logged: string[] = [];
      await pollGates(config, { lastPollOkAt: undefined }, stop.signal, (line) => logged.push(line));
      expect(logged[1]).toMatch(/^the integrity of signup 0123456789ab \(rollout r-8\): inconclusive: /);
      expect(events.map(([url]) => url)).toEqual([
        '/v1/rollouts/gate-jobs/claim',
        '/v1/rollouts/gate-jobs/r-8/integrity/result',
        '/v1/rollouts/gate-jobs/claim',
      ]);
      const [, answered = 0] = events[1] ?? [];
      const [, claimedAgain = 0] = events[2] ?? [];
      expect(claimedAgain - answered).toBeGreaterThanOrEqual(400);
    } finally {
      await api.close();
    }
  });

  it('counts each heartbeat the API takes as reaching it: a long gate keeps /health up', async () => {
    const entry = 'var signup = {};\n';
    // A claim that lapses in 3 s: a heartbeat every second.
    const job = gateJob({
      rolloutId: 'r-9',
      gate: 'integrity',
      nonce: 'n-9',
      integrity: { 'remoteEntry.js': sriOf(entry) },
      deadline: new Date(Date.now() + 3_000).toISOString(),
    });
    const host = await startServer((req, res) => {
      if (req.url === '/config.json')
        res.end(JSON.stringify({ remotes: { signup: '/remotes/signup/remoteEntry.js' } }));
      // The build's file comes slowly: the gate takes 2.5 s.
      else setTimeout(() => res.end(entry), 2_500);
    });
    const stop = new AbortController();
    const liveness = { lastPollOkAt: undefined as number | undefined };
    let claimedAt = 0;
    let heartbeats = 0;
    let livenessAtResult: number | undefined;
    const api = await startServer(async (req, res) => {
      await readBody(req);
      if (req.url === '/v1/rollouts/gate-jobs/claim') {
        if (claimedAt === 0) {
          claimedAt = Date.now();
          res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(job));
        } else {
          stop.abort();
          res.writeHead(204).end();
        }
      } else {
        if (req.url?.endsWith('/heartbeat')) heartbeats++;
        else livenessAtResult = liveness.lastPollOkAt;
        res.writeHead(204).end();
      }
    });
    try {
      const config = readConfig({
        API_URL: api.url,
        GATE_RUNNER_TOKEN: 't',
        GATE_HOST_URL: host.url,
        GATE_POLL_SECONDS: '0.05',
      });
      await pollGates(config, liveness, stop.signal, () => undefined);
      expect(heartbeats).toBeGreaterThanOrEqual(2);
      // Later than the claim: a heartbeat set it while the gate ran.
      expect(livenessAtResult).toBeGreaterThan(claimedAt + 900);
    } finally {
      await Promise.all([api.close(), host.close()]);
    }
  });
});
