import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import express from 'express';
import { createApiServer, REQUEST_TIMEOUTS, requireHost, type RequestTimeouts } from './protocol-errors';
import { errorHandler } from './error-handler';
import { silentLogger } from './logger';

// Requests refused at the protocol level, answered in the JSON error shape, over raw sockets.

async function serve(timeouts?: RequestTimeouts): Promise<{ server: Server; port: number }> {
  const app = express();
  app.use(requireHost);
  app.all('/v1/echo', express.raw({ type: () => true }), (_req, res) => void res.json({ ok: true }));
  app.use(errorHandler(silentLogger));
  const server = createApiServer(app, timeouts);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

async function close(server: Server) {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** Writes `parts` with `pauseMs` between them and the connection kept open; resolves with the answer's status line and body, and when it came. */
function exchange(
  port: number,
  parts: readonly string[],
  pauseMs = 0,
): Promise<{ status: number; code: string | undefined; afterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
    socket.on('close', () => {
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      const code = /"code":"([a-z_]+)"/.exec(body)?.[1];
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), code, afterMs: Date.now() - started });
    });
    void (async () => {
      for (const part of parts) {
        if (socket.destroyed || socket.writableEnded) return;
        socket.write(part);
        if (pauseMs > 0) await new Promise((done) => setTimeout(done, pauseMs));
      }
    })();
  });
}

describe('protocol-level refusals', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => ({ server, port } = await serve()));
  afterAll(() => close(server));

  it('a request with two Host headers is a 400 bad_request', async () => {
    expect(
      await exchange(port, [
        'GET /v1/echo HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n',
      ]),
    ).toMatchObject({ status: 400, code: 'bad_request' });
    expect(
      await exchange(port, ['GET /v1/echo HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n']),
    ).toMatchObject({ status: 200 });
  });

  it('CONNECT is answered 400 bad_request, not dropped', async () => {
    expect(await exchange(port, ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'])).toMatchObject({
      status: 400,
      code: 'bad_request',
    });
  });

  it('uses the documented timeouts: headers within 10 s, the whole request within 30 s', () => {
    expect(REQUEST_TIMEOUTS).toEqual({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 });
    expect({ headers: server.headersTimeout, request: server.requestTimeout }).toEqual({
      headers: 10_000,
      request: 30_000,
    });
  });
});

describe('a slow client', () => {
  // The documented timeouts scaled down, so the test takes seconds; the same code path.
  const timeouts = { headersTimeoutMs: 600, requestTimeoutMs: 1_200 };
  let server: Server;
  let port: number;
  beforeAll(async () => ({ server, port } = await serve(timeouts)));
  afterAll(() => close(server));

  it('sending its headers a byte at a time gets 408 request_timeout when the headers time out, not later', async () => {
    const head = 'GET /v1/echo HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(200);
    const answer = await exchange(port, [...head], 20);
    expect(answer).toMatchObject({ status: 408, code: 'request_timeout' });
    expect(answer.afterMs).toBeGreaterThanOrEqual(timeouts.headersTimeoutMs - 50);
    expect(answer.afterMs).toBeLessThan(timeouts.headersTimeoutMs + 500);
  });

  it('stalling in the body gets 408 request_timeout when the request times out, not later', async () => {
    const answer = await exchange(port, [
      'POST /v1/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    ]);
    expect(answer).toMatchObject({ status: 408, code: 'request_timeout' });
    expect(answer.afterMs).toBeGreaterThanOrEqual(timeouts.requestTimeoutMs - 50);
    expect(answer.afterMs).toBeLessThan(timeouts.requestTimeoutMs + 500);
  });
});
