// `GET /v1/telemetry/verdict`'s answer: the canary's sequential decision (the rule:
// api/src/rollouts, docs/rollouts.md), as the API sends it and the CLI prints it.

export const CANARY_DECISIONS = ['advance', 'hold', 'rollback'] as const;
export type CanaryDecision = (typeof CANARY_DECISIONS)[number];

/** A proportion as the rule tests it: `events` of `trials` signed page views. */
export interface DecisionCount {
  readonly events: number;
  readonly trials: number;
}

/** One one-sided always-valid test: its statistic (log of the mixture likelihood ratio) and p-value. */
export interface SequentialTest {
  readonly logLikelihoodRatio: number;
  readonly pValue: number;
}

export interface DecisionMetric {
  /** `errors`: page views with an error or load failure; a vital: page views above the live build's p75 of it. */
  readonly metric: 'errors' | 'LCP' | 'INP' | 'CLS';
  readonly judged: boolean;
  readonly canary: DecisionCount;
  readonly baseline: DecisionCount;
  /** The live build's p75 the vital's shares are counted against; null for errors or with no reports. */
  readonly liveP75: number | null;
  readonly margin: number;
  /** Proves harm when its p-value is under alpha. */
  readonly harm: SequentialTest | null;
  /** Proves no harm beyond the margin when its p-value is under alpha. */
  readonly safety: SequentialTest | null;
  readonly state: 'harm' | 'safe' | 'open' | 'not judged';
}

export interface DecisionArm {
  readonly build: string;
  readonly sessions: number;
  readonly failedSessions: number;
  readonly p75: { readonly LCP: number | null; readonly INP: number | null; readonly CLS: number | null };
}

export interface CanaryDecisionAnswer {
  readonly remote: string;
  /** Signed page views counted from `since` (the canary's start) to `until` (now). */
  readonly since: string;
  readonly until: string;
  readonly elapsedMinutes: number;
  readonly decision: CanaryDecision;
  readonly reasons: readonly string[];
  readonly whatWouldChange: readonly string[];
  readonly arms: { readonly canary: DecisionArm; readonly baseline: DecisionArm };
  readonly metrics: readonly DecisionMetric[];
  /** The rule's parameters in force (the API's ROLLOUT_* settings). */
  readonly rule: {
    readonly alpha: number;
    readonly minViews: number;
    readonly maxDwellMinutes: number;
    readonly lowTraffic: 'advance' | 'hold';
    readonly errorMargin: number;
    readonly errorTau: number;
    readonly vitalMargin: number;
    readonly vitalTau: number;
  };
}

/** The answer's keys, in order, for the OpenAPI document's test. */
export const CANARY_DECISION_PROPERTIES = [
  'remote',
  'since',
  'until',
  'elapsedMinutes',
  'decision',
  'reasons',
  'whatWouldChange',
  'arms',
  'metrics',
  'rule',
] as const satisfies ReadonlyArray<keyof CanaryDecisionAnswer>;

/**
 * When `canary` started, from a remote's release history (newest first): the oldest of the
 * unbroken run of `canary` moves of that build at its top (a canary's later steps change its
 * share, not what is compared). Null when the history does not show it. The CLI and the console
 * ask for the decision from there.
 */
export function canaryStart(
  history: ReadonlyArray<{ readonly action: string; readonly buildId: string | null; readonly at: string }>,
  canary: string,
): string | null {
  let start: string | null = null;
  for (const entry of history) {
    if (entry.action !== 'canary' || entry.buildId !== canary) break;
    start = entry.at;
  }
  return start;
}
