// What `rollout status` and `rollout --wait` print (docs/releases.md, "Rollouts from the CLI"): pure,
// from the API's RolloutDetail and the time now, so it is tested on fixtures.
import {
  describePlanSource,
  FINISHED_ROLLOUT_STATES,
  type Rollout,
  type RolloutDetail,
  type RemoteRolloutPlan,
  type RolloutEvent,
  type RolloutPlan,
  type RolloutState,
} from '@special-gift/shared/api';
import { formatTable } from './table';
import { formatDecision } from './telemetry/telemetry-tool';

/** `--wait`'s exit code for a rollout in `state`: 0 succeeded, 1 rolled back, failed or aborted; undefined while under way. */
export function rolloutExitCode(state: RolloutState): 0 | 1 | undefined {
  if (state === 'succeeded') return 0;
  return (FINISHED_ROLLOUT_STATES as readonly RolloutState[]).includes(state) ? 1 : undefined;
}

/** "45 s", "12 min", "3 h 5 min": how long, to the unit a person reads. */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 === 0 ? '' : ` ${minutes % 60} min`}`;
}

const since = (from: string, to: string) => formatDuration(Date.parse(to) - Date.parse(from));
const relative = (at: string, now: Date) => {
  const ms = Date.parse(at) - now.getTime();
  return ms >= 0 ? `in ${formatDuration(ms)}` : `${formatDuration(-ms)} ago`;
};

/** One line: where a rollout stands ("step 2 of 4 at 5 %", "rolled back: <why>"). */
export function describeRollout(rollout: Rollout): string {
  const steps = rollout.plan.steps.length;
  const at = `step ${rollout.stepIndex + 1} of ${steps} at ${rollout.percent} %`;
  switch (rollout.state) {
    case 'gating':
      return 'at the gates (no user has it yet)';
    case 'stepping':
      return rollout.stepIndex >= steps ? 'promoting' : at;
    case 'awaiting_approval':
      return `awaiting approval (${rollout.stepIndex < 0 ? 'no share yet' : at})`;
    case 'paused':
      return `paused (${rollout.stepIndex < 0 ? 'at the gates' : at})`;
    case 'succeeded':
      return `succeeded: ${rollout.buildId} is live`;
    default:
      return `${rollout.state.replace('_', ' ')}: ${rollout.outcomeReason}`;
  }
}

/** A timeline line: when, what, at which step and share (none at the gates: -1), by whom, why. */
export function formatEvent(event: RolloutEvent): string {
  const where =
    event.stepIndex === null || event.stepIndex < 0
      ? ''
      : ` (step ${event.stepIndex + 1}${event.percent === null ? '' : `, ${event.percent} %`})`;
  return `${event.at} ${event.kind}${where} by ${event.actor}${event.reason === '' ? '' : `: ${event.reason}`}`;
}

function stepRows(detail: RolloutDetail, now: Date): string[][] {
  const finished = rolloutExitCode(detail.state) !== undefined;
  const approval = (index: number, needed: boolean | undefined) => {
    if (!needed) return '';
    const row = detail.approvals.find((candidate) => candidate.stepIndex === index);
    if (row?.approvedBy) return `approved by ${row.approvedBy}`;
    return row ? 'requested' : 'needed';
  };
  const progress = (index: number) => {
    if (detail.state === 'succeeded' || index < detail.stepIndex) return 'done';
    if (index > detail.stepIndex) return '';
    if (finished) return 'ended here';
    if (detail.state === 'paused') return 'paused here';
    if (detail.state === 'awaiting_approval') return 'awaiting approval';
    const until = detail.earliestAdvanceAt;
    return until !== null && Date.parse(until) > now.getTime()
      ? `now: ${formatDuration(Date.parse(until) - now.getTime())} of dwell left`
      : 'now: dwell done';
  };
  return planRows(detail.plan, approval, progress);
}

/**
 * A plan's steps, then promote, as table rows: share, dwell, what `approval` says of each one's
 * approval (needed or not, by default) and, given `progress`, where the rollout stands at it.
 */
export function planRows(
  plan: RolloutPlan,
  approval: (index: number, needed: boolean | undefined) => string = (_index, needed) => (needed ? 'needed' : ''),
  progress?: (index: number) => string,
): string[][] {
  const { steps } = plan;
  const row = (cells: string[], index: number) => (progress === undefined ? cells : [...cells, progress(index)]);
  return [
    ['step', 'share', 'dwell', 'approval', ...(progress === undefined ? [] : ['progress'])],
    ...steps.map((step, index) =>
      row([String(index + 1), `${step.percent} %`, step.minDwell, approval(index, step.approval)], index),
    ),
    row(['promote', '100 %', '', approval(steps.length, plan.promote.approval)], steps.length),
  ];
}

/** `rollout status`: the rollout, its gates, its steps, the rule's last answer and the timeline. */
export function formatRolloutStatus(detail: RolloutDetail, now: Date): string {
  const lines = [
    `${detail.remote}: rollout ${detail.id} of ${detail.buildId}, against live ${detail.baselineBuild} (${detail.environment})`,
    `State: ${describeRollout(detail)} (version ${detail.version})`,
    `Started by ${detail.startedBy} at ${detail.startedAt}`,
  ];
  if (detail.finishedAt !== null) lines.push(`Ended at ${detail.finishedAt}`);
  else {
    const next =
      detail.nextCheckAt === null ? '' : `Next check ${detail.nextCheckAt} (${relative(detail.nextCheckAt, now)})`;
    const advance =
      detail.earliestAdvanceAt === null
        ? ''
        : `this step may advance from ${detail.earliestAdvanceAt} (${relative(detail.earliestAdvanceAt, now)})`;
    if (next !== '' || advance !== '') lines.push([next, advance].filter((part) => part !== '').join('; '));
  }
  lines.push(
    '',
    'Gates',
    ...formatTable([
      ['gate', 'state', 'tries', 'took', 'reason'],
      ...detail.gates.map((gate) => [
        gate.gate,
        gate.state,
        String(gate.attempts),
        gate.startedAt === null
          ? ''
          : gate.finishedAt === null
            ? `running ${since(gate.startedAt, now.toISOString())}`
            : since(gate.startedAt, gate.finishedAt),
        gate.reason,
      ]),
    ]),
    '',
    `Steps (${describePlanSource(detail.planSource)})`,
    ...formatTable(stepRows(detail, now)),
  );
  if (detail.lastCheck !== null)
    lines.push(
      '',
      `Rule at ${detail.lastCheck.decision.until}: ${detail.lastCheck.newViewsThisStep} new signed canary page views in this step`,
      formatDecision(detail.lastCheck.decision),
    );
  lines.push(
    '',
    'Events',
    ...formatTable([
      ['seq', 'at', 'event', 'step', 'share', 'by', 'reason'],
      ...detail.events.map((event) => [
        String(event.seq),
        event.at,
        event.kind,
        event.stepIndex === null || event.stepIndex < 0 ? '' : String(event.stepIndex + 1),
        event.percent === null ? '' : `${event.percent} %`,
        event.actor,
        event.reason,
      ]),
    ]),
  );
  return lines.join('\n');
}

/** `rollout plan <remote>`: the default plan with who set it, or that there is none and the built-in plan it falls back to. */
export function formatRemotePlan(answer: RemoteRolloutPlan): string {
  const plan = answer.plan ?? answer.builtIn;
  const heading =
    answer.plan === null
      ? `${answer.remote}: no default rollout plan (${answer.environment}); a rollout started without --plan or --steps follows the API's built-in plan:`
      : `${answer.remote}: default rollout plan (${answer.environment}, version ${answer.version}, set by ${answer.updatedBy ?? '?'} at ${answer.updatedAt ?? '?'}):`;
  return [
    heading,
    ...formatTable(planRows(plan)),
    `At least ${plan.minNewViewsPerStep} new signed canary page views per step; with too little traffic: ${plan.lowTraffic}.`,
  ].join('\n');
}
