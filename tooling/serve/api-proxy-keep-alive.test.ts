/**
 * The host's local server (`npm run up`, static-server.ts) between a client and an API, where an
 * idle keep-alive connection is closed by one side while the other still counts on it. Issue 40:
 * after a burst of page views, a POST through `/api` failed with the socket closed (undici's
 * `UND_ERR_SOCKET`) and the API never saw it.
 *
 * - The client's connection to the host: the client's loop is held by a synchronous command (as
 *   e2e/support/releases.ts runs the release CLI, with execFileSync) past the host's keep-alive
 *   (Node's default, 5 s, nginx's 75 s), so its next request goes on a socket the host has closed.
 * - The host's connection to the API: the host's loop is held (SIGSTOP: a busy or paused process)
 *   while the API closes its idle keep-alive connections (Node's 5 s, which the API keeps), so a
 *   POST that came in meanwhile is written on one of them.
 *
 * The API stand-in is a Node server with Node's keep-alive, as the API's (api/src/http/protocol-errors.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { PAGE_TEMPLATE_FILE, toPageTemplate } from '../composition/composition';
import { startServer, stopServer, type ServerUnderTest } from './server-under-test';

jest.setTimeout(60_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let api: Server;
let apiUrl: string;
/** The API's open connections. */
const apiSockets = new Set<Socket>();
/** Each sign-up the API received, by its Idempotency-Key. */
const signUps = new Map<string, number>();
let root: string;
let host: ServerUnderTest;
let hostUrl: string;

beforeAll(async () => {
  api = createServer((req, res) => {
    req.resume().on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      const key = String(req.headers['idempotency-key']);
      signUps.set(key, (signUps.get(key) ?? 0) + 1);
      res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    });
  });
  api.on('connection', (socket: Socket) => {
    apiSockets.add(socket);
    socket.once('close', () => apiSockets.delete(socket));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

  // A host build to compose pages from: each page view asks the API for its snapshot and token.
  root = mkdtempSync(join(tmpdir(), 'special-gift-keep-alive-'));
  const index =
    '<!doctype html><html lang=en dir=ltr><head><title>x</title><script defer src=/main.1.js></script></head><body><div id=root></div></body></html>';
  writeFileSync(join(root, 'index.html'), index);
  writeFileSync(join(root, PAGE_TEMPLATE_FILE), toPageTemplate(index, 1, '/page-loader.1.js'));
  const unreachable = 'http://127.0.0.1:1';
  host = await startServer({
    root,
    spa: true,
    apiTarget: apiUrl,
    config: {
      remotes: {
        intro: `${unreachable}/intro/remoteEntry.js`,
        signup: `${unreachable}/signup/remoteEntry.js`,
        thankyou: `${unreachable}/thankyou/remoteEntry.js`,
      },
      defaultLanguage: 'en',
    },
  });
  hostUrl = `http://127.0.0.1:${host.port}`;
});

