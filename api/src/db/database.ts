/** The rows a query returned; all either engine gives back that the API uses. */
export interface QueryResult<T> {
  readonly rows: T[];
}

/** Anything that runs SQL: the database itself, or an open transaction. */
export interface Queryable {
  /** One statement, `$1`-style parameters. */
  query<T>(sql: string, params?: readonly unknown[]): Promise<QueryResult<T>>;
  /** Several statements, no parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export type Engine = 'pglite' | 'postgres';

/**
 * The API's database, whichever engine backs it: the embedded PGlite (one connection, one process)
 * or a PostgreSQL server through a connection pool. The SQL the API sends is the same for both.
 */
export interface Database extends Queryable {
  readonly engine: Engine;
  /**
   * Runs `work` in one READ COMMITTED transaction on one connection: committed when it resolves,
   * rolled back when it throws. Retried from the start (a few times) when PostgreSQL aborts it as
   * a deadlock or serialization failure, so `work` must have no effect outside the database.
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Settles if the database can no longer be used safely while open (the embedded store lost its
   * data-directory lock): the process must stop. Never settles for PostgreSQL.
   */
  readonly lost: Promise<void>;
  /** A cheap round trip, for readiness. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
