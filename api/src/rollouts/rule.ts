// The canary's decision rule, for a check at any moment (docs/rollouts.md): roll back when harm is
// proven at α, advance when the absence of harm beyond the margin is proven at α (or, at the maximum
// dwell with no failure signal, by the low-traffic policy), else hold. Each metric is a difference
// of two proportions between the canary and the live build, over signed page views since the canary
// started, tested by the one-sided mSPRTs of sequential.ts.
import type { RolloutRuleParameters } from './parameters';
import { difference, harmTest, safetyTest, type Count, type OneSidedTest } from './sequential';

export const VITALS = ['LCP', 'INP', 'CLS'] as const;
export type RuleVital = (typeof VITALS)[number];
export type RuleMetric = 'errors' | RuleVital;

export interface ArmPair {
  readonly canary: Count;
  readonly live: Count;
}

export interface RuleInput {
  /** Signed page views with an error or a load failure (events) of all signed page views (trials). */
  readonly errors: ArmPair;
  /** Per vital: page views above the live build's p75 (events) of those that reported it (trials). */
  readonly vitals: Readonly<Record<RuleVital, ArmPair>>;
  /** Minutes since the canary started. */
  readonly elapsedMinutes: number;
}

export type RuleDecision = 'rollback' | 'advance' | 'hold';

export interface MetricResult {
  readonly metric: RuleMetric;
  /** Whether both arms have the minimum views for it; a vital with too few reports is not judged. */
  readonly judged: boolean;
  readonly canaryRate: number | null;
  readonly liveRate: number | null;
  /** The margin the safety test holds it to. */
  readonly margin: number;
  /** H₀ "not worse": its p-value below α proves harm. Null when not judged. */
  readonly harm: OneSidedTest | null;
  /** H₀ "worse by the margin or more": its p-value below α proves no such harm. Null when not judged. */
  readonly safety: OneSidedTest | null;
  readonly state: 'harm' | 'safe' | 'open' | 'not judged';
}

export interface RuleResult {
  readonly decision: RuleDecision;
  /** Sentences with their figures: why this decision. */
  readonly reasons: readonly string[];
  readonly metrics: readonly MetricResult[];
}

const rate = ({ events, trials }: Count) => (trials > 0 ? events / trials : null);
const percent = (value: number | null) => (value === null ? '-' : `${(value * 100).toFixed(2)}%`);
const p = (value: number) => (value < 0.0001 ? value.toExponential(1) : value.toPrecision(2));

function judge(
  metric: RuleMetric,
  arms: ArmPair,
  margin: number,
  tau: number,
  rule: RolloutRuleParameters,
): MetricResult {
  const base = { metric, canaryRate: rate(arms.canary), liveRate: rate(arms.live), margin };
  if (arms.canary.trials < rule.minViews || arms.live.trials < rule.minViews) {
    return { ...base, judged: false, harm: null, safety: null, state: 'not judged' };
  }
  const harm = harmTest(arms.canary, arms.live, tau);
  const safety = safetyTest(arms.canary, arms.live, margin, tau);
  const state = harm.pValue < rule.alpha ? 'harm' : safety.pValue < rule.alpha ? 'safe' : 'open';
  return { ...base, judged: true, harm, safety, state };
}

const label = (metric: RuleMetric) =>
  metric === 'errors' ? 'Error rate' : `Share of page views above the live build's p75 ${metric}`;

const describe = (result: MetricResult) =>
  `${label(result.metric)} ${percent(result.canaryRate)} against ${percent(result.liveRate)}` +
  (result.harm && result.safety
    ? ` (harm: log Λ = ${result.harm.logLikelihoodRatio.toFixed(2)}, always-valid p = ${p(result.harm.pValue)}; ` +
      `no harm beyond ${(result.margin * 100).toFixed(1)} points: p = ${p(result.safety.pValue)})`
    : '');

/**
 * Signed page views per arm the safety test would need, at the rates seen now, to prove no harm
 * beyond the margin: the variance shrinks as 1/n. Null when the rates seen now never would (the
 * canary's rise at or over the margin).
 */
export function viewsToAdvance(arms: ArmPair, margin: number, tau: number, alpha: number): number | null {
  const { estimate } = difference(arms.canary, arms.live);
  if (estimate >= margin) return null;
  const n = Math.min(arms.canary.trials, arms.live.trials);
  const scaled = (k: number) =>
    safetyTest(
      { events: (arms.canary.events / arms.canary.trials) * k, trials: k },
      { events: (arms.live.events / arms.live.trials) * k, trials: k },
      margin,
      tau,
    ).pValue < alpha;
  // Same rates, k page views per arm: double, then bisect.
  let high = Math.max(n, 1);
  while (!scaled(high)) {
    high *= 2;
    if (high > 1e9) return null;
  }
  let low = high / 2;
  while (high - low > Math.max(1, high * 0.01)) {
    const middle = (low + high) / 2;
    if (scaled(middle)) high = middle;
    else low = middle;
  }
  return Math.ceil(high);
}

