// The telemetry report as `GET /v1/telemetry/report` answers it: read by the report page, the CLI
// and the canary verdict. Arrays in `series` are aligned with `buckets`, the shape charts take.

export const REPORT_WINDOWS = ['1h', '1d'] as const;
export type ReportWindow = (typeof REPORT_WINDOWS)[number];

/** The window's length and its buckets: 5-minute buckets for the hour, hourly ones for the day. */
export const WINDOW_SECONDS: Readonly<Record<ReportWindow, { readonly length: number; readonly bucket: number }>> = {
  '1h': { length: 3600, bucket: 300 },
  '1d': { length: 86_400, bucket: 3600 },
};

/** p75 of each vital over the sessions that reported it; null when none did. */
export interface P75 {
  readonly LCP: number | null;
  readonly INP: number | null;
  readonly CLS: number | null;
}

export interface BuildSeries {
  readonly sessions: readonly number[];
  /** null where a bucket has no session. */
  readonly errorRate: ReadonlyArray<number | null>;
  readonly LCP: ReadonlyArray<number | null>;
  readonly INP: ReadonlyArray<number | null>;
  readonly CLS: ReadonlyArray<number | null>;
}

/**
 * One browser engine's share of a build: its page views and the p75 of the vitals it reported. A
 * vital the engine does not measure (no Event Timing, no LCP) is null here, never 0.
 */
export interface EngineReport {
  /** blink, gecko, webkit, other; unknown for page views stored before engines were recorded. */
  readonly engine: string;
  readonly sessions: number;
  readonly failedSessions: number;
  readonly p75: P75;
}

/**
 * What a page view's batch proved about where it came from (docs/telemetry.md, "Signed page views"):
 * `signed`, a valid page token used for the first time; `unsigned`, no token (a page served without
 * one, an old collector, a script); and the refused: `expired` (a token older than its lifetime),
 * `replayed` (a token already used), `forged` (a signature that is not the API's) and `mismatched`
 * (builds other than the token's). Every one is in the report; only `signed` in the canary verdict.
 */
export const PROVENANCES = ['signed', 'unsigned', 'expired', 'replayed', 'forged', 'mismatched'] as const;
export type Provenance = (typeof PROVENANCES)[number];
/** The provenances of a batch that carried a token the API refused. */
export const REFUSED_PROVENANCES = [
  'expired',
  'replayed',
  'forged',
  'mismatched',
] as const satisfies readonly Provenance[];

/** A build's figures over one set of its page views. */
export interface BuildFigures {
  readonly sessions: number;
  readonly failedSessions: number;
  readonly errorRate: number;
  readonly p75: P75;
}

/** `12 (expired 2, replayed 10)`: a build's refused page views and why; `0` when none. */
export function describeRefused(provenance: Readonly<Record<Provenance, number>> | undefined): string {
  const counts = REFUSED_PROVENANCES.map((name) => [name, provenance?.[name] ?? 0] as const);
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  const reasons = counts.filter(([, count]) => count > 0).map(([name, count]) => `${name} ${count}`);
  return total > 0 ? `${total} (${reasons.join(', ')})` : '0';
}

export interface BuildReport {
  readonly build: string;
  /** Page views that loaded this build of the remote. */
  readonly sessions: number;
  /** Of those, the ones with at least one load failure, render error or uncaught error of this remote. */
  readonly failedSessions: number;
  /** failedSessions / sessions (0 when there is no session). */
  readonly errorRate: number;
  readonly p75: P75;
  /** How many of its sessions reported each vital: the sample each p75 is over. */
  readonly samples: { readonly LCP: number; readonly INP: number; readonly CLS: number };
  /** Which engines the page views (and so the vitals) came from, most sessions first. */
  readonly engines: readonly EngineReport[];
  /** The page views by provenance: how many were signed, unsigned or refused (and why). */
  readonly provenance: Readonly<Record<Provenance, number>>;
  /** The same figures over signed page views only: what the canary verdict judges. */
  readonly signed: BuildFigures;
  readonly series: BuildSeries;
}

export interface RemoteReport {
  readonly remote: string;
  /** Most sessions first. */
  readonly builds: readonly BuildReport[];
}

export interface TelemetryReport {
  readonly window: ReportWindow;
  /** ISO 8601: the window, from its first bucket's start to the time of the report (both included). */
  readonly from: string;
  readonly to: string;
  readonly bucketSeconds: number;
  /** Each bucket's start, ISO 8601, oldest first; every series has one value per bucket. */
  readonly buckets: readonly string[];
  readonly remotes: readonly RemoteReport[];
}
