import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { readConfig } from './config';
import { openDatabase } from './db/open-database';
import { jsonLineLogger as log } from './http/logger';

// In-flight requests get this long to finish on shutdown before their connections are cut.
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  const config = readConfig(process.env);
  const db = await openDatabase(config.dataDir);
  const app = createApp({ db, cookieSecure: config.cookieSecure });

  const server = app.listen(config.port, config.host);
  server.once('listening', () => {
    const { address, port } = server.address() as AddressInfo;
    log({ msg: 'listening', address, port, dataDir: config.dataDir });
  });
  server.once('error', (error) => {
    log({ level: 'error', msg: 'server error', error: String(error) });
    void db.close().finally(() => process.exit(1));
  });

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log({ msg: 'shutting down', signal });
    const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    // Stop accepting, let in-flight requests finish, then close the database so it is flushed.
    server.close(() => {
      clearTimeout(force);
      db.close().then(
        () => log({ msg: 'stopped' }),
        (error: unknown) => {
          log({ level: 'error', msg: 'database close failed', error: String(error) });
          process.exitCode = 1;
        },
      );
    });
    server.closeIdleConnections();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  log({ level: 'error', msg: 'start-up failed', error: error instanceof Error ? error.stack : String(error) });
  process.exit(1);
});
