// A rollout's plan (docs/rollouts.md, "The plan"): its steps, each a share of pages with a minimum
// dwell and maybe an approval, then promote. Validated here, pure; the floor of the dwell comes from
// the API's configuration (ROLLOUT_MIN_STEP_DWELL_SECONDS), so tests shorten it the way production
// would, and a plan under it is refused rather than shortened.
import type { RolloutPlan, RolloutStep } from '@special-gift/shared/api';
import type { LowTrafficPolicy } from './parameters';

export interface PlanLimits {
  /** The shortest `minDwell` a step may have, in seconds. */
  readonly minDwellSeconds: number;
  /** `lowTraffic` when the plan does not say (the rule's `ROLLOUT_LOW_TRAFFIC`). */
  readonly lowTraffic: LowTrafficPolicy;
}

export const MAX_PLAN_STEPS = 10;
const MAX_DWELL_SECONDS = 7 * 86_400;
const DURATION = /^([1-9][0-9]{0,6})(s|m|h)$/;
const UNIT_SECONDS = { s: 1, m: 60, h: 3600 } as const;

/** A plan's `minDwell` in seconds; null when it is not `<n>s`, `<n>m` or `<n>h`. */
export function durationSeconds(value: string): number | null {
  const match = DURATION.exec(value);
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2] as keyof typeof UNIT_SECONDS];
}

/** 1 → 5 → 25 → 50 %, then promote, with no approval: the plan of a remote that has none of its own. */
export function defaultPlan(limits: PlanLimits): RolloutPlan {
  // Never under the configured floor (a deployment may raise it above the built-in dwell).
  const dwell = (seconds: number) => `${Math.max(seconds, limits.minDwellSeconds)}s`;
  return {
    steps: [
      { percent: 1, minDwell: dwell(1800) },
      { percent: 5, minDwell: dwell(1800) },
      { percent: 25, minDwell: dwell(3600) },
      { percent: 50, minDwell: dwell(3600) },
    ],
    promote: { approval: false },
    minNewViewsPerStep: 20,
    lowTraffic: limits.lowTraffic,
  };
}

export type PlanParse =
  { readonly ok: true; readonly plan: RolloutPlan } | { readonly ok: false; readonly problems: string[] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function unknownKeys(value: Record<string, unknown>, known: readonly string[], where: string): string[] {
  return Object.keys(value)
    .filter((key) => !known.includes(key))
    .map((key) => `${where} has an unknown field \`${key}\`.`);
}

function parseStep(value: unknown, index: number, limits: PlanLimits, problems: string[]): RolloutStep | null {
  const where = `steps[${index}]`;
  if (!isObject(value)) {
    problems.push(`${where} must be an object {percent, minDwell, approval?}.`);
    return null;
  }
  problems.push(...unknownKeys(value, ['percent', 'minDwell', 'approval'], where));
  const { percent, minDwell, approval } = value;
  if (typeof percent !== 'number' || !Number.isInteger(percent) || percent < 1 || percent > 99)
    problems.push(`${where}.percent must be an integer from 1 to 99 (promote gives 100).`);
  const seconds = typeof minDwell === 'string' ? durationSeconds(minDwell) : null;
  if (seconds === null) problems.push(`${where}.minDwell must be a duration like 30s, 30m or 1h.`);
  else if (seconds < limits.minDwellSeconds)
    problems.push(`${where}.minDwell is ${seconds} s, under this API's floor of ${limits.minDwellSeconds} s.`);
  else if (seconds > MAX_DWELL_SECONDS) problems.push(`${where}.minDwell must be at most 7 days.`);
  if (approval !== undefined && typeof approval !== 'boolean')
    problems.push(`${where}.approval must be true or false.`);
  if (typeof percent !== 'number' || typeof minDwell !== 'string') return null;
  return typeof approval === 'boolean' ? { percent, minDwell, approval } : { percent, minDwell };
}

/** Validates a plan sent by a client (or stored as a remote's default); every problem at once. */
export function parsePlan(value: unknown, limits: PlanLimits): PlanParse {
  const problems: string[] = [];
  if (!isObject(value))
    return { ok: false, problems: ['The plan must be an object {steps, promote?, minNewViewsPerStep?, lowTraffic?}.'] };
  problems.push(...unknownKeys(value, ['steps', 'promote', 'minNewViewsPerStep', 'lowTraffic'], 'The plan'));
  const steps: RolloutStep[] = [];
  if (!Array.isArray(value.steps) || value.steps.length === 0 || value.steps.length > MAX_PLAN_STEPS) {
    problems.push(`steps must be a list of 1 to ${MAX_PLAN_STEPS} steps.`);
  } else {
    value.steps.forEach((raw, index) => {
      const step = parseStep(raw, index, limits, problems);
      if (step) steps.push(step);
    });
    for (let index = 1; index < steps.length; index += 1) {
      const [before, after] = [steps[index - 1], steps[index]];
      if (before && after && after.percent <= before.percent)
        problems.push(`steps' percents must rise strictly: ${before.percent} then ${after.percent}.`);
    }
  }
  let promote = { approval: false };
  if (value.promote !== undefined) {
    if (!isObject(value.promote) || typeof value.promote.approval !== 'boolean')
      problems.push('promote must be {approval: true|false}.');
    else {
      problems.push(...unknownKeys(value.promote, ['approval'], 'promote'));
      promote = { approval: value.promote.approval };
    }
  }
  const minNewViewsPerStep = value.minNewViewsPerStep ?? 20;
  if (
    typeof minNewViewsPerStep !== 'number' ||
    !Number.isInteger(minNewViewsPerStep) ||
    minNewViewsPerStep < 1 ||
    minNewViewsPerStep > 1_000_000
  )
    problems.push('minNewViewsPerStep must be an integer from 1 to 1000000: no data, no advance.');
  const lowTraffic = value.lowTraffic ?? limits.lowTraffic;
  if (lowTraffic !== 'advance' && lowTraffic !== 'hold') problems.push('lowTraffic must be advance or hold.');
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    plan: {
      steps,
      promote,
      minNewViewsPerStep: minNewViewsPerStep as number,
      lowTraffic: lowTraffic as LowTrafficPolicy,
    },
  };
}

/** A plan in one line, for the audit trail: `1 % 30m → 5 % 1h (approval) → promote`. */
export function describePlan(plan: RolloutPlan): string {
  const steps = plan.steps.map((step) => `${step.percent} % ${step.minDwell}${step.approval ? ' (approval)' : ''}`);
  return [...steps, `promote${plan.promote.approval ? ' (approval)' : ''}`].join(' → ');
}
