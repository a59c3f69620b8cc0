// The rollout of the remote (docs/rollouts.md) as a timeline: its gates, its steps with the rule's
// figures and the next decision time, and every event with who made it (a token, or the rollout
// and gate runners). The controls a deployer may use are beside it.
import type { RolloutDetail, RolloutGate, RolloutPlan, RolloutStep } from '@special-gift/shared/api';
import { describePlanSource, FINISHED_ROLLOUT_STATES } from '@special-gift/shared/api';
import { element } from '../element';
import { time } from './format';
import { rolloutControl } from './rollout-actions';
import { can, type View } from './session';

const STATE_WORDS: Record<RolloutDetail['state'], string> = {
  gating: 'checking its gates, before any visitor gets it',
  stepping: 'serving a share of visitors, judged on signed page views',
  awaiting_approval: 'waiting for an approval before its next share',
  paused: 'paused: its share holds; proven harm still rolls it back',
  succeeded: 'succeeded: promoted to every visitor',
  rolled_back: 'rolled back by its rule',
  failed: 'failed before any visitor got it, or at the contract check before promote',
  aborted: 'aborted',
};

/** One step of a plan: its share, its dwell, whether it needs an approval, and `more` (done, current). */
function stepItem(step: RolloutStep, index: number, more = '', className = 'step'): HTMLElement {
  return element('li', { className }, [
    element('strong', { textContent: `Step ${index + 1}: ${step.percent} %` }),
    `, at least ${step.minDwell}`,
    step.approval ? ', needs an approval' : '',
    more,
  ]);
}

const isFinished = (rollout: RolloutDetail) => (FINISHED_ROLLOUT_STATES as readonly string[]).includes(rollout.state);

const seconds = (from: string | null, to: string | null) =>
  from && to ? `${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(1)} s` : '';

function gateLine(gate: RolloutGate): HTMLElement {
  const took = seconds(gate.startedAt, gate.finishedAt);
  return element('li', { className: `gate gate-${gate.state}` }, [
    element('strong', { textContent: `Gate ${gate.gate}: ${gate.state}` }),
    took ? ` in ${took}` : '',
    gate.attempts > 1 ? `, attempt ${gate.attempts}` : '',
    gate.reason ? element('p', { textContent: gate.reason }) : '',
  ]);
}

/** One line for where the rollout stands, read out when it changes (the section's live region). */
function summary(rollout: RolloutDetail): string {
  const where =
    rollout.state === 'stepping' || rollout.state === 'paused' || rollout.state === 'awaiting_approval'
      ? ` Step ${rollout.stepIndex + 1} of ${rollout.plan.steps.length}: ${rollout.percent} % of visitors.`
      : '';
  const next =
    !isFinished(rollout) && rollout.nextCheckAt
      ? ` Next decision at ${time(rollout.nextCheckAt)}` +
        (rollout.earliestAdvanceAt ? `; it may advance from ${time(rollout.earliestAdvanceAt)}.` : '.')
      : '';
  const end = isFinished(rollout) && rollout.outcomeReason ? ` ${rollout.outcomeReason}` : '';
  return `Build ${rollout.buildId}: ${STATE_WORDS[rollout.state]}.${where}${next}${end}`;
}

function ruleBox(rollout: RolloutDetail): HTMLElement | string {
  if (!rollout.lastCheck) return '';
  const { decision, newViewsThisStep } = rollout.lastCheck;
  return element('div', { className: `verdict verdict-${decision.decision}` }, [
    element('h3', { textContent: `The rule's last check: ${decision.decision}` }),
    element('p', {
      textContent:
        `Signed page views since ${time(decision.since)}: ${decision.arms.canary.sessions} of this build, ` +
        `${decision.arms.baseline.sessions} of the live one; ${newViewsThisStep} new in this step.`,
    }),
    element(
      'ul',
      {},
      decision.reasons.map((reason) => element('li', { textContent: reason })),
    ),
  ]);
}

