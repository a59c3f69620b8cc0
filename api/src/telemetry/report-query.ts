import {
  PROVENANCES,
  WINDOW_SECONDS,
  type BuildReport,
  type EngineReport,
  type Provenance,
  type RemoteReport,
  type ReportWindow,
  type TelemetryReport,
} from '@special-gift/shared/telemetry';
import type { Queryable } from '../db/database';

interface Row {
  remote: string;
  build: string;
  /** The bucket's index (epoch seconds / bucket length); null on the rows of the whole window. */
  bucket: number | null;
  /** Set on the whole window's row of one engine; null on the others. */
  engine: string | null;
  /** Set on the whole window's row of one provenance; null on the others. */
  provenance: Provenance | null;
  /** Set on the whole window's rows split by whether the verdict judges them; null on the others. */
  judged: boolean | null;
  sessions: number;
  failed: number;
  lcp: number | null;
  inp: number | null;
  cls: number | null;
  lcp_samples: number;
  inp_samples: number;
  cls_samples: number;
}

/**
 * Signed page views the verdict judges per network (keyed hash of a /24 or /56), build and report
 * window: the first 5. A real visitor shows one build's screen a few times in an hour (the sign-up
 * is three screens, one page view each, a reload or two); more from one network is a script or a
 * big NAT. So an arm's 610 judged page views need at least 122 networks, where one address's tokens
 * sufficed before. A large office behind one address loses its page views past 5 from the verdict:
 * a later verdict (hold), never a wrong one; the report's other figures keep them all.
 */
export const JUDGED_PER_NETWORK = 5;

/**
 * Totals per remote and build over the window, per bucket, per engine, per provenance and judged
 * or not (the signed page views the verdict counts: at most JUDGED_PER_NETWORK per network), in one
 * pass (GROUPING SETS; engine, provenance and judged are NOT NULL in `windowed`, so a NULL marks a
 * row not grouped by it). p75 is
 * `percentile_disc`: the nearest-rank value, one that some session actually had (NULLs, sessions
 * that did not report the vital, are skipped).
 */
const REPORT_SQL = `
  WITH windowed AS (
    SELECT *,
      provenance = 'signed' AND row_number() OVER (
        PARTITION BY remote, build, provenance, network ORDER BY received_at
      ) <= $5 AS judged
    FROM telemetry_sessions
    WHERE received_at >= $1 AND received_at <= $2 AND ($4::text IS NULL OR remote = $4)
  )
  SELECT remote, build,
    floor(extract(epoch FROM received_at) / $3)::float8 AS bucket,
    engine,
    provenance,
    judged,
    count(*)::int AS sessions,
    (count(*) FILTER (WHERE failures > 0))::int AS failed,
    percentile_disc(0.75) WITHIN GROUP (ORDER BY lcp) AS lcp,
    percentile_disc(0.75) WITHIN GROUP (ORDER BY inp) AS inp,
    percentile_disc(0.75) WITHIN GROUP (ORDER BY cls) AS cls,
    count(lcp)::int AS lcp_samples,
    count(inp)::int AS inp_samples,
    count(cls)::int AS cls_samples
  FROM windowed
  GROUP BY GROUPING SETS (
    (remote, build), (remote, build, bucket), (remote, build, engine), (remote, build, provenance), (remote, build, judged)
  )`;

const rate = (failed: number, sessions: number) => (sessions > 0 ? failed / sessions : 0);

/** A vital no session reported stays null: an engine that lacks it shows it missing, not 0. */
const p75Of = (row: Row | undefined) => ({ LCP: row?.lcp ?? null, INP: row?.inp ?? null, CLS: row?.cls ?? null });

/**
 * The report over the last hour or day: the window starts at a bucket boundary (so buckets line up
 * from one request to the next) and ends now; the last bucket is the one under way.
 */
