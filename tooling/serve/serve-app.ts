/**
 * Serves one built app on its local port: `node --import tsx tooling/serve/serve-app.ts <app>`,
 * with `app` the host or a remote's name. serve-all runs one per app, so each can be restarted alone.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REMOTES } from '../remotes';
import { exitWithParent } from '../process/exit-with-parent';
import { buildStorePath } from '../../release-cli/src/store/open-store';
import { LOCAL_PORTS, REPO_ROOT } from './local-topology';
import { localRuntimeConfig } from './runtime-config';
import { startStaticServer } from './static-server';

const { positionals } = parseArgs({ allowPositionals: true, options: { 'exit-with-parent': { type: 'boolean' } } });
const app = positionals[0];
const remote = REMOTES.find((candidate) => candidate.name === app);
if (app !== 'host' && !remote) {
  console.error(
    `usage: serve-app <${['host', ...REMOTES.map((candidate) => candidate.name)].join('|')}> [--exit-with-parent]`,
  );
  process.exit(2);
}

const port = remote ? remote.localPort : LOCAL_PORTS.host;
void startStaticServer(
  remote
    ? {
        root: join(REPO_ROOT, remote.dir, 'dist'),
        port,
        corsOrigin: `http://localhost:${LOCAL_PORTS.host}`,
        // Its folder of the build store the release tool publishes into (docs/releases.md).
        builds: join(buildStorePath(REPO_ROOT, process.env), remote.name),
      }
    : {
        root: join(REPO_ROOT, 'host', 'dist'),
        port,
        spa: true,
        apiTarget: `http://127.0.0.1:${LOCAL_PORTS.api}`,
        config: localRuntimeConfig(LOCAL_PORTS),
      },
).then(
  (server) => {
    console.log(`${app} on http://localhost:${port}`);
    const stop = () => {
      // Browsers keep connections alive; drop them so a stop is immediate (tests rely on it).
      server.close(() => process.exit(0));
      server.closeAllConnections();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    exitWithParent(stop);
  },
  (error: unknown) => {
    // Say why (a port already in use, no build yet) instead of dying with a stack trace.
    console.error(`${app} could not start on port ${port}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
