// The team console (GET /v1/console, docs/console.md). A team signs in with its token, kept in this
// tab's sessionStorage only, and sees its remote: what is served (live, canary, preview, lock), the
// field data per build side by side with the canary verdict, the builds with their bytes against the
// live one, and the audit trail. It offers only the actions `GET /v1/access/me` lists for the token;
// the API checks every one again, and a refusal is shown with the API's own message.
import type {
  AccessAction,
  AccessIdentity,
  AuditEntry,
  PublishedBuild,
  ReleaseAction,
  ReleaseHistoryEntry,
  ReleaseLock,
  ReleasePointer,
} from '@special-gift/shared/api';
import {
  verdictArm,
  canaryVerdict,
  describeRefused,
  type BuildReport,
  type ReportWindow,
  type TelemetryReport,
} from '@special-gift/shared/telemetry';
import { element } from '../page-kit/element';
import { ApiRefusal, callApi } from './api';
import { confirmAction, type ConfirmRequest, type ConfirmValues } from './confirm-dialog';
import { bytes, bytesChange, count, sharedChange, sharedList, time } from './format';
import './console.css';

const TOKEN_KEY = 'special-gift.console-token';
/** The preview this tab started: the API's cookie is HttpOnly, so the page remembers what it asked for. */
const PREVIEW_KEY = 'special-gift.console-preview';
/** Builds side by side in the field data: the live one, the canary, then the most viewed others. */
const MAX_FIELD_COLUMNS = 4;

interface RemoteState {
  readonly environment: string;
  readonly remote: string;
  readonly pointer: ReleasePointer | null;
  readonly revision: number;
  readonly builds: readonly PublishedBuild[];
  readonly history: readonly ReleaseHistoryEntry[];
  readonly lock: ReleaseLock | null;
}

interface Preview {
  readonly remote: string;
  readonly buildId: string;
  readonly expiresAt: string;
}

interface View {
  readonly me: AccessIdentity;
  readonly token: string;
  readonly remote: string;
  readonly window: ReportWindow;
  readonly state: RemoteState;
  readonly audit: readonly AuditEntry[];
  readonly report: TelemetryReport;
}

const main = document.getElementById('console') as HTMLElement;

const short = (buildId: string | null | undefined) => buildId ?? 'none';
const can = (view: Pick<View, 'me'>, action: AccessAction) => view.me.actions.includes(action);

function params(): { remote: string | null; window: ReportWindow } {
  const query = new URLSearchParams(location.search);
  return { remote: query.get('remote'), window: query.get('window') === '1d' ? '1d' : '1h' };
}

function setParams(remote: string, window: ReportWindow): void {
  history.replaceState(null, '', `?${new URLSearchParams({ remote, window }).toString()}`);
}

function readPreview(): Preview | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(PREVIEW_KEY) ?? 'null') as Preview | null;
    return value && Date.parse(value.expiresAt) > Date.now() ? value : null;
  } catch {
    return null;
  }
}

// ---- Sign-in ---------------------------------------------------------------------------------

function showSignIn(message?: string): void {
  document.title = 'Sign in · Team console · Special Gift';
  const input = element('input', {
    type: 'password',
    name: 'token',
    id: 'token',
    required: true,
    autocomplete: 'off',
    spellcheck: false,
  });
  const problem = element('p', { className: 'refusal', id: 'sign-in-problem', textContent: message ?? '' });
  problem.setAttribute('role', 'alert');
  if (!message) problem.hidden = true;
  const form = element('form', { className: 'sign-in', noValidate: true }, [
    element('h2', { textContent: 'Sign in' }),
    element('p', {
      textContent:
        'Paste your team’s token (a viewer, deployer or admin token of your remote). It is kept in this tab only, ' +
        'and sent only to this API; signing out or closing the tab forgets it.',
    }),
    element('label', { htmlFor: 'token', textContent: 'Token' }),
    input,
    problem,
    element('button', { type: 'submit', className: 'primary', textContent: 'Sign in' }),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = input.value.trim();
    if (token === '') {
      problem.hidden = false;
      problem.textContent = 'Paste a token first.';
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, token);
    // Signed in, the screen starts at its top for keyboard and screen-reader users too.
    void start().then(() => main.isConnected && !main.querySelector('form.sign-in') && main.focus());
  });
  main.replaceChildren(form);
  input.focus();
}

function signOut(): void {
  sessionStorage.removeItem(TOKEN_KEY);
  sessionStorage.removeItem(PREVIEW_KEY);
  history.replaceState(null, '', location.pathname);
  showSignIn();
}

