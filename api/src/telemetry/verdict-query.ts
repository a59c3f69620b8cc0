// The canary decision's figures: the two builds' signed page views since the canary started, at
// most JUDGED_PER_NETWORK per network (as the report judges them), with, per vital, how many page
// views of each build were above the live build's p75 (the rule: api/src/rollouts, docs/rollouts.md).
import type { Queryable } from '../db/database';
import { JUDGED_PER_NETWORK } from './report-query';

export const DECISION_VITALS = ['LCP', 'INP', 'CLS'] as const;
type Vital = (typeof DECISION_VITALS)[number];

export interface DecisionArmFigures {
  readonly build: string;
  readonly sessions: number;
  readonly failedSessions: number;
  readonly p75: Record<Vital, number | null>;
  /** Per vital: page views that reported it, and those above the live build's p75 of it. */
  readonly vitals: Record<Vital, { readonly samples: number; readonly aboveLiveP75: number }>;
}

export interface DecisionFigures {
  readonly canary: DecisionArmFigures;
  readonly baseline: DecisionArmFigures;
  readonly liveP75: Record<Vital, number | null>;
}

interface Row {
  build: string;
  sessions: number;
  failed: number;
  p75_lcp: number | null;
  p75_inp: number | null;
  p75_cls: number | null;
  lcp_samples: number;
  inp_samples: number;
  cls_samples: number;
  lcp_above: number;
  inp_above: number;
  cls_above: number;
  live_lcp: number | null;
  live_inp: number | null;
  live_cls: number | null;
}

/** $1 remote, $2 canary, $3 baseline (live), $4 since, $5 until, $6 judged per network. */
const DECISION_SQL = `
  WITH judged AS (
    SELECT build, failures, lcp, inp, cls FROM (
      SELECT build, failures, lcp, inp, cls,
        row_number() OVER (PARTITION BY build, network ORDER BY received_at) AS nth
      FROM telemetry_sessions
      WHERE remote = $1 AND build IN ($2, $3) AND provenance = 'signed'
        AND received_at >= $4 AND received_at <= $5
    ) numbered
    WHERE nth <= $6
  ), live AS (
    SELECT percentile_disc(0.75) WITHIN GROUP (ORDER BY lcp) AS lcp,
      percentile_disc(0.75) WITHIN GROUP (ORDER BY inp) AS inp,
      percentile_disc(0.75) WITHIN GROUP (ORDER BY cls) AS cls
    FROM judged WHERE build = $3
  )
  SELECT judged.build,
    count(*)::int AS sessions,
    (count(*) FILTER (WHERE judged.failures > 0))::int AS failed,
    percentile_disc(0.75) WITHIN GROUP (ORDER BY judged.lcp) AS p75_lcp,
    percentile_disc(0.75) WITHIN GROUP (ORDER BY judged.inp) AS p75_inp,
    percentile_disc(0.75) WITHIN GROUP (ORDER BY judged.cls) AS p75_cls,
    count(judged.lcp)::int AS lcp_samples,
    count(judged.inp)::int AS inp_samples,
    count(judged.cls)::int AS cls_samples,
    (count(*) FILTER (WHERE judged.lcp > live.lcp))::int AS lcp_above,
    (count(*) FILTER (WHERE judged.inp > live.inp))::int AS inp_above,
    (count(*) FILTER (WHERE judged.cls > live.cls))::int AS cls_above,
    max(live.lcp) AS live_lcp,
    max(live.inp) AS live_inp,
    max(live.cls) AS live_cls
  FROM judged CROSS JOIN live
  GROUP BY judged.build`;

const empty = (build: string): DecisionArmFigures => ({
  build,
  sessions: 0,
  failedSessions: 0,
  p75: { LCP: null, INP: null, CLS: null },
  vitals: {
    LCP: { samples: 0, aboveLiveP75: 0 },
    INP: { samples: 0, aboveLiveP75: 0 },
    CLS: { samples: 0, aboveLiveP75: 0 },
  },
});

const arm = (row: Row): DecisionArmFigures => ({
  build: row.build,
  sessions: row.sessions,
  failedSessions: row.failed,
  p75: { LCP: row.p75_lcp, INP: row.p75_inp, CLS: row.p75_cls },
  vitals: {
    LCP: { samples: row.lcp_samples, aboveLiveP75: row.lcp_above },
    INP: { samples: row.inp_samples, aboveLiveP75: row.inp_above },
    CLS: { samples: row.cls_samples, aboveLiveP75: row.cls_above },
  },
});

/** The canary's and the live build's figures over signed page views from `since` to `until`. */
export async function decisionFigures(
  db: Queryable,
  query: { remote: string; canary: string; baseline: string; since: Date; until: Date },
): Promise<DecisionFigures> {
  const { rows } = await db.query<Row>(DECISION_SQL, [
    query.remote,
    query.canary,
    query.baseline,
    query.since.toISOString(),
    query.until.toISOString(),
    JUDGED_PER_NETWORK,
  ]);
  const find = (build: string) => rows.find((row) => row.build === build);
  const live = find(query.baseline);
  const canaryRow = find(query.canary);
  return {
    canary: canaryRow ? arm(canaryRow) : empty(query.canary),
    baseline: live ? arm(live) : empty(query.baseline),
    liveP75: {
      LCP: live?.live_lcp ?? canaryRow?.live_lcp ?? null,
      INP: live?.live_inp ?? canaryRow?.live_inp ?? null,
      CLS: live?.live_cls ?? canaryRow?.live_cls ?? null,
    },
  };
}
