import type { TelemetryBatch } from '@special-gift/shared/telemetry';
import type { Database, Queryable } from '../db/database';
import { toRows } from './telemetry-rows';
import { TelemetryStore } from './telemetry-store';
import { ROUTE_OWNERS } from './vocabulary';

const BATCH: TelemetryBatch = {
  v: 1,
  route: '/sign-up',
  device: 'desktop',
  builds: { signup: 'c0ffee000001', intro: 'image' },
  events: [
    { type: 'vital', name: 'LCP', value: 1200, remote: null, t: 1200 },
    { type: 'vital', name: 'LCP', value: 1800, remote: null, t: 1800 },
    { type: 'vital', name: 'CLS', value: 0.1, remote: 'intro', t: 2000 },
    { type: 'load_failure', remote: 'intro', phase: 'texts', kind: 'http', t: 300 },
    { type: 'uncaught', remote: null, errorName: 'Error', t: 400, rejection: false },
  ],
};

/** A database whose every transaction takes `ms` and records the rows it was given. */
function slowDatabase(ms: number) {
  const inserts: number[] = [];
  const tx: Queryable = {
    query: async (_sql, params) => {
      inserts.push((params?.[0] as unknown[]).length);
      return { rows: [] };
    },
    exec: async () => undefined,
  };
  const db = {
    engine: 'pglite',
    lost: new Promise<void>(() => undefined),
    query: tx.query,
    exec: tx.exec,
    ping: async () => undefined,
    close: async () => undefined,
    transaction: async <T>(work: (tx: Queryable) => Promise<T>): Promise<T> => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return work(tx);
    },
  } satisfies Database;
  return { db, inserts };
}

describe('toRows', () => {
  it('a session row per remote loaded: its failures and the worst of each vital; an event row per event', () => {
    const { sessions, events } = toRows(BATCH, '2026-01-01T00:00:00.000Z', ROUTE_OWNERS);
    expect(sessions).toEqual([
      // LCP named no remote: it is the route's (/sign-up: signup); the uncaught error is nobody's.
      expect.objectContaining({ remote: 'signup', build: 'c0ffee000001', failures: 0, lcp: 1800, cls: null }),
      expect.objectContaining({ remote: 'intro', build: 'image', failures: 1, lcp: null, cls: 0.1 }),
    ]);
    expect(events).toHaveLength(5);
    expect(events[3]).toMatchObject({ type: 'load_failure', remote: 'intro', build: 'image', phase: 'texts' });
    expect(events[4]).toMatchObject({ type: 'uncaught', remote: null, build: null, name: 'Error', rejection: false });
  });
});

describe('TelemetryStore', () => {
  it('one writer: batches accepted during a write share the next INSERT instead of queueing one each', async () => {
    const { db, inserts } = slowDatabase(50);
    const store = new TelemetryStore(db, ROUTE_OWNERS, { flushAtRows: 7, flushEveryMs: 3_600_000 });
    for (let index = 0; index < 40; index += 1) store.accept(BATCH);
    await store.close();
    // Two statements (sessions, events) per transaction: the first write took one batch, the next the other 39.
    expect(inserts).toEqual([2, 5, 78, 195]);
    expect(store.counts).toEqual({ accepted: 40, dropped: 0, lostRows: 0, writtenRows: 40 * 7 });
  });

  it('a failed write drops its rows, counts and logs them, and the store carries on', async () => {
    const { db } = slowDatabase(0);
    const logs: unknown[] = [];
    const failing = { ...db, transaction: async () => Promise.reject(new Error('disk full')) };
    const store = new TelemetryStore(failing, ROUTE_OWNERS, {
      log: (entry) => logs.push(entry),
      flushEveryMs: 3_600_000,
    });
    store.accept(BATCH);
    await store.flush();
    expect(store.counts).toMatchObject({ lostRows: 7, writtenRows: 0 });
    expect(logs).toEqual([expect.objectContaining({ level: 'error', msg: 'telemetry write failed; rows dropped' })]);
    expect(store.accept(BATCH)).toBe(true);
    await store.close();
  });

  it("forgets a rolled-back write's token claims: the token is claimed again in the next write", async () => {
    // Each transaction's claimed token ids; the first transaction runs, then rolls back.
    const claimed: string[][] = [];
    const tx: Queryable = {
      query: async <T>(sql: string, params?: readonly unknown[]) => {
        if (!sql.includes('telemetry_page_tokens')) return { rows: [] as T[] };
        const ids = params?.[0] as string[];
        claimed[claimed.length - 1]?.push(...ids);
        return { rows: ids.map((id) => ({ id })) as T[] };
      },
      exec: async () => undefined,
    };
    const { db } = slowDatabase(0);
    const rollsBackFirst = {
      ...db,
      transaction: async <T>(work: (q: Queryable) => Promise<T>): Promise<T> => {
        claimed.push([]);
        const result = await work(tx);
        if (claimed.length === 1) throw new Error('commit failed');
        return result;
      },
    };
    const store = new TelemetryStore(rollsBackFirst, ROUTE_OWNERS, { flushAtRows: 100_000, flushEveryMs: 3_600_000 });
    // 1,999 one-remote page views, then a signed one of two remotes: its rows straddle two writes.
    for (let index = 0; index < 1_999; index += 1) store.accept({ ...BATCH, builds: { intro: 'image' }, events: [] });
    store.accept(BATCH, 'blink', { provenance: 'signed', id: 'T'.repeat(22), expiresAt: 2_000_000_000, network: 'n' });
    await store.close();
    expect(claimed).toEqual([['T'.repeat(22)], ['T'.repeat(22)]]);
  });
});