/** A refused token (revoked, expired, wrong) is forgotten at once: the user signs in again. */
function whenUnauthorised(error: unknown): boolean {
  if (!(error instanceof ApiRefusal) || error.status !== 401) return false;
  sessionStorage.removeItem(TOKEN_KEY);
  showSignIn(`Signed out: the API did not accept this token (401). ${error.message}`);
  return true;
}

async function start(notice?: { text: string; refusal: boolean }): Promise<void> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return showSignIn();
  main.setAttribute('aria-busy', 'true');
  try {
    const me = await callApi<AccessIdentity>(token, 'GET', 'access/me');
    const wanted = params();
    const remote = wanted.remote !== null && me.remotes.includes(wanted.remote) ? wanted.remote : me.remotes[0];
    if (remote === undefined) return showSignIn('This token can read no remote.');
    setParams(remote, wanted.window);
    const query = new URLSearchParams({ remote, window: wanted.window });
    const [state, audit, report] = await Promise.all([
      callApi<RemoteState>(token, 'GET', `releases/remotes/${remote}?limit=20`),
      callApi<{ entries: AuditEntry[] }>(token, 'GET', `access/audit?remote=${remote}&limit=50`),
      callApi<TelemetryReport>(token, 'GET', `telemetry/report?${query.toString()}`),
    ]);
    render({ me, token, remote, window: wanted.window, state, audit: audit.entries, report }, notice);
  } catch (error) {
    if (whenUnauthorised(error)) return;
    main.replaceChildren(
      element('p', {
        className: 'refusal',
        textContent: `The console could not load: ${error instanceof Error ? error.message : String(error)}`,
      }),
      element('button', { type: 'button', textContent: 'Sign out', onclick: signOut }),
    );
  } finally {
    main.removeAttribute('aria-busy');
  }
}

// ---- Rendering -------------------------------------------------------------------------------

function render(view: View, notice?: { text: string; refusal: boolean }): void {
  document.title = `${view.remote} · Team console · Special Gift`;
  const status = element('p', { className: 'notice', id: 'notice', tabIndex: -1 });
  status.setAttribute('role', 'status');
  const alert = element('p', { className: 'refusal', id: 'refusal', tabIndex: -1 });
  alert.setAttribute('role', 'alert');
  alert.hidden = true;
  if (notice?.refusal) {
    alert.hidden = false;
    alert.textContent = notice.text;
  } else if (notice) status.textContent = notice.text;
  main.replaceChildren(identity(view), status, alert, serving(view), fieldData(view), builds(view), auditTrail(view));
}

function identity(view: View): HTMLElement {
  const { me } = view;
  const scope = me.remote === null ? 'every remote' : me.remote;
  const until = me.expiresAt === null ? 'no expiry' : `valid until ${time(me.expiresAt)}`;
  const section = element('section', { className: 'identity' }, [
    element('p', {}, [
      'Signed in as ',
      element('strong', { textContent: me.name }),
      `: ${me.role} of ${scope} in ${me.environment}, ${until}.`,
    ]),
    element('button', { type: 'button', textContent: 'Sign out', onclick: signOut }),
  ]);
  section.setAttribute('aria-label', 'Who you are signed in as');
  if (me.remotes.length > 1) {
    const select = element(
      'select',
      { id: 'remote-picker' },
      me.remotes.map((remote) =>
        element('option', { value: remote, textContent: remote, selected: remote === view.remote }),
      ),
    );
    select.addEventListener('change', () => {
      setParams(select.value, view.window);
      void start().then(() => document.getElementById('remote-picker')?.focus());
    });
    section.append(element('label', { htmlFor: 'remote-picker', textContent: 'Remote' }), select);
  }
  return section;
}

function definitions(rows: ReadonlyArray<readonly [string, Node | string]>): HTMLDListElement {
  return element(
    'dl',
    {},
    rows.flatMap(([term, value]) => [element('dt', { textContent: term }), element('dd', {}, [value])]),
  );
}

