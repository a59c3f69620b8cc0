import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp } from '../app';
import type { Database } from '../db/database';
import { openDatabase } from '../db/open-database';
import type { LogEntry } from '../http/logger';

/** A fresh temporary directory for a test database. */
export function makeTempDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'special-gift-api-test-'));
}

export interface TestServer {
  readonly baseUrl: string;
  readonly db: Database;
  /** Every log entry the app wrote. */
  readonly logs: LogEntry[];
  close(): Promise<void>;
}

/** The real app and a real database in a temp dir, on a free port. Test files that use it must mock PGlite (native-pglite.ts). */
export async function startTestServer(options: { readonly cookieSecure?: boolean } = {}): Promise<TestServer> {
  const dataDir = makeTempDataDir();
  const db = await openDatabase(dataDir);
  const logs: LogEntry[] = [];
  const app = createApp({ db, cookieSecure: options.cookieSecure ?? false, log: (entry) => logs.push(entry) });
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    db,
    logs,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
