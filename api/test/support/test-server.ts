import type { AddressInfo } from 'node:net';
import { createApp, type AppOptions } from '../../src/app';
import type { Database, Engine } from '../../src/db/database';
import { openDatabase } from '../../src/db/open-database';
import { createApiServer } from '../../src/http/protocol-errors';
import type { LogEntry } from '../../src/http/logger';
import { TelemetryStore } from '../../src/telemetry/telemetry-store';
import { ROUTE_OWNERS } from '../../src/telemetry/vocabulary';
import { createTestDatabase } from './test-databases';
import type { StateKey } from '@special-gift/shared/release-state';
import { StatePublisher, type StateStore } from '../../src/releases';

export { makeTempDataDir } from './test-databases';

export interface TestServer {
  readonly baseUrl: string;
  readonly db: Database;
  /** Every log entry the app wrote. */
  readonly logs: LogEntry[];
  /** Where the app buffers telemetry; `flush()` it before reading the tables. */
  readonly telemetry: TelemetryStore;
  close(): Promise<void>;
}

export type TestServerOptions = Partial<Omit<AppOptions, 'db' | 'log' | 'releaseState'>> & {
  readonly engine?: Engine;
  /**
   * Where pointer changes write the release state, signed with these keys; with `reconcileEveryMs`,
   * the reconciler runs too (otherwise tests publish).
   */
  readonly releaseState?: {
    readonly store: StateStore;
    readonly keys: readonly StateKey[];
    readonly reconcileEveryMs?: number;
  };
};

/**
 * The real app on a fresh database of `engine` (PGlite by default), on a free port. Test files
 * that use PGlite must mock it (native-pglite.ts).
 */
export async function startTestServer({
  engine = 'pglite',
  cookieSecure = false,
  releaseState: stateOptions,
  ...options
}: TestServerOptions = {}): Promise<TestServer> {
  const database = await createTestDatabase(engine);
  const db = await openDatabase(database.config);
  const logs: LogEntry[] = [];
  const log = (entry: LogEntry) => void logs.push(entry);
  // Written only when a test flushes (or on close): tests read the tables at a moment they choose.
  const telemetry = options.telemetryStore ?? new TelemetryStore(db, ROUTE_OWNERS, { log, flushEveryMs: 3_600_000 });
  const releaseState =
    stateOptions &&
    new StatePublisher({ db, environment: options.releaseEnvironment ?? 'production', log, ...stateOptions });
  if (stateOptions?.reconcileEveryMs !== undefined) releaseState?.start();
  const app = createApp({ db, cookieSecure, ...options, releaseState, telemetryStore: telemetry, log });
  const server = createApiServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    db,
    logs,
    telemetry,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await releaseState?.stop();
      await telemetry.close();
      await db.close();
      await database.drop();
    },
  };
}