function serving(view: View): HTMLElement {
  const { pointer, lock } = view.state;
  const preview = readPreview();
  const thisPreview = preview?.remote === view.remote ? preview : null;
  const section = element('section', { className: 'serving' }, [
    element('h2', { textContent: `Now serving: ${view.remote}` }),
    definitions([
      [
        'Live',
        pointer ? element('code', { textContent: pointer.live }) : 'no release: pages get the image’s own build',
      ],
      [
        'Canary',
        pointer?.canary
          ? element('span', {}, [
              element('code', { textContent: pointer.canary }),
              ` to ${pointer.canaryPercent} % of visitors`,
            ])
          : 'none',
      ],
      [
        'Preview in this browser',
        thisPreview
          ? element('span', {}, [
              element('code', { textContent: thisPreview.buildId }),
              ` until ${time(thisPreview.expiresAt)}`,
            ])
          : 'none started from this tab',
      ],
      ['Lock', lock ? `locked by ${lock.lockedBy} since ${time(lock.lockedAt)}: ${lock.reason}` : 'not locked'],
      ['Revision', String(view.state.revision)],
    ]),
  ]);
  section.dataset.lock = lock ? 'locked' : 'unlocked';
  const buttons = element('div', { className: 'buttons' });
  const add = (label: string, run: (button: HTMLButtonElement) => void) => {
    const button = element('button', { type: 'button', textContent: label });
    button.addEventListener('click', () => run(button));
    buttons.append(button);
  };
  if (pointer?.canary && can(view, 'canary')) add('Set canary share…', (button) => canaryShare(view, button));
  if (pointer?.canary && can(view, 'promote'))
    add('Promote canary…', (button) => pointerAction(view, 'promote', button));
  if (pointer?.canary && can(view, 'abort')) add('Abort canary…', (button) => pointerAction(view, 'abort', button));
  if (pointer && can(view, 'rollback')) add('Roll back…', (button) => pointerAction(view, 'rollback', button));
  if (!lock && can(view, 'lock')) add('Lock…', (button) => lockAction(view, 'lock', button));
  if (lock && can(view, 'unlock')) add('Unlock…', (button) => lockAction(view, 'unlock', button));
  if (thisPreview && can(view, 'preview')) add('Stop preview', () => void stopPreview());
  if (buttons.childElementCount > 0) section.append(buttons);
  return section;
}

function fieldColumns(view: View): BuildReport[] {
  const remote = view.report.remotes.find((entry) => entry.remote === view.remote);
  const all = remote?.builds ?? [];
  const { pointer } = view.state;
  const first = [pointer?.live, pointer?.canary].filter((id): id is string => !!id);
  const pick = (id: string) =>
    all.find((build) => build.build === id) ??
    ({
      build: id,
      sessions: 0,
      failedSessions: 0,
      errorRate: 0,
      p75: { LCP: null, INP: null, CLS: null },
      samples: { LCP: 0, INP: 0, CLS: 0 },
      engines: [],
      provenance: { signed: 0, unsigned: 0, expired: 0, replayed: 0, forged: 0, mismatched: 0 },
      signed: { sessions: 0, failedSessions: 0, errorRate: 0, p75: { LCP: null, INP: null, CLS: null } },
      series: { sessions: [], errorRate: [], LCP: [], INP: [], CLS: [] },
    } satisfies BuildReport);
  // Then the remote's published builds, newest first, then any other build page views named.
  const published = view.state.builds.map((build) => build.buildId);
  const rank = (id: string) => (published.includes(id) ? published.indexOf(id) : published.length);
  const rest = all
    .filter((build) => !first.includes(build.build))
    .sort((a, b) => rank(a.build) - rank(b.build) || b.sessions - a.sessions);
  return [...first.map(pick), ...rest].slice(0, MAX_FIELD_COLUMNS);
}