export async function buildReport(
  db: Queryable,
  {
    window,
    remote,
    now = new Date(),
  }: { readonly window: ReportWindow; readonly remote?: string; readonly now?: Date },
): Promise<TelemetryReport> {
  const { length, bucket: bucketSeconds } = WINDOW_SECONDS[window];
  const nowSeconds = now.getTime() / 1000;
  const firstBucket = Math.floor((nowSeconds - length) / bucketSeconds) + 1;
  const lastBucket = Math.floor(nowSeconds / bucketSeconds);
  const from = new Date(firstBucket * bucketSeconds * 1000);
  const to = now;
  const bucketIndexes = Array.from({ length: lastBucket - firstBucket + 1 }, (_, index) => firstBucket + index);

  const { rows } = await db.query<Row>(REPORT_SQL, [
    from.toISOString(),
    to.toISOString(),
    bucketSeconds,
    remote ?? null,
    JUDGED_PER_NETWORK,
  ]);

  interface Entry {
    total?: Row;
    buckets: Map<number, Row>;
    engines: Row[];
    provenances: Map<Provenance, Row>;
    judged?: Row;
  }
  const builds = new Map<string, Map<string, Entry>>();
  for (const row of rows) {
    const byBuild = builds.get(row.remote) ?? new Map<string, Entry>();
    builds.set(row.remote, byBuild);
    const entry: Entry = byBuild.get(row.build) ?? {
      buckets: new Map<number, Row>(),
      engines: [],
      provenances: new Map<Provenance, Row>(),
    };
    byBuild.set(row.build, entry);
    if (row.provenance !== null) entry.provenances.set(row.provenance, row);
    else if (row.engine !== null) entry.engines.push(row);
    else if (row.judged !== null) {
      if (row.judged) entry.judged = row;
    } else if (row.bucket === null) entry.total = row;
    else entry.buckets.set(row.bucket, row);
  }

  const remotes: RemoteReport[] = [...builds.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([remoteName, byBuild]) => ({
      remote: remoteName,
      builds: [...byBuild.entries()]
        .map(([build, { total, buckets, engines, provenances, judged: signed }]): BuildReport => {
          const at = (index: number) => buckets.get(index);
          return {
            build,
            sessions: total?.sessions ?? 0,
            failedSessions: total?.failed ?? 0,
            errorRate: rate(total?.failed ?? 0, total?.sessions ?? 0),
            p75: p75Of(total),
            samples: { LCP: total?.lcp_samples ?? 0, INP: total?.inp_samples ?? 0, CLS: total?.cls_samples ?? 0 },
            engines: engines
              .map((row): EngineReport => ({
                engine: row.engine ?? 'other',
                sessions: row.sessions,
                failedSessions: row.failed,
                p75: p75Of(row),
              }))
              .sort((a, b) => b.sessions - a.sessions || a.engine.localeCompare(b.engine)),
            provenance: Object.fromEntries(
              PROVENANCES.map((name) => [name, provenances.get(name)?.sessions ?? 0]),
            ) as Record<Provenance, number>,
            signed: {
              sessions: signed?.sessions ?? 0,
              failedSessions: signed?.failed ?? 0,
              errorRate: rate(signed?.failed ?? 0, signed?.sessions ?? 0),
              p75: p75Of(signed),
            },
            series: {
              sessions: bucketIndexes.map((index) => at(index)?.sessions ?? 0),
              errorRate: bucketIndexes.map((index) => {
                const row = at(index);
                return row ? rate(row.failed, row.sessions) : null;
              }),
              LCP: bucketIndexes.map((index) => at(index)?.lcp ?? null),
              INP: bucketIndexes.map((index) => at(index)?.inp ?? null),
              CLS: bucketIndexes.map((index) => at(index)?.cls ?? null),
            },
          };
        })
        .sort((a, b) => b.sessions - a.sessions || a.build.localeCompare(b.build)),
    }));

  return {
    window,
    from: from.toISOString(),
    to: to.toISOString(),
    bucketSeconds,
    buckets: bucketIndexes.map((index) => new Date(index * bucketSeconds * 1000).toISOString()),
    remotes,
  };
}