export function rolloutSection(view: View): HTMLElement | null {
  const rollout = view.rollout;
  if (!rollout) return null;
  const live = element('p', { className: 'rollout-summary', textContent: summary(rollout) });
  live.setAttribute('aria-live', 'polite');
  const section = element('section', { className: 'rollout' }, [
    element('h2', { textContent: isFinished(rollout) ? 'Last rollout' : 'Rollout under way' }),
    live,
    element('p', {
      textContent:
        `Started by ${rollout.startedBy} at ${time(rollout.startedAt)}, against live ${rollout.baselineBuild}` +
        (rollout.planSource === null ? '.' : `, on ${describePlanSource(rollout.planSource)}.`),
    }),
  ]);
  section.dataset.state = rollout.state;
  section.append(ruleBox(rollout));
  const steps = rollout.plan.steps.map((step, index) =>
    stepItem(
      step,
      index,
      index < rollout.stepIndex || rollout.state === 'succeeded' ? ' (done)' : '',
      index === rollout.stepIndex ? 'step current' : 'step',
    ),
  );
  section.append(
    element('h3', { textContent: 'Gates and steps' }),
    element('ol', { className: 'rollout-plan' }, [...rollout.gates.map(gateLine), ...steps]),
    element('h3', { textContent: 'Timeline' }),
    element(
      'ol',
      { className: 'rollout-events' },
      rollout.events.map((event) =>
        element('li', {}, [
          element('strong', { textContent: event.kind }),
          event.percent !== null ? ` ${event.percent} %` : '',
          ` by ${event.actor}, `,
          element('time', { dateTime: event.at, textContent: time(event.at) }),
          event.reason ? element('p', { textContent: event.reason }) : '',
        ]),
      ),
    ),
  );
  const buttons = element('div', { className: 'buttons' });
  const add = (label: string, control: Parameters<typeof rolloutControl>[1]) => {
    const button = element('button', { type: 'button', textContent: label });
    button.addEventListener('click', () => rolloutControl(view, control, button));
    buttons.append(button);
  };
  buttons.append(element('button', { type: 'button', textContent: 'Refresh', onclick: () => void view.reload() }));
  if (!isFinished(rollout) && can(view, 'rollout')) {
    if (rollout.state === 'paused') add('Resume…', 'resume');
    else add('Pause…', 'pause');
    if (rollout.state === 'stepping') add('Skip this step’s wait…', 'skip');
    add('Abort rollout…', 'abort');
  }
  // Four eyes: the token that started it cannot approve it (the API refuses it too).
  if (rollout.state === 'awaiting_approval' && can(view, 'approve') && view.me.name !== rollout.startedBy)
    add('Approve next share…', 'approve');
  section.append(buttons);
  return section;
}

function planList(plan: RolloutPlan): HTMLElement {
  return element('ol', { className: 'rollout-plan' }, [
    ...plan.steps.map((step, index) => stepItem(step, index)),
    element('li', { className: 'step' }, [
      element('strong', { textContent: 'Promote: 100 %' }),
      plan.promote.approval ? ', needs an approval' : '',
    ]),
  ]);
}

/**
 * The remote's default rollout plan (read-only here; `npm run release -- rollout plan` sets it):
 * what a rollout started from a build card follows, or the built-in plan when it has none.
 */
export function defaultPlanSection(view: View): HTMLElement {
  const { plan, builtIn, updatedBy, updatedAt, version } = view.rolloutPlan;
  const shown = plan ?? builtIn;
  return element('section', { className: 'rollout-default-plan' }, [
    element('h2', { textContent: 'Default rollout plan' }),
    element('p', {
      textContent:
        plan === null
          ? 'None set: a rollout started here follows the built-in plan below.'
          : `Set by ${updatedBy ?? 'unknown'} at ${updatedAt === null ? 'an unknown time' : time(updatedAt)} (version ${version}): a rollout started here follows it.`,
    }),
    planList(shown),
    element('p', {
      textContent:
        `At least ${shown.minNewViewsPerStep} new signed page views of the build in each step; with too little traffic, ` +
        (shown.lowTraffic === 'hold' ? 'it holds for a person.' : 'it advances after the maximum dwell.'),
    }),
    element('p', {
      textContent: `Change it with \`npm run release -- rollout plan ${view.remote} --steps 1,5,25,50 --dwell 30m\` (a deployer of the remote).`,
    }),
  ]);
}
