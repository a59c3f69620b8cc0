// The canary verdict: promote, hold or roll back a remote's canary build against its baseline,
// from the two builds' figures in a telemetry report. Pure, so the CLI, the page and tests agree.
// docs/telemetry.md explains the rule; the constants below say why each number is what it is.
import type { BuildReport } from './report';

/**
 * Sessions each arm needs before anything but "hold" is said. Sized to detect an error-rate rise
 * from 1% (baseline) to 3% (canary) with a one-sided two-proportion z-test at α = 0.05 and 80%
 * power: n = (z_α·√(2·p̄·q̄) + z_β·√(p₁q₁ + p₂q₂))² / (p₂ − p₁)², with p̄ = 2%, z_α = 1.645,
 * z_β = 0.842, gives 605; rounded up.
 */
export const MIN_SESSIONS_PER_ARM = 610;
/** One-sided significance level of the error-rate test. */
export const ALPHA = 0.05;
/**
 * The smallest rise in error rate (absolute) worth a roll back: at large volumes a 0.1-point rise is
 * "significant" yet no reason to stop a release.
 */
export const ERROR_RATE_MARGIN = 0.005;
/** A canary whose p75 INP or LCP is more than this much worse than the baseline's is rolled back. */
export const VITAL_WORSE_RATIO = 1.2;

export interface ArmFigures {
  readonly build: string;
  readonly sessions: number;
  readonly failedSessions: number;
  readonly p75LCP: number | null;
  readonly p75INP: number | null;
}

/**
 * A build's arm as the verdict judges it: its **signed** page views only (a valid page token, used
 * once), so batches a script made up, replayed or tampered with move no verdict (docs/telemetry.md).
 * The CLI and the console both read a report through this.
 */
export function verdictArm(build: string, found: BuildReport | undefined): ArmFigures {
  return {
    build,
    sessions: found?.signed.sessions ?? 0,
    failedSessions: found?.signed.failedSessions ?? 0,
    p75LCP: found?.signed.p75.LCP ?? null,
    p75INP: found?.signed.p75.INP ?? null,
  };
}

export type Decision = 'promote' | 'hold' | 'roll back';

export interface Verdict {
  readonly decision: Decision;
  /** Plain sentences, each with its figures: why this decision. */
  readonly reasons: readonly string[];
  readonly canaryErrorRate: number;
  readonly baselineErrorRate: number;
  /** The z statistic of canary > baseline; null when it is undefined (no failure in either arm). */
  readonly z: number | null;
  /** One-sided p-value of that test; null with z. */
  readonly pValue: number | null;
}

/** The standard normal CDF, by the Abramowitz-Stegun 7.1.26 erf approximation (error < 1.5e-7). */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** One-sided pooled two-proportion z-test that p(canary) > p(baseline). */
export function twoProportionZ(
  canary: { failed: number; n: number },
  baseline: { failed: number; n: number },
): { z: number; pValue: number } | null {
  if (canary.n === 0 || baseline.n === 0) return null;
  const pooled = (canary.failed + baseline.failed) / (canary.n + baseline.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / canary.n + 1 / baseline.n));
  if (se === 0) return null;
  const z = (canary.failed / canary.n - baseline.failed / baseline.n) / se;
  return { z, pValue: 1 - normalCdf(z) };
}

const percent = (rate: number) => `${(rate * 100).toFixed(2)}%`;

export function canaryVerdict(canary: ArmFigures, baseline: ArmFigures): Verdict {
  const rate = (arm: ArmFigures) => (arm.sessions > 0 ? arm.failedSessions / arm.sessions : 0);
  const canaryErrorRate = rate(canary);
  const baselineErrorRate = rate(baseline);
  const test = twoProportionZ(
    { failed: canary.failedSessions, n: canary.sessions },
    { failed: baseline.failedSessions, n: baseline.sessions },
  );
  const figures = { canaryErrorRate, baselineErrorRate, z: test?.z ?? null, pValue: test?.pValue ?? null };

  const short = [canary, baseline].filter((arm) => arm.sessions < MIN_SESSIONS_PER_ARM);
  if (short.length > 0) {
    return {
      decision: 'hold',
      reasons: short.map(
        (arm) =>
          `${arm.build} has ${arm.sessions} sessions; each build needs ${MIN_SESSIONS_PER_ARM} before a verdict.`,
      ),
      ...figures,
    };
  }

  const reasons: string[] = [];
  const rise = canaryErrorRate - baselineErrorRate;
  if (test !== null && test.pValue < ALPHA && rise > ERROR_RATE_MARGIN) {
    reasons.push(
      `Error rate ${percent(canaryErrorRate)} against ${percent(baselineErrorRate)}: ` +
        `${(rise * 100).toFixed(2)} points higher (z = ${test.z.toFixed(2)}, p = ${test.pValue.toPrecision(2)} < ${ALPHA}).`,
    );
  }
  for (const [name, canaryValue, baselineValue] of [
    ['INP', canary.p75INP, baseline.p75INP],
    ['LCP', canary.p75LCP, baseline.p75LCP],
  ] as const) {
    if (canaryValue !== null && baselineValue !== null && canaryValue > baselineValue * VITAL_WORSE_RATIO) {
      reasons.push(
        `p75 ${name} ${canaryValue.toFixed(0)} ms against ${baselineValue.toFixed(0)} ms: ` +
          `${((canaryValue / baselineValue - 1) * 100).toFixed(0)}% worse (limit ${((VITAL_WORSE_RATIO - 1) * 100).toFixed(0)}%).`,
      );
    }
  }
  if (reasons.length > 0) return { decision: 'roll back', reasons, ...figures };
  return {
    decision: 'promote',
    reasons: [
      `Error rate ${percent(canaryErrorRate)} against ${percent(baselineErrorRate)}` +
        (test ? ` (p = ${test.pValue.toPrecision(2)})` : '') +
        `; p75 INP and LCP within ${((VITAL_WORSE_RATIO - 1) * 100).toFixed(0)}% of the baseline.`,
    ],
    ...figures,
  };
}
