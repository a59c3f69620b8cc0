import type { TelemetryBatch } from '@special-gift/shared/telemetry';
import type { Database } from '../db/database';
import type { Logger } from '../http/logger';
import type { Engine } from './engine';
import type { PageTokenCheck } from './page-token';
import { toRows, type EventRow, type SessionRow } from './telemetry-rows';
import { claimPageTokens, insertRows } from './telemetry-tables';

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

/** Rows in one INSERT at most: bounds the statement's size and how long it holds the (single) PGlite connection. */
const MAX_ROWS_PER_INSERT = 2_000;

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