function fieldData(view: View): HTMLElement {
  const { pointer } = view.state;
  const columns = fieldColumns(view);
  const windowSelect = element('select', { id: 'field-window' }, [
    element('option', { value: '1h', textContent: 'the last hour', selected: view.window === '1h' }),
    element('option', { value: '1d', textContent: 'the last day', selected: view.window === '1d' }),
  ]);
  windowSelect.addEventListener('change', () => {
    setParams(view.remote, windowSelect.value === '1d' ? '1d' : '1h');
    void start().then(() => document.getElementById('field-window')?.focus());
  });
  const section = element('section', { className: 'field' }, [
    element('h2', { textContent: 'Field data per build' }),
    element('div', { className: 'inline' }, [
      element('label', { htmlFor: 'field-window', textContent: 'Over' }),
      windowSelect,
    ]),
  ]);
  if (columns.length === 0) {
    section.append(element('p', { textContent: 'No page view of this remote in this window.' }));
    return section;
  }
  const role = (id: string) => (id === pointer?.live ? ' (live)' : id === pointer?.canary ? ' (canary)' : '');
  const ms = (value: number | null, samples: number) =>
    value === null ? `– (0 samples)` : `${value.toFixed(0)} ms (${count(samples)} samples)`;
  const rows: ReadonlyArray<readonly [string, (build: BuildReport) => string]> = [
    ['Page views', (build) => count(build.sessions)],
    // What the verdict judges, and what it set aside (docs/telemetry.md: signed page views).
    ['Signed page views', (build) => count(build.signed.sessions)],
    ['Refused page views', (build) => describeRefused(build)],
    [
      'Errors',
      (build) =>
        `${count(build.failedSessions)} of ${count(build.sessions)} page views, ${(build.errorRate * 100).toFixed(2)} %`,
    ],
    ['p75 LCP', (build) => ms(build.p75.LCP, build.samples.LCP)],
    ['p75 INP', (build) => ms(build.p75.INP, build.samples.INP)],
    [
      'p75 CLS',
      (build) =>
        build.p75.CLS === null ? '– (0 samples)' : `${build.p75.CLS.toFixed(3)} (${count(build.samples.CLS)} samples)`,
    ],
  ];
  const table = element('table', {}, [
    element('caption', {
      textContent: `Field data of ${view.remote} over ${view.window === '1d' ? 'the last day' : 'the last hour'}, one column per build`,
    }),
    element('thead', {}, [
      element('tr', {}, [
        element('td'),
        ...columns.map((build) => element('th', { scope: 'col', textContent: `${build.build}${role(build.build)}` })),
      ]),
    ]),
    element(
      'tbody',
      {},
      rows.map(([name, value]) =>
        element('tr', {}, [
          element('th', { scope: 'row', textContent: name }),
          ...columns.map((build) => element('td', { textContent: value(build) })),
        ]),
      ),
    ),
  ]);
  const scroller = element('div', { className: 'scroller', tabIndex: 0 }, [table]);
  scroller.setAttribute('role', 'region');
  scroller.setAttribute('aria-label', 'Field data table');
  section.append(scroller);
  if (pointer?.canary) {
    const builds = view.report.remotes.find((entry) => entry.remote === view.remote)?.builds ?? [];
    const find = (id: string) => builds.find((build) => build.build === id);
    const verdict = canaryVerdict(
      verdictArm(pointer.canary, find(pointer.canary)),
      verdictArm(pointer.live, find(pointer.live)),
    );
    const box = element('div', { className: `verdict verdict-${verdict.decision.replace(' ', '-')}` }, [
      element('h3', { textContent: `Canary verdict: ${verdict.decision}` }),
      element(
        'ul',
        {},
        verdict.reasons.map((reason) => element('li', { textContent: reason })),
      ),
    ]);
    section.append(box);
  } else section.append(element('p', { textContent: 'No canary under way, so no canary verdict.' }));
  return section;
}

function builds(view: View): HTMLElement {
  const { pointer } = view.state;
  const live = view.state.builds.find((build) => build.buildId === pointer?.live);
  const section = element('section', { className: 'builds' }, [
    element('h2', { textContent: `Builds of ${view.remote}` }),
    element('p', {
      textContent: live
        ? 'Each build against the live one: the bytes of its entry and of its first screen, and its shared libraries.'
        : 'No live build to compare with: pages get the image’s own build.',
    }),
  ]);
  if (view.state.builds.length === 0) {
    section.append(element('p', { textContent: 'No build published yet.' }));
    return section;
  }
  const list = element('ul', { className: 'build-list' });
  for (const build of view.state.builds) {
    const tags = [
      build.buildId === pointer?.live ? 'live' : '',
      build.buildId === pointer?.canary ? `canary ${pointer.canaryPercent} %` : '',
      build.purgedAt ? 'purged' : '',
    ].filter(Boolean);
    const compared = live && build.buildId !== live.buildId;
    const item = element('li', { className: 'build' }, [
      element('h3', {}, [
        element('code', { textContent: build.buildId }),
        ...tags.map((tag) => element('span', { className: 'tag', textContent: tag })),
      ]),
      definitions([
        ['Published', `${time(build.publishedAt)} by ${build.publishedBy}`],
        ['Contract major', String(build.contractMajor)],
        [
          'Entry',
          compared
            ? `${bytes(build.entryBytes)} (${bytesChange(build.entryBytes, live.entryBytes)} against live)`
            : bytes(build.entryBytes),
        ],
        [
          'First screen',
          compared
            ? `${bytes(build.firstScreenBytes)} (${bytesChange(build.firstScreenBytes, live.firstScreenBytes)} against live)`
            : bytes(build.firstScreenBytes),
        ],
        ['Shared libraries', sharedList(build)],
        ...(compared ? ([['Shared against live', sharedChange(build, live)]] as const) : []),
      ]),
    ]);
    item.dataset.build = build.buildId;
    const buttons = element('div', { className: 'buttons' });
    const add = (label: string, run: (button: HTMLButtonElement) => void) => {
      const button = element('button', { type: 'button', textContent: label });
      button.setAttribute('aria-label', `${label.replace('…', '')} ${build.buildId}`);
      button.addEventListener('click', () => run(button));
      buttons.append(button);
    };
    if (!build.purgedAt) {
      if (build.buildId !== pointer?.live && can(view, 'release'))
        add('Release…', (button) => pointerAction(view, 'release', button, build));
      if (pointer && build.buildId !== pointer.live && build.buildId !== pointer.canary && can(view, 'canary'))
        add('Start canary…', (button) => pointerAction(view, 'canary', button, build));
      if (can(view, 'preview')) add('Preview in this browser…', (button) => previewAction(view, build, button));
    }
    if (buttons.childElementCount > 0) item.append(buttons);
    list.append(item);
  }
  section.append(list);
  return section;
}