export function decide(input: RuleInput, rule: RolloutRuleParameters): RuleResult {
  const errors = judge('errors', input.errors, rule.errorMargin, rule.errorTau, rule);
  const vitals = VITALS.map((vital) => judge(vital, input.vitals[vital], rule.vitalMargin, rule.vitalTau, rule));
  const metrics = [errors, ...vitals];
  const judged = metrics.filter((metric) => metric.judged);
  const notJudged = vitals.filter((metric) => !metric.judged).map((metric) => metric.metric);
  const notJudgedNote =
    notJudged.length > 0
      ? [`Not judged, too few reports (under ${rule.minViews} per arm): ${notJudged.join(', ')}.`]
      : [];

  const harmed = judged.filter((metric) => metric.state === 'harm');
  if (harmed.length > 0) {
    return {
      decision: 'rollback',
      reasons: harmed.map((metric) => `${describe(metric)}: harm proven at α = ${rule.alpha}.`),
      metrics,
    };
  }
  if (!errors.judged) {
    const short = [
      ['canary', input.errors.canary.trials],
      ['live', input.errors.live.trials],
    ].filter(([, trials]) => (trials as number) < rule.minViews);
    return {
      decision: 'hold',
      reasons: short.map(
        ([arm, trials]) =>
          `The ${arm} build has ${trials} signed page views; each needs ${rule.minViews} before a decision.`,
      ),
      metrics,
    };
  }
  const open = judged.filter((metric) => metric.state === 'open');
  if (open.length === 0) {
    return {
      decision: 'advance',
      reasons: [
        ...judged.map((metric) => `${describe(metric)}: no harm beyond the margin, proven at α = ${rule.alpha}.`),
        ...notJudgedNote,
      ],
      metrics,
    };
  }
  const dwellLeft = rule.maxDwellMinutes - input.elapsedMinutes;
  // "No failure signal": for every judged metric the evidence does not lean towards harm at all
  // (its mixture likelihood ratio at most 1, i.e. a harm p-value of 1), not merely short of proof.
  const noSignal = judged.every((metric) => (metric.harm?.logLikelihoodRatio ?? 0) <= 0);
  if (dwellLeft <= 0 && rule.lowTraffic === 'advance' && noSignal) {
    return {
      decision: 'advance',
      reasons: [
        `Maximum dwell of ${rule.maxDwellMinutes} minutes reached with no failure signal (low-traffic policy: advance).`,
        ...judged.map((metric) => `${describe(metric)}.`),
        ...notJudgedNote,
      ],
      metrics,
    };
  }
  return {
    decision: 'hold',
    reasons: [...open.map((metric) => `${describe(metric)}: not yet decided.`), ...notJudgedNote],
    metrics,
  };
}

/**
 * What would change a decision: for a hold, per open metric, the signed page views per arm that
 * would prove no harm at the rates seen now, and what the maximum dwell will do. Apart from
 * `decide` because it searches (the simulation, which only needs the decision, skips it).
 */
export function whatWouldChange(input: RuleInput, rule: RolloutRuleParameters, result: RuleResult): string[] {
  if (result.decision === 'rollback')
    return ['Nothing: an always-valid p-value under α stays a valid proof whatever comes next.'];
  if (result.decision === 'advance') return ['Nothing at this step: the canary may take the next share.'];
  if (!result.metrics[0]?.judged) {
    return [`${rule.minViews} signed page views per arm; never an advance on fewer, even past the maximum dwell.`];
  }
  const open = result.metrics.filter((metric) => metric.state === 'open');
  const whatWouldChange = open.map((metric) => {
    const arms = metric.metric === 'errors' ? input.errors : input.vitals[metric.metric];
    const tau = metric.metric === 'errors' ? rule.errorTau : rule.vitalTau;
    const needed = viewsToAdvance(arms, metric.margin, tau, rule.alpha);
    return (
      `${label(metric.metric)}: a roll back once its harm p-value falls under ${rule.alpha}; an advance once its ` +
      `no-harm p-value does` +
      (needed === null
        ? ', which the rates seen now never give (the rise is at or over the margin).'
        : `: at the rates seen now, at about ${needed} signed page views per arm.`)
    );
  });
  const dwellLeft = rule.maxDwellMinutes - input.elapsedMinutes;
  const policy =
    dwellLeft > 0
      ? `In ${Math.ceil(dwellLeft)} minutes the maximum dwell is reached: then ${
          rule.lowTraffic === 'advance'
            ? 'an advance if no metric leans towards harm (its harm p-value at 1)'
            : 'holding on for a person (policy: hold)'
        }.`
      : rule.lowTraffic === 'hold'
        ? 'The maximum dwell is past and the low-traffic policy is hold: a person decides.'
        : 'The maximum dwell is past, but a metric leans towards harm (harm p-value under 1): no advance on that.';
  return [...whatWouldChange, policy];
}
