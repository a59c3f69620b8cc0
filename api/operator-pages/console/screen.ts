// The console's screen, drawn from one View: who is signed in, what is served, the field data per
// build with the canary verdict, the builds against the live one, and the audit trail.
import { describeRefused, type BuildReport } from '@special-gift/shared/telemetry';
import { element } from '../element';
import { canaryShare, lockAction, pointerAction, previewAction, stopPreview } from './actions';
import { bytes, bytesChange, count, sharedChange, sharedList, time } from './format';
import { defaultPlanSection, rolloutSection } from './rollout';
import { startRollout } from './rollout-actions';
import { can, readPreview, setParams, type Notice, type View } from './session';

/** Builds side by side in the field data: the live one, the canary, then the remote's other builds. */
const MAX_FIELD_COLUMNS = 4;

const main = () => document.getElementById('console') as HTMLElement;

export function render(view: View, notice?: Notice): void {
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
  const rollout = rolloutSection(view);
  main().replaceChildren(
    ...[
      identity(view),
      status,
      alert,
      serving(view),
      rollout,
      defaultPlanSection(view),
      fieldData(view),
      builds(view),
      auditTrail(view),
    ].filter((section): section is HTMLElement => section !== null),
  );
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
    element('button', { type: 'button', textContent: 'Sign out', onclick: () => view.signOut() }),
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
      void view.reload().then(() => document.getElementById('remote-picker')?.focus());
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
  if (thisPreview && can(view, 'preview')) add('Stop preview', () => void stopPreview(view));
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
    void view.reload().then(() => document.getElementById('field-window')?.focus());
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
  const signedMs = (value: number | null) => (value === null ? '–' : `${value.toFixed(0)} ms`);
  const errors = (figures: BuildReport['signed'], what: string) =>
    `${count(figures.failedSessions)} of ${count(figures.sessions)} ${what}, ${(figures.errorRate * 100).toFixed(2)} %`;
  // Each figure twice, side by side: over all page views (unsigned included, so a script can move
  // them), and over the signed ones alone, which is what the canary verdict judges.
  const rows: ReadonlyArray<readonly [string, (build: BuildReport) => string]> = [
    ['Page views, all', (build) => count(build.sessions)],
    // What the verdict judges, and what it set aside (docs/telemetry.md: signed page views).
    ['Page views, signed', (build) => count(build.signed.sessions)],
    ['Page views, refused', (build) => describeRefused(build.provenance)],
    ['Errors, all page views', (build) => errors(build, 'page views')],
    ['Errors, signed (verdict)', (build) => errors(build.signed, 'signed page views')],
    ['p75 LCP, all page views', (build) => ms(build.p75.LCP, build.samples.LCP)],
    ['p75 LCP, signed (verdict)', (build) => signedMs(build.signed.p75.LCP)],
    ['p75 INP, all page views', (build) => ms(build.p75.INP, build.samples.INP)],
    ['p75 INP, signed (verdict)', (build) => signedMs(build.signed.p75.INP)],
    [
      'p75 CLS, all page views',
      (build) =>
        build.p75.CLS === null ? '– (0 samples)' : `${build.p75.CLS.toFixed(3)} (${count(build.samples.CLS)} samples)`,
    ],
    ['p75 CLS, signed (verdict)', (build) => (build.signed.p75.CLS === null ? '–' : build.signed.p75.CLS.toFixed(3))],
  ];
  const table = element('table', {}, [
    element('caption', {
      textContent: `Field data of ${view.remote} over ${view.window === '1d' ? 'the last day' : 'the last hour'}, one column per build. "All page views" counts unsigned ones too, which any script can send; "signed" counts only real pages' views, what the canary verdict judges.`,
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
  if (pointer?.canary && view.decision) {
    // The sequential rule's decision (docs/rollouts.md), over signed page views since the canary started.
    const { decision, reasons, whatWouldChange, since } = view.decision;
    const box = element('div', { className: `verdict verdict-${decision}` }, [
      element('h3', { textContent: `Canary verdict: ${decision}` }),
      element('p', { textContent: `Signed page views since ${since}, by a rule made to be checked at any moment.` }),
      element(
        'ul',
        {},
        reasons.map((reason) => element('li', { textContent: reason })),
      ),
      element('p', { textContent: 'What would change it:' }),
      element(
        'ul',
        {},
        whatWouldChange.map((line) => element('li', { textContent: line })),
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
      if (pointer && build.buildId !== pointer.live && can(view, 'rollout'))
        add('Start rollout…', (button) => startRollout(view, build, button));
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
