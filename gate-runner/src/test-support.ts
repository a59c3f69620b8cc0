// Tests only: a real HTTP server on a free loopback port, for the API, a host and a remote's origin.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GateJob } from '@special-gift/shared/api';

export interface LocalServer {
  readonly url: string;
  readonly close: () => Promise<void>;
}

export async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<LocalServer> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL nothing listens on: a server's, once closed. */
export async function refusedUrl(): Promise<string> {
  const server = await startServer((_req, res) => res.end());
  await server.close();
  return server.url;
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });
}

/** A claimed gate job of the sign-up remote's build 0123456789ab, its claim a minute long. */
export function gateJob(overrides: Partial<GateJob> = {}): GateJob {
  return {
    rolloutId: 'r-1',
    environment: 'local',
    remote: 'signup',
    buildId: '0123456789ab',
    gate: 'acceptance',
    nonce: 'n-1',
    route: '/sign-up',
    integrity: {},
    previewCookie: 'signup.0123456789ab.1.operator.mac',
    deadline: new Date(Date.now() + 60_000).toISOString(),
    ...overrides,
  };
}
