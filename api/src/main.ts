import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { createApp } from './app';
import { readConfig } from './config';
import { exitWithParent } from '../../tooling/process/exit-with-parent';
import { purgeExpiredKeys } from './db/idempotency-store';
import { openDatabase } from './db/open-database';
import { Lifecycle } from './http/lifecycle';
import { jsonLineLogger as log } from './http/logger';
import { createApiServer } from './http/protocol-errors';

const PURGE_EVERY_MS = 15 * 60_000;
// Past the grace period, the database gets this long to close before the process exits anyway.
const CLOSE_DATABASE_MS = 5_000;

/** Stops accepting without Node's http close(), which also cuts idle keep-alive connections at once. */
function stopListening(server: Server): Promise<void> {
  return new Promise((resolve) => net.Server.prototype.close.call(server, () => resolve()));
}

async function main(): Promise<void> {
  const config = readConfig(process.env);
  const db = await openDatabase(config.database);
  const lifecycle = new Lifecycle();
  const app = createApp({
    db,
    cookieSecure: config.cookieSecure,
    allowedOrigins: config.allowedOrigins,
    signUpsPerMinute: config.signUpsPerMinute,
    idempotencyKeyTtlHours: config.idempotencyKeyTtlHours,
    lifecycle,
  });
  const where = config.database.engine === 'postgres' ? { engine: 'postgres' } : { engine: 'pglite', dataDir: config.database.dataDir, fsync: config.database.fsync };

  void db.lost.then(() => {
    log({ level: 'error', msg: 'data directory lock lost; stopping at once so no other process shares the directory' });
    process.exit(1);
  });

  const purge = () =>
    purgeExpiredKeys(db, { ttlHours: config.idempotencyKeyTtlHours }).then(
      (count) => count > 0 && log({ msg: 'purged expired idempotency keys', count }),
      (error: unknown) => log({ level: 'error', msg: 'idempotency key purge failed', error: String(error) }),
    );
  void purge();
  const purgeTimer = setInterval(() => void purge(), PURGE_EVERY_MS).unref();

  const server = createApiServer(app).listen(config.port, config.host);
  server.once('listening', () => {
    const { address, port } = server.address() as AddressInfo;
    log({ msg: 'listening', address, port, ...where });
  });
  server.once('error', (error) => {
    log({ level: 'error', msg: 'server error', error: String(error) });
    void db.close().finally(() => process.exit(1));
  });

  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log({ msg: 'shutting down', reason });
    // 1. Readiness fails and every answer says Connection: close.
    lifecycle.stop();
    if (config.shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    // 2. No new connections. In-flight requests finish; each keep-alive connection closes after
    //    its next answer, or when idle past the keep-alive timeout the client was told of.
    const drained = stopListening(server);
    const graceOver = new Promise<'grace over'>((resolve) => setTimeout(() => resolve('grace over'), config.shutdownGraceMs).unref());
    if ((await Promise.race([drained, graceOver])) === 'grace over') {
      log({ level: 'warn', msg: 'grace period over; closing the remaining connections' });
      server.closeAllConnections();
    }
    // 3. The database last, so every acknowledged sign-up is flushed and the pool ends cleanly.
    clearInterval(purgeTimer);
    setTimeout(() => {
      log({ level: 'error', msg: 'database did not close in time' });
      process.exit(1);
    }, CLOSE_DATABASE_MS).unref();
    try {
      await db.close();
      log({ msg: 'stopped' });
    } catch (error) {
      log({ level: 'error', msg: 'database close failed', error: String(error) });
      process.exitCode = 1;
    }
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  // For the development launchers (`npm start`, `npm run serve`): no orphan holding the data directory.
  exitWithParent(() => void shutdown('parent exited'));
}

main().catch((error: unknown) => {
  const message = error instanceof Error && error.name === 'DataDirInUseError' ? error.message : error instanceof Error ? error.stack : String(error);
  log({ level: 'error', msg: 'start-up failed', error: message });
  process.exit(1);
});
