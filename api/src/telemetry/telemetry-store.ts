import type { Provenance, TelemetryBatch } from '@special-gift/shared/telemetry';
import type { Database, Queryable } from '../db/database';
import type { Logger } from '../http/logger';
import type { Engine } from './engine';
import type { PageTokenCheck } from './page-token';

/**
 * Where accepted telemetry goes: a bounded in-memory buffer, written in multi-row INSERTs every
 * `flushEveryMs` or as soon as `flushAtRows` rows wait. A batch is acknowledged (202) once it is
 * valid, before it is durable: telemetry is lossy by design, so a browser's beacon never waits on
 * the database and a slow or unavailable database never slows sign-ups. When the buffer is full a
 * batch is dropped and counted, never waited for; a failed write drops its rows and is logged.
 * `close()` writes what is left (graceful shutdown).
 */
export interface TelemetryStoreOptions {
  readonly flushEveryMs?: number;
  readonly flushAtRows?: number;
  /** Rows (sessions + events) the buffer holds at most; past that, batches are dropped. */
  readonly maxBufferedRows?: number;
  readonly log?: Logger;
  /** The reception time stored with each row (tests pin it). */
  readonly now?: () => Date;
}

export interface TelemetryCounts {
  /** Batches accepted into the buffer. */
  readonly accepted: number;
  /** Batches dropped because the buffer was full. */
  readonly dropped: number;
  /** Rows lost to failed writes. */
  readonly lostRows: number;
  /** Rows written. */
  readonly writtenRows: number;
}

interface SessionRow {
  readonly receivedAt: string;
  readonly remote: string;
  readonly build: string;
  readonly route: string;
  readonly device: string;
  readonly engine: Engine;
  failures: number;
  lcp: number | null;
  inp: number | null;
  cls: number | null;
  /** `signed` here means "signed, if its token's first use": the write decides (`replayed` otherwise). */
  provenance: Provenance;
  /** A signed page view's network (`networkHash`: keyed, never the address), else null. */
  readonly network: string | null;
  /** Not stored with the row: the page token to claim, and which accepted batch the row is of. */
  readonly token: { readonly id: string; readonly expiresAt: string; readonly batch: number } | null;
}

interface EventRow {
  readonly receivedAt: string;
  readonly type: string;
  readonly remote: string | null;
  readonly build: string | null;
  readonly route: string;
  readonly device: string;
  readonly name: string | null;
  readonly phase: string | null;
  readonly kind: string | null;
  readonly value: number | null;
  readonly rating: string | null;
  readonly target: string | null;
  readonly rejection: boolean | null;
  readonly t: number;
}

/** Rows in one INSERT at most: bounds the statement's size and how long it holds the (single) PGlite connection. */
const MAX_ROWS_PER_INSERT = 2_000;

/**
 * One batch as rows: an event row per event, and a session row per remote the page loaded, holding
 * that remote's failure count and the worst value of each vital attributed to it. A vital that
 * names no remote belongs to the remote that owns the page's route (`routeOwners`), the screen the
 * user was looking at; an uncaught error that names none belongs to no remote's error rate.
 */
export function toRows(
  batch: TelemetryBatch,
  receivedAt: string,
  routeOwners: Readonly<Record<string, string>>,
  engine: Engine = 'other',
  check: PageTokenCheck = { provenance: 'unsigned' },
  batchNumber = 0,
): { sessions: SessionRow[]; events: EventRow[] } {
  const { route, device, builds } = batch;
  const sessions = new Map<string, SessionRow>();
  const token =
    check.provenance === 'signed'
      ? { id: check.id, expiresAt: new Date(check.expiresAt * 1000).toISOString(), batch: batchNumber }
      : null;
  for (const [remote, build] of Object.entries(builds)) {
    sessions.set(remote, {
      receivedAt,
      remote,
      build,
      route,
      device,
      engine,
      failures: 0,
      lcp: null,
      inp: null,
      cls: null,
      provenance: check.provenance,
      network: check.provenance === 'signed' ? check.network : null,
      token,
    });
  }
  const owner = routeOwners[route];
  const events: EventRow[] = batch.events.map((event) => {
    const remote = event.remote;
    const base = {
      receivedAt,
      type: event.type,
      remote,
      build: remote === null ? null : (builds[remote] ?? null),
      route,
      device,
      t: event.t,
    };
    if (event.type === 'vital') {
      const session = sessions.get(remote ?? owner ?? '');
      const key = event.name === 'LCP' ? 'lcp' : event.name === 'INP' ? 'inp' : event.name === 'CLS' ? 'cls' : null;
      if (session && key) session[key] = Math.max(session[key] ?? 0, event.value);
      return {
        ...base,
        name: event.name,
        phase: null,
        kind: null,
        value: event.value,
        rating: event.rating ?? null,
        target: event.target ?? null,
        rejection: null,
      };
    }
    if (remote !== null) {
      const session = sessions.get(remote);
      if (session) session.failures += 1;
    }
    return {
      ...base,
      name: event.type === 'load_failure' ? null : event.errorName,
      phase: event.type === 'load_failure' ? event.phase : null,
      kind: event.type === 'load_failure' ? event.kind : null,
      value: null,
      rating: null,
      target: null,
      rejection: event.type === 'uncaught' ? event.rejection : null,
    };
  });
  return { sessions: [...sessions.values()], events };
}

