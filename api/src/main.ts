import type { AddressInfo } from 'node:net';
import { createApp } from './app';
import { readConfig } from './config';
import { exitWithParent } from '../../tooling/process/exit-with-parent';
import { purgeExpiredKeys } from './db/idempotency-store';
import { openDatabase } from './db/open-database';
import { ConnectionTracker } from './http/drain';
import { Lifecycle } from './http/lifecycle';
import { jsonLineLogger as log } from './http/logger';
import { createApiServer } from './http/protocol-errors';
import { warmUp } from './signups';
import { openStateStore, StatePublisher } from './releases';
import { createRolloutRunner, WebhookPump } from './rollout-runner';
import { purgeTelemetry, ROUTE_OWNERS, TelemetryStore } from './telemetry';

const PURGE_EVERY_MS = 15 * 60_000;
// Past the grace period, the database gets this long to close before the process exits anyway.
const CLOSE_DATABASE_MS = 5_000;
// While draining, a keep-alive connection with no request in progress is closed after this much quiet.
const DRAIN_IDLE_CLOSE_MS = 1_000;

async function main(): Promise<void> {
  const config = readConfig(process.env);
  const db = await openDatabase(config.database, {
    onLockWait: () =>
      log({
        msg: 'data directory in use; waiting for the process holding it to stop',
        waitMs: config.database.engine === 'pglite' ? config.database.lockWaitMs : 0,
      }),
  });
  await warmUp(db);
  const lifecycle = new Lifecycle();
  const telemetryStore = new TelemetryStore(db, ROUTE_OWNERS, { log });
  const releaseState = new StatePublisher({
    db,
    environment: config.releaseEnvironment,
    store: config.releaseStateStore === undefined ? undefined : openStateStore(config.releaseStateStore),
    keys: config.releaseStateKeys,
    log,
  });
  if (config.releaseStateStore === undefined)
    log({
      level: 'warn',
      msg: 'RELEASE_STATE_STORE is not set: release states are recorded, not written for the composers',
    });
  releaseState.start();
  const app = createApp({
    db,
    cookieSecure: config.cookieSecure,
    allowedOrigins: config.allowedOrigins,
    trustedProxies: config.trustedProxies,
    signUpsPerMinute: config.signUpsPerMinute,
    idempotencyKeyTtlHours: config.idempotencyKeyTtlHours,
    lifecycle,
    telemetryStore,
    telemetryBatchesPerMinute: config.telemetryBatchesPerMinute,
    operatorToken: config.operatorToken,
    authFailuresPerMinute: config.authFailuresPerMinute,
    releaseEnvironment: config.releaseEnvironment,
    pageTokenKey: config.pageTokenKey,
    pageTokensPerMinute: config.pageTokensPerMinute,
    rolloutRule: config.rolloutRule,
    releaseState,
    rolloutRunner: config.rolloutRunner,
  });
  // Rollouts move pointers: only with releases on (an operator token). Every replica ticks; the lease
  // makes one of them the leader (docs/rollouts.md).
  const rollouts = createRolloutRunner({
    db,
    environment: config.releaseEnvironment,
    rule: config.rolloutRule,
    settings: config.rolloutRunner,
    log,
    afterPointerChange: (serial) => releaseState.afterChange(serial),
  });
  // Webhooks: every replica pumps (row claims keep them apart), with the key secrets derive from.
  const webhookKey = config.rolloutRunner.webhookKey ?? config.operatorToken;
  const webhooks =
    webhookKey === undefined
      ? null
      : new WebhookPump({
          db,
          environment: config.releaseEnvironment,
          key: webhookKey,
          allowedHosts: config.rolloutRunner.webhookHosts,
          everyMs: config.rolloutRunner.tickSeconds * 1000,
          log,
        });
  if (config.operatorToken !== undefined) {
    rollouts.start();
    webhooks?.start();
  }
  const where =
    config.database.engine === 'postgres'
      ? { engine: 'postgres' }
      : { engine: 'pglite', dataDir: config.database.dataDir, fsync: config.database.fsync };

  void db.lost.then(() => {
    log({ level: 'error', msg: 'data directory lock lost; stopping at once so no other process shares the directory' });
    process.exit(1);
  });

  const purge = () =>
    purgeExpiredKeys(db, { ttlHours: config.idempotencyKeyTtlHours }).then(
      (count) => count > 0 && log({ msg: 'purged expired idempotency keys', count }),
      (error: unknown) => log({ level: 'error', msg: 'idempotency key purge failed', error: String(error) }),
    );
  const purgeOldTelemetry = () =>
    purgeTelemetry(db, { retentionDays: config.telemetryRetentionDays }).then(
      (count) => count > 0 && log({ msg: 'purged old telemetry', count }),
      (error: unknown) => log({ level: 'error', msg: 'telemetry purge failed', error: String(error) }),
    );
  void purge();
  void purgeOldTelemetry();
  const purgeTimer = setInterval(() => void purge().then(purgeOldTelemetry), PURGE_EVERY_MS).unref();

  const server = createApiServer(app);
  const connections = new ConnectionTracker(server);
  server.listen(config.port, config.host);
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
    // A second signal (the group's and a launcher's, Ctrl-C twice) changes nothing: the stop is under way.
    if (stopping) return;
    stopping = true;
    log({ msg: 'shutting down', reason });
    // 1. Readiness fails at once; everything else is served as usual, on the same connections.
    lifecycle.stop();
    if (config.shutdownDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    // 2. No new connections; in-flight requests finish, each answer closes its connection, and an
    //    idle keep-alive connection is closed once quiet (see ConnectionTracker.drain).
    const drained = await connections.drain({
      idleCloseMs: DRAIN_IDLE_CLOSE_MS,
      graceMs: config.shutdownGraceMs,
      onListenerClosed: () => lifecycle.drain(),
    });
    if (drained === 'grace over') {
      log({ level: 'warn', msg: 'grace period over; closed the remaining connections' });
    }
    // 3. Buffered telemetry (acknowledged, not yet written), then the database, then the data-directory
    //    lock last, so every acknowledged sign-up is flushed before another process may open the directory.
    clearInterval(purgeTimer);
    // Before the database closes: the lease lapses now, so another replica leads at its next tick.
    await rollouts.stop();
    await webhooks?.stop();
    await releaseState.stop();
    setTimeout(() => {
      log({ level: 'error', msg: 'database did not close in time' });
      process.exit(1);
    }, CLOSE_DATABASE_MS).unref();
    try {
      await telemetryStore.close();
      const { dropped, lostRows } = telemetryStore.counts;
      if (dropped > 0 || lostRows > 0) log({ level: 'warn', msg: 'telemetry lost', droppedBatches: dropped, lostRows });
      await db.close();
      log({ msg: 'stopped' });
    } catch (error) {
      log({ level: 'error', msg: 'database close failed', error: String(error) });
      process.exitCode = 1;
    }
  };
  // `on`, not `once`: a repeated signal must not fall back to the default action (exit at once).
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // For the development launchers (`npm start`, `npm run serve`): no orphan holding the data directory.
  exitWithParent(() => void shutdown('parent exited'));
}

main().catch((error: unknown) => {
  const message =
    error instanceof Error && error.name === 'DataDirInUseError'
      ? error.message
      : error instanceof Error
        ? error.stack
        : String(error);
  log({ level: 'error', msg: 'start-up failed', error: message });
  process.exit(1);
});
