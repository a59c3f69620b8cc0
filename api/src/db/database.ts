import type { PGlite, Transaction } from '@electric-sql/pglite';

/** The API's database: one embedded Postgres (PGlite), a single connection. */
export type Database = PGlite;

/** Anything that runs a query: the database itself, or an open transaction. */
export type Queryable = Pick<Transaction, 'query'>;