/** A column of a bulk insert: the row's field, the table's column and the SQL type it travels as. */
type Column<Row> = readonly [field: keyof Row & string, column: string, sqlType: string];

/**
 * One statement per table whatever the row count: each column travels as one array parameter,
 * `unnest` turns them back into rows.
 */
function bulkInsert<Row>(table: string, columns: ReadonlyArray<Column<Row>>) {
  const sql = `INSERT INTO ${table} (${columns.map(([, column]) => column).join(', ')})
    SELECT * FROM unnest(${columns.map(([, , sqlType], index) => `$${index + 1}::${sqlType}[]`).join(', ')})`;
  return async (db: Queryable, rows: readonly Row[]) => {
    if (rows.length > 0)
      await db.query(
        sql,
        columns.map(([field]) => rows.map((row) => row[field])),
      );
  };
}

const insertSessions = bulkInsert<SessionRow>('telemetry_sessions', [
  ['receivedAt', 'received_at', 'timestamptz'],
  ['remote', 'remote', 'text'],
  ['build', 'build', 'text'],
  ['route', 'route', 'text'],
  ['device', 'device', 'text'],
  ['engine', 'engine', 'text'],
  ['failures', 'failures', 'int'],
  ['lcp', 'lcp', 'float8'],
  ['inp', 'inp', 'float8'],
  ['cls', 'cls', 'float8'],
  ['provenance', 'provenance', 'text'],
  ['network', 'network', 'text'],
]);
const insertEvents = bulkInsert<EventRow>('telemetry_events', [
  ['receivedAt', 'received_at', 'timestamptz'],
  ['type', 'type', 'text'],
  ['remote', 'remote', 'text'],
  ['build', 'build', 'text'],
  ['route', 'route', 'text'],
  ['device', 'device', 'text'],
  ['name', 'name', 'text'],
  ['phase', 'phase', 'text'],
  ['kind', 'kind', 'text'],
  ['value', 'value', 'float8'],
  ['rating', 'rating', 'text'],
  ['target', 'target', 'text'],
  ['rejection', 'rejection', 'boolean'],
  ['t', 't', 'float8'],
]);

export async function insertRows(db: Queryable, sessions: readonly SessionRow[], events: readonly EventRow[]) {
  await insertSessions(db, sessions);
  await insertEvents(db, events);
}

/**
 * Each page token is used once: its id goes into `telemetry_page_tokens` (primary key), and the
 * page view that inserted it is signed; any other batch with that id, here or on another replica,
 * before or after, is `replayed`. Concurrent claims on PostgreSQL: the second INSERT waits for the
 * first to commit, then does nothing. `claims` maps a token id to the batch that won it, across the
 * chunks of one write (a batch's rows may straddle two); the claims made here are returned, for the
 * caller to add to `claims` once the transaction has committed (a rolled-back claim was never made).
 */
