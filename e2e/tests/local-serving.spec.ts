import { readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { localRuntimeConfig } from '../../tooling/serve/runtime-config';
import { startStaticServer } from '../../tooling/serve/static-server';
import { distOf } from '../support/nginx';
import { E2E_PORTS, HOST_URL } from '../support/topology';
import { expect, test } from '../support/fixtures';

/**
 * `npm run serve` (tooling/serve/static-server.ts) promises the images' caching and CORS rules.
 * Here it serves the same builds as the suite's nginx (rendered from the images' templates), and
 * every kind of file must get the same status, Cache-Control and CORS answer from both. (Source
 * maps are the one intended difference: the images delete them, local serving keeps them.)
 */
const HEADERS = ['cache-control', 'access-control-allow-origin'] as const;

const file = (app: 'host' | 'signup', pattern: RegExp) => {
  const name = readdirSync(distOf(app)).find((entry) => pattern.test(entry));
  if (!name) throw new Error(`no file like ${pattern} in ${app}'s build`);
  return `/${name}`;
};

async function listen(server: Server) {
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('the local static server answers like the images’ nginx, file kind by file kind', async ({ request }) => {
  const remote = await startStaticServer({ root: distOf('signup'), port: 0, corsOrigin: HOST_URL });
  const host = await startStaticServer({
    root: distOf('host'),
    port: 0,
    spa: true,
    config: localRuntimeConfig(E2E_PORTS),
  });
  try {
    const cases = [
      {
        nginx: `http://localhost:${E2E_PORTS.signup}`,
        local: await listen(remote),
        paths: [
          '/remoteEntry.js',
          '/mf-manifest.json',
          '/assets/i18n/en.json',
          file('signup', /^__federation_expose_Screen\.[0-9a-f]{8}\.js$/),
          file('signup', /\.[0-9a-f]{8}\.css$/),
          file('signup', /\.js\.LICENSE\.txt$/),
          '/mf-manifest-stats.json',
        ],
      },
      {
        nginx: HOST_URL,
        local: await listen(host),
        paths: [
          '/',
          '/sign-up',
          '/index.html',
          '/config.json',
          '/assets/i18n/en.json',
          file('host', /^main\.[0-9a-f]{8}\.js$/),
          file('host', /^main\.[0-9a-f]{8}\.css$/),
          '/favicon.svg',
          '/service-worker.js',
        ],
      },
    ];
    for (const { nginx, local, paths } of cases) {
      for (const path of paths) {
        const [fromNginx, fromLocal] = await Promise.all([
          request.get(nginx + path, { headers: { Origin: HOST_URL } }),
          request.get(local + path, { headers: { Origin: HOST_URL } }),
        ]);
        expect(fromLocal.status(), `${path} status`).toBe(fromNginx.status());
        for (const header of HEADERS)
          expect(fromLocal.headers()[header], `${path} ${header}`).toBe(fromNginx.headers()[header]);
      }
      for (const missing of ['/missing.js', '/assets/i18n/xx.json']) {
        const [fromNginx, fromLocal] = await Promise.all([request.get(nginx + missing), request.get(local + missing)]);
        expect(fromLocal.status(), `${missing} status`).toBe(fromNginx.status());
      }
    }
  } finally {
    await Promise.all([remote, host].map((server) => new Promise((resolve) => server.close(resolve))));
  }
});
