import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { RemoteName } from '../../tooling/remotes';
import { startStaticServer } from '../../tooling/serve/static-server';
import { wwwRoot } from './nginx';
import { startApp, stopApp } from './servers';
import { E2E_PORTS, HOST_URL } from './topology';

/** Decides one request: answer it itself, or `forward()` it to the remote's files (now or later). */
export type FrontHandler = (req: IncomingMessage, res: ServerResponse, forward: () => void) => void;

/**
 * Stands in for a remote's server while `run` runs: `handle` sees every request first, and what it
 * forwards comes from the remote's deployed folder, as its nginx serves it. The remote's nginx is
 * back afterwards. Works for every engine: the fault is in the network, not in one browser's hooks.
 */
export async function withRemoteFront(remote: RemoteName, handle: FrontHandler, run: () => Promise<void>) {
  await stopApp(remote);
  const files = await startStaticServer({ root: wwwRoot(remote), port: 0, corsOrigin: HOST_URL });
  const filesAddress = files.address();
  const filesPort = typeof filesAddress === 'object' && filesAddress ? filesAddress.port : 0;
  const front: Server = createServer((req, res) =>
    handle(req, res, () => {
      const upstream = httpRequest(
        { host: '127.0.0.1', port: filesPort, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    }),
  );
  await new Promise<void>((resolve) => front.listen(E2E_PORTS[remote], '127.0.0.1', resolve));
  try {
    await run();
  } finally {
    front.closeAllConnections();
    await new Promise((resolve) => front.close(resolve));
    await new Promise((resolve) => files.close(resolve));
    await startApp(remote);
  }
}
