import type { Provenance, TelemetryBatch } from '@special-gift/shared/telemetry';
import type { Engine } from './engine';
import type { PageTokenCheck } from './page-token';

// A telemetry batch as the rows the tables hold: a session row per remote the page loaded, an event
// row per event (migrations in api/src/db/migrate.ts).

export interface SessionRow {
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

export interface EventRow {
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
