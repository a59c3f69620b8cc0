import {
  WINDOW_SECONDS,
  type BuildReport,
  type RemoteReport,
  type ReportWindow,
  type TelemetryReport,
} from '@special-gift/shared/telemetry';
import type { Queryable } from '../db/database';

interface Row {
  remote: string;
  build: string;
  /** The bucket's index (epoch seconds / bucket length); null on the row with the whole window's totals. */
  bucket: number | null;
  sessions: number;
  failed: number;
  lcp: number | null;
  inp: number | null;
  cls: number | null;
}

/**
 * Totals per remote and build over the window and per bucket, in one pass (GROUPING SETS). p75 is
 * `percentile_disc`: the nearest-rank value, one that some session actually had (NULLs, sessions
 * that did not report the vital, are skipped).
 */
const REPORT_SQL = `
  SELECT remote, build,
    floor(extract(epoch FROM received_at) / $3)::float8 AS bucket,
    count(*)::int AS sessions,
    (count(*) FILTER (WHERE failures > 0))::int AS failed,
    percentile_disc(0.75) WITHIN GROUP (ORDER BY lcp) AS lcp,
    percentile_disc(0.75) WITHIN GROUP (ORDER BY inp) AS inp,
    percentile_disc(0.75) WITHIN GROUP (ORDER BY cls) AS cls
  FROM telemetry_sessions
  WHERE received_at >= $1 AND received_at <= $2 AND ($4::text IS NULL OR remote = $4)
  GROUP BY GROUPING SETS ((remote, build), (remote, build, bucket))`;

const rate = (failed: number, sessions: number) => (sessions > 0 ? failed / sessions : 0);

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
  ]);

  const builds = new Map<string, Map<string, { total?: Row; buckets: Map<number, Row> }>>();
  for (const row of rows) {
    const byBuild = builds.get(row.remote) ?? new Map<string, { total?: Row; buckets: Map<number, Row> }>();
    builds.set(row.remote, byBuild);
    const entry = byBuild.get(row.build) ?? { buckets: new Map<number, Row>() };
    byBuild.set(row.build, entry);
    if (row.bucket === null) entry.total = row;
    else entry.buckets.set(row.bucket, row);
  }

  const remotes: RemoteReport[] = [...builds.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([remoteName, byBuild]) => ({
      remote: remoteName,
      builds: [...byBuild.entries()]
        .map(([build, { total, buckets }]): BuildReport => {
          const at = (index: number) => buckets.get(index);
          return {
            build,
            sessions: total?.sessions ?? 0,
            failedSessions: total?.failed ?? 0,
            errorRate: rate(total?.failed ?? 0, total?.sessions ?? 0),
            p75: { LCP: total?.lcp ?? null, INP: total?.inp ?? null, CLS: total?.cls ?? null },
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
