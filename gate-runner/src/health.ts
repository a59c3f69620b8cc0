// `GET /health`: 200 while the last poll of the API succeeded within the last minute, else 503. It
// says whether the runner can take gates; browser trouble shows in the gates' results instead.
import { createServer, type Server } from 'node:http';

export const HEALTHY_WITHIN_MS = 60_000;

export interface Liveness {
  /** When a poll of the API last succeeded (epoch ms), or undefined before the first. */
  lastPollOkAt: number | undefined;
}

export function isHealthy(liveness: Liveness, now = Date.now()): boolean {
  return liveness.lastPollOkAt !== undefined && now - liveness.lastPollOkAt <= HEALTHY_WITHIN_MS;
}

/** Listens on `port` (0: any free one) of every interface; resolves once listening. */
export function startHealthServer(liveness: Liveness, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/health') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    const healthy = isHealthy(liveness);
    res.writeHead(healthy ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(
      `${JSON.stringify({
        status: healthy ? 'ok' : 'api-unreachable',
        lastPollOkAt: liveness.lastPollOkAt === undefined ? null : new Date(liveness.lastPollOkAt).toISOString(),
      })}\n`,
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}
