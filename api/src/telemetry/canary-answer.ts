// The canary's answer from its signed page views (docs/rollouts.md): the same for the verdict route
// (GET /v1/telemetry/verdict) and the rollout runner, so what a person reads is what the runner acts on.
import type { CanaryDecisionAnswer } from '@special-gift/shared/telemetry';
import type { Queryable } from '../db/database';
import {
  decide,
  VITALS,
  whatWouldChange,
  type RolloutRuleParameters,
  type RuleInput,
  type RuleResult,
} from '../rollouts';
import { decisionFigures } from './verdict-query';

export interface CanaryQuestion {
  readonly remote: string;
  readonly canary: string;
  readonly baseline: string;
  readonly since: Date;
  readonly until: Date;
}

export async function canaryAnswer(
  db: Queryable,
  { remote, canary, baseline, since, until }: CanaryQuestion,
  rule: RolloutRuleParameters,
): Promise<{ answer: CanaryDecisionAnswer; result: RuleResult }> {
  const figures = await decisionFigures(db, { remote, canary, baseline, since, until });
  const count = (events: number, trials: number) => ({ events, trials });
  const input: RuleInput = {
    errors: {
      canary: count(figures.canary.failedSessions, figures.canary.sessions),
      live: count(figures.baseline.failedSessions, figures.baseline.sessions),
    },
    vitals: Object.fromEntries(
      VITALS.map((vital) => [
        vital,
        {
          canary: count(figures.canary.vitals[vital].aboveLiveP75, figures.canary.vitals[vital].samples),
          live: count(figures.baseline.vitals[vital].aboveLiveP75, figures.baseline.vitals[vital].samples),
        },
      ]),
    ) as RuleInput['vitals'],
    elapsedMinutes: (until.getTime() - since.getTime()) / 60_000,
  };
  const result = decide(input, rule);
  const answer: CanaryDecisionAnswer = {
    remote,
    since: since.toISOString(),
    until: until.toISOString(),
    elapsedMinutes: Math.floor(input.elapsedMinutes),
    decision: result.decision,
    reasons: result.reasons,
    whatWouldChange: whatWouldChange(input, rule, result),
    arms: {
      canary: {
        build: canary,
        sessions: figures.canary.sessions,
        failedSessions: figures.canary.failedSessions,
        p75: figures.canary.p75,
      },
      baseline: {
        build: baseline,
        sessions: figures.baseline.sessions,
        failedSessions: figures.baseline.failedSessions,
        p75: figures.baseline.p75,
      },
    },
    metrics: result.metrics.map((metric) => {
      const arms = metric.metric === 'errors' ? input.errors : input.vitals[metric.metric];
      return {
        metric: metric.metric,
        judged: metric.judged,
        canary: arms.canary,
        baseline: arms.live,
        liveP75: metric.metric === 'errors' ? null : figures.liveP75[metric.metric],
        margin: metric.margin,
        harm: metric.harm,
        safety: metric.safety,
        state: metric.state,
      };
    }),
    rule,
  };
  return { answer, result };
}

/**
 * Signed page views of `build` received in [since, until], not capped per network: whether field
 * data arrives at all (the runner's "no data, no advance"), not evidence.
 */
export async function signedViewsSince(
  db: Queryable,
  { remote, build, since, until }: { remote: string; build: string; since: Date; until: Date },
): Promise<number> {
  const found = await db.query<{ views: number }>(
    `SELECT count(*)::int AS views FROM telemetry_sessions
      WHERE remote = $1 AND build = $2 AND provenance = 'signed' AND received_at >= $3 AND received_at <= $4`,
    [remote, build, since.toISOString(), until.toISOString()],
  );
  return found.rows[0]?.views ?? 0;
}