function auditTrail(view: View): HTMLElement {
  const section = element('section', { className: 'audit' }, [
    element('h2', { textContent: `Audit trail of ${view.remote}` }),
  ]);
  if (view.audit.length === 0) {
    section.append(element('p', { textContent: 'Nothing recorded yet.' }));
    return section;
  }
  section.append(
    element(
      'ol',
      { className: 'audit-list' },
      view.audit.map((entry) =>
        element('li', {}, [
          element('p', {}, [
            element('strong', { textContent: entry.action }),
            ` by ${entry.tokenName} via ${entry.channel}, `,
            element('time', { dateTime: entry.at, textContent: time(entry.at) }),
          ]),
          ...(entry.fromState !== null || entry.toState !== null
            ? [element('p', { textContent: `${entry.fromState ?? '–'} → ${entry.toState ?? '–'}` })]
            : []),
          ...(entry.reason ? [element('p', { textContent: `Reason: ${entry.reason}` })] : []),
        ]),
      ),
    ),
  );
  return section;
}

// ---- Actions ---------------------------------------------------------------------------------

/** Runs a confirmed change; then shows the API's answer and the remote as it is now. */
async function perform(what: string, change: () => Promise<unknown>): Promise<void> {
  try {
    await change();
    await start({ text: `Done: ${what}.`, refusal: false });
  } catch (error) {
    if (whenUnauthorised(error)) return;
    const message =
      error instanceof ApiRefusal
        ? `Refused (${error.status === 0 ? 'no answer' : `${error.status} ${error.code}`}): ${error.message}`
        : String(error);
    await start({ text: message, refusal: true });
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

function pointerAction(view: View, action: ReleaseAction, opener: HTMLElement, build?: PublishedBuild): void {
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
    return perform(done[action](values), () =>
      act(view, {
        action,
        ...(buildId ? { buildId } : {}),
        ...(action === 'canary' ? { percent: values.percent } : {}),
        reason: values.reason,
      }),
    );
  });
}

function canaryShare(view: View, opener: HTMLElement): void {
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
    return perform(`canary ${canary} at ${values.percent ?? '?'} %`, () =>
      act(view, { action: 'canary', buildId: canary, percent: values.percent, reason: values.reason }),
    );
  });
}

function lockAction(view: View, change: 'lock' | 'unlock', opener: HTMLElement): void {
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
    return perform(change === 'lock' ? `${view.remote} locked` : `${view.remote} unlocked`, () =>
      callApi(view.token, 'POST', `releases/remotes/${view.remote}/${change}`, { reason: values.reason }),
    );
  });
}

function previewAction(view: View, build: PublishedBuild, opener: HTMLElement): void {
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
    return perform(`this browser previews ${build.buildId}`, async () => {
      const started = await callApi<Preview>(view.token, 'POST', 'releases/preview', {
        remote: view.remote,
        buildId: build.buildId,
      });
      sessionStorage.setItem(PREVIEW_KEY, JSON.stringify(started));
    });
  });
}

async function stopPreview(): Promise<void> {
  // Ending a preview needs no token: it only returns this browser to what everyone gets.
  try {
    const response = await fetch('releases/preview', { method: 'DELETE', credentials: 'same-origin' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    sessionStorage.removeItem(PREVIEW_KEY);
    await start({ text: 'Done: preview stopped; this browser gets the live builds again.', refusal: false });
  } catch (error) {
    await start({ text: `The preview could not be stopped: ${String(error)}`, refusal: true });
  }
  focusNotice();
}

void start();