afterAll(async () => {
  if (host) {
    host.child.kill('SIGCONT');
    await stopServer(host.child);
  }
  api?.closeAllConnections();
  await new Promise((resolve) => api?.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

/**
 * A client in a thread of its own, with its own connection pool (Node's fetch): a burst of page
 * views and API reads through the host, its loop then held `stallMs` (Atomics.wait, as a
 * synchronous child process holds it), then a sign-up POST. What it got: a status or an error code.
 */
function clientWithStall(stallMs: number, key: string): Promise<{ status?: number; error?: string }> {
  const code = `
    const { parentPort, workerData: { base, stallMs, key } } = require('node:worker_threads');
    (async () => {
      const views = ['/', '/sign-up', '/thank-you', '/api/v1/ready'];
      await Promise.all(views.flatMap((path) => [0, 1].map(() => fetch(base + path).then((r) => r.text()))));
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, stallMs);
      try {
        const response = await fetch(base + '/api/v1/sign-ups', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key },
          body: '{}',
        });
        await response.text();
        parentPort.postMessage({ status: response.status });
      } catch (error) {
        parentPort.postMessage({ error: error.cause?.code ?? String(error) });
      }
    })();`;
  const worker = new Worker(code, { eval: true, workerData: { base: hostUrl, stallMs, key } });
  return new Promise((resolve, reject) => {
    worker.once('message', (message: { status?: number; error?: string }) => {
      void worker.terminate();
      resolve(message);
    });
    worker.once('error', reject);
  });
}

const signUp = (key: string, init: RequestInit = {}) =>
  fetch(`${hostUrl}/api/v1/sign-ups`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': key },
    body: '{}',
    ...init,
  }).then(
    async (response) => ({ status: response.status, body: await response.text() }),
    (error: Error & { cause?: { code?: string } }) => ({ status: 0, body: error.cause?.code ?? String(error) }),
  );

it("a client held 7 s after a burst of page views (past Node's 5 s keep-alive) still gets its POST through, once", async () => {
  const key = 'held-client';
  expect(await clientWithStall(7_000, key)).toEqual({ status: 201 });
  expect(signUps.get(key)).toBe(1);
});

/** One request on `agent`'s connection (Node's http client): its status and body, or the error's code. */
function requestOn(agent: Agent, method: string, path: string, key?: string) {
  return new Promise<{ status: number; body: string }>((resolve) => {
    const headers = key ? { 'content-type': 'application/json', 'idempotency-key': key } : undefined;
    const req = request(`${hostUrl}${path}`, { agent, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: 0, body: error.code ?? String(error) }));
    req.end(key ? '{}' : undefined);
  });
}

it('a POST that reaches the host while it is held as the API closes its idle connections is sent on, once', async () => {
  // A burst through /api: the host's connections to the API, idle after it.
  await Promise.all(Array.from({ length: 8 }, () => fetch(`${hostUrl}/api/v1/ready`).then((r) => r.text())));
  const burstEnded = Date.now();
  await sleep(4_500); // before the API's keep-alive (5 s) ends
  // The client's one connection to the host, just used: the POST arrives on it, not as a new one.
  const client = new Agent({ keepAlive: true, maxSockets: 1 });
  expect((await requestOn(client, 'GET', '/index.html')).status).toBe(200); // a file: no subrequest to the API
  host.child.kill('SIGSTOP');
  try {
    const key = 'held-host';
    const answer = requestOn(client, 'POST', '/api/v1/sign-ups', key);
    // Held until the API has closed every connection it had (its keep-alive over), and 6.5 s at least.
    const until = Date.now() + 5_000;
    while (apiSockets.size > 0 && Date.now() < until) await sleep(50);
    expect(apiSockets.size).toBe(0);
    await sleep(Math.max(100, burstEnded + 6_500 - Date.now()));
    host.child.kill('SIGCONT');
    expect(await answer).toEqual({ status: 201, body: '{}' });
    expect(signUps.get(key)).toBe(1);
  } finally {
    host.child.kill('SIGCONT');
    client.destroy();
  }
});

it('under a load of page views and sign-ups, with idle gaps around both keep-alives, every sign-up goes through once', async () => {
  // Each client waits a different gap each round: 21 sign-ups in about 20 s.
  const GAPS_MS = [0, 900, 2_900, 4_900, 5_100, 5_900, 6_100];
  const ROUNDS = 3;
  const failures: string[] = [];
  await Promise.all(
    GAPS_MS.map(async (_, client) => {
      for (let round = 0; round < ROUNDS; round++) {
        const views = ['/', '/sign-up', '/api/v1/ready'].map((path) =>
          fetch(`${hostUrl}${path}`).then((r) => r.text()),
        );
        await Promise.all(views);
        const gap = GAPS_MS[(client + round * 3) % GAPS_MS.length] ?? 0;
        await sleep(gap);
        const key = `load-${client}-${round}`;
        const { status, body } = await signUp(key);
        if (status !== 201 || signUps.get(key) !== 1) failures.push(`${key} after ${gap} ms: ${status} ${body}`);
      }
    }),
  );
  expect(failures).toEqual([]);
  expect([...signUps.keys()].filter((key) => key.startsWith('load-'))).toHaveLength(GAPS_MS.length * ROUNDS);
});
