/**
 * Serves one built app: `tsx tooling/serve/serve-app.ts <host|intro|signup|thankyou> [--port N]
 * [--host-origin URL] [--api URL] [--config FILE]`. Used by serve-all and by the e2e harness,
 * which stops and starts single apps.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LOCAL_PORTS, localRuntimeConfig, REMOTE_APPS, REPO_ROOT } from './local-topology';
import { exitWithParent } from '../process/exit-with-parent';
import { startStaticServer } from './static-server';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { 'exit-with-parent': { type: 'boolean' }, port: { type: 'string' }, 'host-origin': { type: 'string' }, api: { type: 'string' }, config: { type: 'string' } },
});
const app = positionals[0];
const remote = REMOTE_APPS.find((candidate) => candidate.name === app);
if (app !== 'host' && !remote) {
  console.error('usage: serve-app <host|intro|signup|thankyou> [--port N] [--host-origin URL] [--api URL] [--config FILE]');
  process.exit(2);
}

const port = Number(values.port ?? (remote ? LOCAL_PORTS[remote.name] : LOCAL_PORTS.host));
void startStaticServer(
  remote
    ? { root: join(REPO_ROOT, remote.dir, 'dist'), port, corsOrigin: values['host-origin'] ?? `http://localhost:${LOCAL_PORTS.host}` }
    : {
        root: join(REPO_ROOT, 'host', 'dist'),
        port,
        spa: true,
        apiTarget: values.api ?? `http://127.0.0.1:${LOCAL_PORTS.api}`,
        config: values.config ? (JSON.parse(readFileSync(values.config, 'utf8')) as unknown) : localRuntimeConfig(LOCAL_PORTS),
      },
).then((server) => {
  console.log(`${app} on http://localhost:${port}`);
  const stop = () => {
    // Browsers keep connections alive; drop them so a stop is immediate (tests rely on it).
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  exitWithParent(stop);
}, (error: unknown) => {
  // Say why (a port already in use, no build yet) instead of dying with a stack trace.
  console.error(`${app} could not start on port ${port}: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
