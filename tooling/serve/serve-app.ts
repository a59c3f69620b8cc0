/**
 * Serves one built app on its local port: `node --import tsx tooling/serve/serve-app.ts <app>`,
 * with `app` the host or a remote's name. serve-all runs one per app, so each can be restarted alone.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { REMOTES } from '../remotes';
import { exitWithParent } from '../process/exit-with-parent';
import { buildStorePath } from '../../release-cli/src/store/open-store';
import { readOrCreateOperatorToken } from '../../release-cli/src/operator-token';
import { localStateKey, parseKeyList } from '@special-gift/shared/release-state';
import { pageTokenKeys } from '@special-gift/shared/telemetry';
import { createPageTokenSigner, hmacBytes } from '../composition/page-token-signer';
import { createReleaseStateSource, folderReader, hmacBase64url } from '../composition/release-state-source';
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
// The host composes pages from the build store alone, with the API's settings (serve-all.ts passes
// them): the state the API writes, checked with its keys, and page tokens signed with its key.
const operatorToken = () => process.env.OPERATOR_TOKEN ?? readOrCreateOperatorToken(REPO_ROOT);
const environment = process.env.RELEASE_ENVIRONMENT || 'production';
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
        // The state the API writes beside the builds (serve-all.ts), checked with the same keys.
        releaseState: createReleaseStateSource({
          read: folderReader(process.env.RELEASE_STATE_STORE || buildStorePath(REPO_ROOT, process.env)),
          environment,
          keys: process.env.RELEASE_STATE_KEYS
            ? parseKeyList(process.env.RELEASE_STATE_KEYS)
            : [localStateKey(operatorToken(), hmacBase64url)],
        }),
        signPageToken: createPageTokenSigner({
          keys: pageTokenKeys(process.env.PAGE_TOKEN_KEY, operatorToken(), hmacBytes),
          environment,
          perMinute: Number(process.env.PAGE_TOKENS_PER_MINUTE || 60),
        }),
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
