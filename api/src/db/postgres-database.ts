import pg from 'pg';
import type { Database, Queryable, QueryResult } from './database';
import { isRetryable, TRANSACTION_ATTEMPTS } from './retry';

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database`, with `?sslmode=…` where the server needs TLS. */
  readonly url: string;
  /** Connections this process keeps at most. */
  readonly poolSize: number;
}

function wrap(client: pg.Pool | pg.PoolClient): Queryable {
  return {
    async query<T>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<T>> {
      const result = await client.query(sql, params as unknown[]);
      return { rows: result.rows as T[] };
    },
    async exec(sql: string): Promise<void> {
      // No parameters: the simple protocol, which allows several statements.
      await client.query(sql);
    },
  };
}

/** A PostgreSQL server through a pool of `poolSize` connections. */
export async function openPostgresDatabase({ url, poolSize }: PostgresOptions): Promise<Database> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // A request waits at most this long for a free connection, then fails (500) instead of hanging.
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    application_name: 'special-gift-api',
  });
  // A connection dropped by the server (restart, failover) must not crash the process. The pool
  // catches that on idle connections only; a held one (a transaction's) emits its 'error' with no
  // listener, which killed every replica at once when PostgreSQL restarted under load. Its pending
  // query rejects anyway, and a broken connection is released as such; the pool opens new ones.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const direct = wrap(pool);
  await direct.query('SELECT 1');

  return {
    engine: 'postgres',
    query: direct.query,
    exec: direct.exec,
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      for (let attempt = 1; ; attempt += 1) {
        const client = await pool.connect();
        let broken: Error | undefined;
        try {
          await client.query('BEGIN');
          const result = await work(wrap(client));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch((rollbackError: unknown) => {
            // The connection is unusable: drop it from the pool rather than hand it out again.
            broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
          });
          if (attempt >= TRANSACTION_ATTEMPTS || !isRetryable(error)) throw error;
        } finally {
          client.release(broken);
        }
      }
    },
    lost: new Promise<void>(() => undefined),
    async ping() {
      await direct.query('SELECT 1');
    },
    async close() {
      await pool.end();
    },
  };
}
