// Rollout webhooks against a real local receiver (node:http), which verifies every delivery with
// the Standard Webhooks reference library: retries with the same webhook-id, 410 removes the
// webhook, and a URL the policy refuses is never stored.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Rollout } from '@special-gift/shared/api';
import { testEngines } from '../../test/support/test-databases';
import type { TestServer } from '../../test/support/test-server';
import type * as NativePglite from '../../test/support/native-pglite';
import {
  answerGateJobs,
  CANDIDATE,
  caller,
  OPERATOR,
  startRolloutServer,
  TEST_PLAN,
  testClock,
  testRunner,
} from '../../test/support/rollouts';
import { WebhookPump } from './webhook-pump';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);
jest.setTimeout(120_000);

interface Received {
  readonly path: string;
  readonly id: string;
  readonly type: string;
  readonly verified: boolean;
}

/** A team's receiver: verifies each request with the secret it was given, answers what `answer` says. */
function receiver(answer: (path: string, type: string, attempt: number) => number) {
  const received: Received[] = [];
  let secret = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = req.headers as IncomingHttpHeaders & Record<string, string>;
      let verified = true;
      try {
        new Webhook(secret).verify(body, headers);
      } catch {
        verified = false;
      }
      const type = (JSON.parse(body) as { type: string }).type;
      const id = headers['webhook-id'] ?? '';
      received.push({ path: req.url ?? '', id, type, verified });
      const attempt = received.filter((entry) => entry.id === id).length;
      res.writeHead(answer(req.url ?? '', type, attempt)).end();
    });
  });
  return {
    received,
    setSecret: (value: string) => void (secret = value),
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe.each(testEngines())('rollout webhooks on %s', (engine) => {
  let server: TestServer;
  let clock: ReturnType<typeof testClock>;
  let call: ReturnType<typeof caller>;
  let team: ReturnType<typeof receiver>;
  let base: string;

  beforeEach(async () => {
    // Receivers refuse a timestamp more than 5 minutes from their own clock (replay protection).
    clock = testClock(new Date());
    server = await startRolloutServer(engine, clock.now);
    call = caller(server.baseUrl);
    // The first delivery of the started event fails twice (500), then is taken; `/gone` says 410.
    team = receiver((path, type, attempt) =>
      path === '/gone' ? 410 : type === 'rollout.started' && attempt <= 2 ? 500 : 204,
    );
    base = await team.listen();
  });
  afterEach(async () => {
    await server?.close();
    await team?.close();
  });

  const pump = () =>
    new WebhookPump({
      db: server.db,
      environment: 'production',
      key: OPERATOR,
      allowedHosts: ['127.0.0.1'],
      everyMs: 1000,
      log: () => undefined,
      clock: clock.now,
    });

  it('signs every event, retries a failed one with the same id, and reports the deliveries', async () => {
    const set = await call<{ secret: string; generation: number }>('PUT', '/v1/rollouts/webhooks/signup', OPERATOR, {
      url: `${base}/hooks`,
    });
    expect(set.status).toBe(200);
    expect(set.body.secret).toMatch(/^whsec_/);
    team.setSecret(set.body.secret);
    const started = await call<Rollout>('POST', '/v1/rollouts', OPERATOR, {
      remote: 'signup',
      buildId: CANDIDATE,
      plan: TEST_PLAN,
      reason: 'ship it',
    });
    expect(started.status).toBe(201);
    const runner = testRunner({ db: server.db, clock: clock.now });
    await runner.tick(); // the contract gate
    await answerGateJobs(call); // integrity and acceptance
    clock.advance(1);
    await runner.tick(); // the first share

    const webhooks = pump();
    expect(await webhooks.tick()).toEqual({ enqueued: 5, attempted: 5 });
    expect(team.received.map((entry) => `${entry.type} ${entry.verified}`)).toEqual([
      'rollout.started true',
      'gate.passed true',
      'gate.passed true',
      'gate.passed true',
      'step.advanced true',
    ]);
    expect(await webhooks.tick()).toEqual({ enqueued: 0, attempted: 0 }); // the retry is not due yet
    clock.advance(10);
    await webhooks.tick(); // second attempt: 500 again
    clock.advance(29);
    expect(await webhooks.tick()).toEqual({ enqueued: 0, attempted: 0 });
    clock.advance(1);
    await webhooks.tick(); // third: taken
    const startedId = `msg_${started.body.id}_1`;
    expect(team.received.filter((entry) => entry.id === startedId).map((entry) => entry.verified)).toEqual([
      true,
      true,
      true,
    ]);
    const report = await call<{ deliveries: { id: string; attempts: number; deliveredAt: string | null }[] }>(
      'GET',
      '/v1/rollouts/webhooks/signup',
      OPERATOR,
    );
    expect(report.body.deliveries.find((delivery) => delivery.id === startedId)).toMatchObject({
      attempts: 3,
      deliveredAt: clock.now().toISOString(),
    });

    // A rotated secret: the next delivery is signed with the new one, which the old cannot verify.
    const rotated = await call<{ secret: string; generation: number }>(
      'POST',
      '/v1/rollouts/webhooks/signup/rotate',
      OPERATOR,
    );
    expect(rotated.body.generation).toBe(2);
    const { version } = (await call<Rollout>('GET', `/v1/rollouts/${started.body.id}`, OPERATOR)).body;
    expect(
      (await call('POST', `/v1/rollouts/${started.body.id}/pause`, OPERATOR, { expectedVersion: version, reason: 'x' }))
        .status,
    ).toBe(200);
    await webhooks.tick();
    expect(team.received.at(-1)).toMatchObject({ type: 'rollout.paused', verified: false });
    team.setSecret(rotated.body.secret);
    expect(
      (
        await call('POST', `/v1/rollouts/${started.body.id}/resume`, OPERATOR, {
          expectedVersion: version + 1,
          reason: 'x',
        })
      ).status,
    ).toBe(200);
    await webhooks.tick();
    expect(team.received.at(-1)).toMatchObject({ type: 'rollout.resumed', verified: true });
  });

  it('stops posting to a receiver that answers 410, and refuses URLs the policy forbids', async () => {
    expect((await call('PUT', '/v1/rollouts/webhooks/signup', OPERATOR, { url: 'http://10.0.0.1/hooks' })).status).toBe(
      422,
    );
    expect((await call('GET', '/v1/rollouts/webhooks/signup/secret', OPERATOR)).status).toBe(404);
    expect((await call('PUT', '/v1/rollouts/webhooks/signup', OPERATOR, { url: `${base}/gone` })).status).toBe(200);
    await call('POST', '/v1/rollouts', OPERATOR, {
      remote: 'signup',
      buildId: CANDIDATE,
      plan: TEST_PLAN,
      reason: 'x',
    });
    const webhooks = pump();
    await webhooks.tick();
    expect(team.received.map((entry) => entry.path)).toEqual(['/gone']);
    const after = await call<{ webhook: unknown }>('GET', '/v1/rollouts/webhooks/signup', OPERATOR);
    expect(after.body.webhook).toBeNull();
    await testRunner({ db: server.db, clock: clock.now }).tick(); // a new event: nowhere to send it
    clock.advance(60);
    await webhooks.tick();
    expect(team.received).toHaveLength(1);
    const audit = await server.db.query<{ from_state: string; to_state: string }>(
      "SELECT from_state, to_state FROM audit_trail WHERE action = 'rollout-webhook' ORDER BY id",
    );
    expect(audit.rows).toEqual([{ from_state: 'none', to_state: `${base}/gone` }]);
  });
});
