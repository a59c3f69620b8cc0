// The console's actions: each asks first (confirm-dialog.ts), then goes through the API with the
// token and the console channel; the screen is then read again, with the API's answer or refusal.
import type { PublishedBuild, ReleaseAction } from '@special-gift/shared/api';
import { ApiRefusal, callApi } from './api';
import { confirmAction, type ConfirmRequest, type ConfirmValues } from './confirm-dialog';
import { PREVIEW_KEY, short, type Preview, type View } from './session';

/** Runs a confirmed change; then shows the API's answer and the remote as it is now. */
export async function perform(view: View, what: string, change: () => Promise<unknown>): Promise<void> {
  try {
    await change();
    await view.reload({ text: `Done: ${what}.`, refusal: false });
  } catch (error) {
    if (view.signedOutBy(error)) return;
    const message =
      error instanceof ApiRefusal
        ? `Refused (${error.status === 0 ? 'no answer' : `${error.status} ${error.code}`}): ${error.message}`
        : String(error);
    await view.reload({ text: message, refusal: true });
  }
  focusNotice();
}

/** After a change the screen is drawn anew: focus goes to what it says, not to the top of the page. */
function focusNotice(): void {
  const refusal = document.getElementById('refusal');
  (refusal && !refusal.hidden ? refusal : document.getElementById('notice'))?.focus();
}

const act = (view: View, body: { action: ReleaseAction; buildId?: string; percent?: number; reason: string }) =>
  callApi(view.token, 'POST', `releases/remotes/${view.remote}/actions`, {
    ...body,
    expectedRevision: view.state.revision,
  });

export function pointerAction(view: View, action: ReleaseAction, opener: HTMLElement, build?: PublishedBuild): void {
  const pointer = view.state.pointer;
  const live = short(pointer?.live);
  const canary = pointer?.canary ? `${pointer.canary} at ${pointer.canaryPercent} %` : 'none';
  const rollbackTargets = view.state.builds
    .filter((candidate) => !candidate.purgedAt && candidate.buildId !== pointer?.live)
    .map((candidate) => ({ value: candidate.buildId, label: candidate.buildId }));
  const requests: Record<ReleaseAction, ConfirmRequest | null> = {
    release: {
      title: `Release ${build?.buildId ?? ''} to everyone`,
      confirmLabel: 'Release',
      reasonRequired: false,
      describe: () => [
        `Live: ${live} → ${build?.buildId ?? ''}`,
        `Canary: ${canary}${pointer?.canary ? ' → none' : ' (unchanged)'}`,
        `Contract major: ${build?.contractMajor ?? '?'}`,
      ],
    },
    canary: {
      title: `Start a canary of ${build?.buildId ?? ''}`,
      confirmLabel: 'Start canary',
      reasonRequired: false,
      percent: { initial: 10 },
      describe: (values) => [
        `Canary: ${canary} → ${build?.buildId ?? ''} at ${values.percent ?? '?'} %`,
        `Live: ${live} (unchanged for the other visitors)`,
      ],
    },
    promote: {
      title: 'Promote the canary',
      confirmLabel: 'Promote',
      reasonRequired: false,
      describe: () => [`Live: ${live} → ${short(pointer?.canary)}`, `Canary: ${canary} → none`],
    },
    abort: {
      title: 'Abort the canary',
      confirmLabel: 'Abort canary',
      reasonRequired: false,
      describe: () => [`Canary: ${canary} → none`, `Live: ${live} (unchanged): every visitor gets it`],
    },
    rollback: {
      title: 'Roll back',
      confirmLabel: 'Roll back',
      reasonRequired: true,
      target: {
        label: 'Roll back to',
        options: [{ value: '', label: 'the build live before it' }, ...rollbackTargets],
      },
      describe: (values) => [
        `Live: ${live} → ${values.target || 'the build live before it'}`,
        `Canary: ${canary}${pointer?.canary ? ' → none' : ' (unchanged)'}`,
      ],
    },
    detach: null,
  };
  const request = requests[action];
  if (!request) return;
  const done: Record<ReleaseAction, (values: ConfirmValues) => string> = {
    release: () => `${build?.buildId ?? ''} is live`,
    canary: (values) => `canary ${build?.buildId ?? ''} at ${values.percent ?? '?'} %`,
    promote: () => `canary ${short(pointer?.canary)} promoted`,
    abort: () => `canary ${short(pointer?.canary)} aborted`,
    rollback: (values) => `rolled back to ${values.target || 'the build live before'}`,
    detach: () => 'detached',
  };
  void confirmAction(request, opener).then((values: ConfirmValues | null) => {
    if (!values) return;
    const buildId = action === 'rollback' ? values.target || undefined : build?.buildId;
    return perform(view, done[action](values), () =>
      act(view, {
        action,
        ...(buildId ? { buildId } : {}),
        ...(action === 'canary' ? { percent: values.percent } : {}),
        reason: values.reason,
      }),
    );
  });
}