async function claimPageTokens(
  db: Queryable,
  sessions: SessionRow[],
  claims: ReadonlyMap<string, number | null>,
): Promise<Map<string, number | null>> {
  const made = new Map<string, number | null>();
  const fresh = new Map<string, { expiresAt: string; batch: number }>();
  for (const { token } of sessions)
    if (token && !claims.has(token.id) && !fresh.has(token.id)) fresh.set(token.id, token);
  if (fresh.size > 0) {
    const ids = [...fresh.keys()];
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO telemetry_page_tokens (id, expires_at)
       SELECT * FROM unnest($1::text[], $2::timestamptz[]) ON CONFLICT (id) DO NOTHING RETURNING id`,
      [ids, ids.map((id) => fresh.get(id)?.expiresAt)],
    );
    const won = new Set(rows.map((row) => row.id));
    for (const [id, { batch }] of fresh) made.set(id, won.has(id) ? batch : null);
  }
  for (const row of sessions)
    if (row.token && (made.get(row.token.id) ?? claims.get(row.token.id)) !== row.token.batch)
      row.provenance = 'replayed';
  return made;
}

export class TelemetryStore {
  readonly #db: Database;
  readonly #routeOwners: Readonly<Record<string, string>>;
  readonly #flushAtRows: number;
  readonly #maxBufferedRows: number;
  readonly #log: Logger | undefined;
  readonly #now: () => Date;
  #sessions: SessionRow[] = [];
  #events: EventRow[] = [];
  #flushing: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null;
  #closed = false;
  #counts = { accepted: 0, dropped: 0, lostRows: 0, writtenRows: 0 };
  /** Numbers each accepted batch, so two batches with one token are told apart. */
  #batches = 0;

  constructor(
    db: Database,
    routeOwners: Readonly<Record<string, string>>,
    {
      flushEveryMs = 200,
      flushAtRows = 500,
      maxBufferedRows = 50_000,
      log,
      now = () => new Date(),
    }: TelemetryStoreOptions = {},
  ) {
    this.#db = db;
    this.#routeOwners = routeOwners;
    this.#flushAtRows = flushAtRows;
    this.#maxBufferedRows = maxBufferedRows;
    this.#log = log;
    this.#now = now;
    // unref: a pending flush never keeps a process alive; shutdown calls close() to write the rest.
    this.#timer = setInterval(() => void this.flush(), flushEveryMs).unref();
  }

  get counts(): TelemetryCounts {
    return { ...this.#counts };
  }

  get bufferedRows(): number {
    return this.#sessions.length + this.#events.length;
  }

  /**
   * Buffers a validated batch from a browser of `engine`, with what its page token proved (its one
   * use is checked when written); false when it was dropped (buffer full, or the store closed).
   */
  accept(batch: TelemetryBatch, engine: Engine = 'other', check?: PageTokenCheck): boolean {
    this.#batches += 1;
    const rows = toRows(batch, this.#now().toISOString(), this.#routeOwners, engine, check, this.#batches);
    if (this.#closed || this.bufferedRows + rows.sessions.length + rows.events.length > this.#maxBufferedRows) {
      this.#counts.dropped += 1;
      return false;
    }
    this.#sessions.push(...rows.sessions);
    this.#events.push(...rows.events);
    this.#counts.accepted += 1;
    if (this.bufferedRows >= this.#flushAtRows) void this.flush();
    return true;
  }

  /**
   * Writes everything buffered, until the buffer is empty. One writer at a time: a call while one is
   * under way joins it, and the writer's loop picks up what arrived during its last INSERT, so under
   * load the rows of many requests share one transaction (one commit, one fsync) instead of each
   * request's rows queueing a small commit of their own.
   */
  flush(): Promise<void> {
    this.#flushing ??= this.#writeAll().finally(() => {
      this.#flushing = null;
    });
    return this.#flushing;
  }

  async #writeAll(): Promise<void> {
    const claims = new Map<string, number | null>();
    while (this.bufferedRows > 0) {
      const sessions = this.#sessions.splice(0, MAX_ROWS_PER_INSERT);
      const events = this.#events.splice(0, MAX_ROWS_PER_INSERT);
      const rows = sessions.length + events.length;
      try {
        // One transaction: one commit (one fsync on PGlite) for both statements.
        const made = await this.#db.transaction(async (tx) => {
          const claimed = await claimPageTokens(tx, sessions, claims);
          await insertRows(tx, sessions, events);
          return claimed;
        });
        // Only now: a claim of a transaction that rolled back was never made.
        for (const [id, batch] of made) claims.set(id, batch);
        this.#counts.writtenRows += rows;
      } catch (error) {
        this.#counts.lostRows += rows;
        this.#log?.({ level: 'error', msg: 'telemetry write failed; rows dropped', rows, error: String(error) });
      }
    }
  }

  /** Stops the timer, refuses further batches and writes what is buffered. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.flush();
  }
}

/** Deletes telemetry older than `retentionDays`; returns the rows deleted. Safe from every replica at once. */
export async function purgeTelemetry(db: Queryable, { retentionDays }: { readonly retentionDays: number }) {
  const result = await db.query<{ count: number }>(
    `WITH sessions AS (
       DELETE FROM telemetry_sessions WHERE received_at < now() - make_interval(days => $1) RETURNING 1
     ), events AS (
       DELETE FROM telemetry_events WHERE received_at < now() - make_interval(days => $1) RETURNING 1
     ), tokens AS (
       -- A used page token's id is kept until the token has expired (refused anyway from then on),
       -- with a margin for replicas' clocks that run behind the database's.
       DELETE FROM telemetry_page_tokens WHERE expires_at < now() - interval '5 minutes' RETURNING 1
     )
     SELECT ((SELECT count(*) FROM sessions) + (SELECT count(*) FROM events) + (SELECT count(*) FROM tokens))::int AS count`,
    [retentionDays],
  );
  return result.rows[0]?.count ?? 0;
}
