// A rollout's controls and its start from a build card: each asks first (confirm-dialog.ts), then
// goes through the API as the token (POST /v1/rollouts…), compare-and-swap on the version shown.
import type { PublishedBuild, Rollout, RolloutControl } from '@special-gift/shared/api';
import { perform } from './actions';
import { callApi } from './api';
import { confirmAction, type ConfirmRequest } from './confirm-dialog';
import type { View } from './session';

const CONTROL_WORDS: Record<RolloutControl, { title: string; confirm: string; describe: string; done: string }> = {
  pause: {
    title: 'Pause the rollout',
    confirm: 'Pause',
    describe: 'Its share holds until resumed; harm proven meanwhile still rolls it back.',
    done: 'rollout paused',
  },
  resume: {
    title: 'Resume the rollout',
    confirm: 'Resume',
    describe: 'It goes on from its current step.',
    done: 'rollout resumed',
  },
  skip: {
    title: 'Skip this step’s wait',
    confirm: 'Skip',
    describe:
      'It goes to the next share at its next check, whatever the dwell and the rule say. Gates and approvals are never skipped.',
    done: 'step skipped',
  },
  approve: {
    title: 'Approve the next share',
    confirm: 'Approve',
    describe: 'The rollout enters its next share. You must not be the one who started it.',
    done: 'next share approved',
  },
  abort: {
    title: 'Abort the rollout',
    confirm: 'Abort rollout',
    describe: 'Its canary ends now: every visitor gets the live build. The rollout cannot be resumed.',
    done: 'rollout aborted',
  },
};

export function rolloutControl(view: View, control: RolloutControl, opener: HTMLElement): void {
  const rollout = view.rollout;
  if (!rollout) return;
  const words = CONTROL_WORDS[control];
  const request: ConfirmRequest = {
    title: words.title,
    confirmLabel: words.confirm,
    reasonRequired: true,
    describe: () => [`Rollout of ${rollout.buildId}, now ${rollout.state} at ${rollout.percent} %`, words.describe],
  };
  void confirmAction(request, opener).then((values) => {
    if (!values) return;
    return perform(view, words.done, () =>
      callApi(view.token, 'POST', `rollouts/${rollout.id}/${control}`, {
        expectedVersion: rollout.version,
        reason: values.reason,
      }),
    );
  });
}

/** The plan a start from here follows (it sends none): the remote's default, else the built-in one. */
function planSteps({ remote, rolloutPlan }: View): string {
  const plan = rolloutPlan.plan ?? rolloutPlan.builtIn;
  const shares = [...plan.steps.map((step) => `${step.percent} %`), 'promote'].join(' → ');
  return `${rolloutPlan.plan === null ? 'the built-in plan' : `${remote}’s default plan`}: ${shares}`;
}

export function startRollout(view: View, build: PublishedBuild, opener: HTMLElement): void {
  const request: ConfirmRequest = {
    title: `Start a rollout of ${build.buildId}`,
    confirmLabel: 'Start rollout',
    reasonRequired: true,
    describe: () => [
      `Gates first (contract, integrity, an acceptance run in a browser): no visitor gets it before they pass`,
      `Then ${planSteps(view)}, advancing, holding or rolling back by themselves on signed page views`,
      `Live now: ${view.state.pointer?.live ?? 'none'}`,
    ],
  };
  void confirmAction(request, opener).then((values) => {
    if (!values) return;
    return perform(view, `rollout of ${build.buildId} started`, () =>
      callApi<Rollout>(view.token, 'POST', 'rollouts', {
        remote: view.remote,
        buildId: build.buildId,
        reason: values.reason,
      }),
    );
  });
}