export function canaryShare(view: View, opener: HTMLElement): void {
  const pointer = view.state.pointer;
  if (!pointer?.canary) return;
  const canary = pointer.canary;
  const request: ConfirmRequest = {
    title: `Set the share of canary ${canary}`,
    confirmLabel: 'Set share',
    reasonRequired: false,
    percent: { initial: pointer.canaryPercent },
    describe: (values) => [
      `Canary ${canary}: ${pointer.canaryPercent} % → ${values.percent ?? '?'} % of visitors`,
      `Live: ${pointer.live} (unchanged for the others)`,
    ],
  };
  void confirmAction(request, opener).then((values) => {
    if (!values) return;
    return perform(view, `canary ${canary} at ${values.percent ?? '?'} %`, () =>
      act(view, { action: 'canary', buildId: canary, percent: values.percent, reason: values.reason }),
    );
  });
}

export function lockAction(view: View, change: 'lock' | 'unlock', opener: HTMLElement): void {
  const lock = view.state.lock;
  const request: ConfirmRequest = {
    title: change === 'lock' ? `Lock ${view.remote}` : `Unlock ${view.remote}`,
    confirmLabel: change === 'lock' ? 'Lock' : 'Unlock',
    reasonRequired: true,
    describe: (values) =>
      change === 'lock'
        ? [
            `Lock: none → locked${values.reason ? `: ${values.reason}` : ''}`,
            'Refused while locked: release, canary, promote, detach. Still allowed: abort and roll back.',
          ]
        : [`Lock: ${lock ? `locked by ${lock.lockedBy}: ${lock.reason}` : 'locked'} → none`],
  };
  void confirmAction(request, opener).then((values) => {
    if (!values) return;
    return perform(view, change === 'lock' ? `${view.remote} locked` : `${view.remote} unlocked`, () =>
      callApi(view.token, 'POST', `releases/remotes/${view.remote}/${change}`, { reason: values.reason }),
    );
  });
}

export function previewAction(view: View, build: PublishedBuild, opener: HTMLElement): void {
  const request: ConfirmRequest = {
    title: `Preview ${build.buildId} in this browser`,
    confirmLabel: 'Start preview',
    reasonRequired: false,
    describe: () => [
      `This browser only: ${view.remote} shows ${build.buildId} for 8 hours, or until you stop the preview`,
      'Everyone else: unchanged',
    ],
  };
  void confirmAction(request, opener).then((values) => {
    if (!values) return;
    return perform(view, `this browser previews ${build.buildId}`, async () => {
      const started = await callApi<Preview>(view.token, 'POST', 'releases/preview', {
        remote: view.remote,
        buildId: build.buildId,
      });
      sessionStorage.setItem(PREVIEW_KEY, JSON.stringify(started));
    });
  });
}

export async function stopPreview(view: View): Promise<void> {
  // Ending a preview needs no token: it only returns this browser to what everyone gets.
  try {
    const response = await fetch('releases/preview', { method: 'DELETE', credentials: 'same-origin' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    sessionStorage.removeItem(PREVIEW_KEY);
    await view.reload({ text: 'Done: preview stopped; this browser gets the live builds again.', refusal: false });
  } catch (error) {
    await view.reload({ text: `The preview could not be stopped: ${String(error)}`, refusal: true });
  }
  focusNotice();
}
