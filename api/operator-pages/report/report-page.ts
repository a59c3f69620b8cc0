// The telemetry report page (served at /v1/telemetry/report.html): asks for the operator token,
// keeps it in sessionStorage only (gone with the tab), fetches the report with it and draws, per
// remote, a table and a chart over time of each figure with one series per build, so a canary and
// its baseline sit side by side. Relative URLs only: it works at /v1/ and behind the host's /api/.
import {
  describeRefused,
  type BuildReport,
  type RemoteReport,
  type ReportWindow,
  type TelemetryReport,
} from '@special-gift/shared/telemetry';
import uPlot from 'uplot';
import { element } from '../element';
import './report.css';

const TOKEN_KEY = 'special-gift.operator-token';
const COLOURS = ['#1565c0', '#e65100', '#2e7d32', '#6a1b9a', '#c62828', '#00838f', '#5d4037', '#455a64'];

type Figure = 'sessions' | 'errorRate' | 'LCP' | 'INP' | 'CLS';
/** `format`: tables and legends; `tick`: the y axis; `empty`: the axis's top when there is no data. */
const FIGURES: ReadonlyArray<{
  key: Figure;
  title: string;
  format: (value: number) => string;
  tick: (value: number) => string;
  empty: number;
}> = [
  { key: 'sessions', title: 'Sessions', format: (value) => value.toFixed(0), tick: String, empty: 10 },
  {
    key: 'errorRate',
    title: 'Error rate',
    format: (value) => `${(value * 100).toFixed(2)}%`,
    tick: (value) => `${+(value * 100).toFixed(1)}%`,
    empty: 0.1,
  },
  { key: 'LCP', title: 'p75 LCP (ms)', format: (value) => value.toFixed(0), tick: String, empty: 4000 },
  { key: 'INP', title: 'p75 INP (ms)', format: (value) => value.toFixed(0), tick: String, empty: 500 },
  { key: 'CLS', title: 'p75 CLS', format: (value) => value.toFixed(3), tick: String, empty: 0.25 },
];

const main = document.getElementById('report') as HTMLElement;
const charts: uPlot[] = [];

function clear(): void {
  for (const chart of charts.splice(0)) chart.destroy();
  main.replaceChildren(element('h1', { textContent: 'Field telemetry by remote and build' }));
}

function showTokenForm(message?: string): void {
  clear();
  if (message) main.append(element('p', { className: 'refusal', textContent: message }, []));
  const input = element('input', { type: 'password', name: 'token', required: true, autocomplete: 'off' });
  input.setAttribute('aria-label', 'Operator token');
  const form = element('form', {}, [
    element('label', {}, ['Operator token', input]),
    element('button', { type: 'submit', textContent: 'Show the report' }),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, input.value.trim());
    void load();
  });
  main.append(
    element('p', {
      textContent: 'This report is for operators: enter the API’s OPERATOR_TOKEN. It is kept in this tab only.',
    }),
    form,
  );
  input.focus();
}

function selectedParams(): { window: ReportWindow; remote: string } {
  const params = new URLSearchParams(location.search);
  return { window: params.get('window') === '1d' ? '1d' : '1h', remote: params.get('remote') ?? '' };
}

async function load(): Promise<void> {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return showTokenForm();
  const { window, remote } = selectedParams();
  const query = new URLSearchParams({ window, ...(remote ? { remote } : {}) });
  let response: Response;
  try {
    response = await fetch(`report?${query.toString()}`, { headers: { authorization: `Bearer ${token}` } });
  } catch {
    return showTokenForm('The API could not be reached. Try again.');
  }
  if (response.status === 401) {
    sessionStorage.removeItem(TOKEN_KEY);
    return showTokenForm(
      'Refused: the API did not accept this operator token (401). Check OPERATOR_TOKEN and try again.',
    );
  }
  if (!response.ok) return showTokenForm(`The report failed: HTTP ${response.status}.`);
  render((await response.json()) as TelemetryReport);
}

function controls(report: TelemetryReport): HTMLElement {
  const windowSelect = element('select', { name: 'window' }, [
    element('option', { value: '1h', textContent: 'Last hour (5-minute buckets)', selected: report.window === '1h' }),
    element('option', { value: '1d', textContent: 'Last day (hourly buckets)', selected: report.window === '1d' }),
  ]);
  const form = element('form', {}, [
    element('label', {}, ['Window', windowSelect]),
    element('button', { type: 'submit', textContent: 'Refresh' }),
    element('button', { type: 'button', textContent: 'Forget the token' }),
  ]);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const params = new URLSearchParams(location.search);
    params.set('window', windowSelect.value);
    history.replaceState(null, '', `?${params.toString()}`);
    void load();
  });
  form.querySelector('button[type=button]')?.addEventListener('click', () => {
    sessionStorage.removeItem(TOKEN_KEY);
    showTokenForm();
  });
  return form;
}

function cell(value: number | null, format: (value: number) => string): HTMLTableCellElement {
  return element('td', { textContent: value === null ? '–' : format(value) });
}

function table(remote: RemoteReport): HTMLTableElement {
  // Signed, unsigned, refused: which page views the canary verdict counts (docs/telemetry.md).
  const head = [
    'Build',
    'Sessions',
    'Failed',
    'Error rate',
    'p75 LCP (ms)',
    'p75 INP (ms)',
    'p75 CLS',
    'Signed',
    'Unsigned',
    'Refused',
  ];
  const formatOf = (key: Figure) => FIGURES.find((figure) => figure.key === key)?.format ?? String;
  return element('table', {}, [
    element('thead', {}, [
      element(
        'tr',
        {},
        head.map((text) => element('th', { scope: 'col', textContent: text })),
      ),
    ]),
    element(
      'tbody',
      {},
      remote.builds.flatMap((build) => [
        element('tr', {}, [
          element('td', { textContent: build.build }),
          element('td', { textContent: String(build.sessions) }),
          element('td', { textContent: String(build.failedSessions) }),
          cell(build.errorRate, formatOf('errorRate')),
          cell(build.p75.LCP, formatOf('LCP')),
          cell(build.p75.INP, formatOf('INP')),
          cell(build.p75.CLS, formatOf('CLS')),
          element('td', { textContent: String(build.provenance.signed) }),
          element('td', { textContent: String(build.provenance.unsigned) }),
          element('td', { textContent: describeRefused(build.provenance) }),
        ]),
        // The engines the build's page views came from; a vital an engine does not measure shows "–".
        ...build.engines.map((engine) => {
          const row = element('tr', { className: 'engine' }, [
            element('td', { textContent: `engine: ${engine.engine}` }),
            element('td', { textContent: String(engine.sessions) }),
            element('td', { textContent: String(engine.failedSessions) }),
            cell(engine.sessions > 0 ? engine.failedSessions / engine.sessions : 0, formatOf('errorRate')),
            cell(engine.p75.LCP, formatOf('LCP')),
            cell(engine.p75.INP, formatOf('INP')),
            cell(engine.p75.CLS, formatOf('CLS')),
          ]);
          row.dataset.engine = engine.engine;
          return row;
        }),
      ]),
    ),
  ]);
}

/**
 * The chart in words, for whoever cannot see the canvas (a screen reader, a text browser): per
 * build, how many buckets have data, the last value and the highest with its time.
 */
function describeChart(
  buckets: readonly string[],
  builds: readonly BuildReport[],
  figure: (typeof FIGURES)[number],
): string {
  const time = (bucket: string | undefined) =>
    bucket === undefined ? '' : new Date(bucket).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  const lines = builds.map((build) => {
    const values = build.series[figure.key];
    const present = values.flatMap((value, index) => (value === null ? [] : [{ value, index }]));
    const last = present[present.length - 1];
    if (!last) return `${build.build}: no data.`;
    const highest = present.reduce((top, point) => (point.value > top.value ? point : top));
    return (
      `${build.build}: data in ${present.length} of ${buckets.length} intervals, last ${figure.format(last.value)} ` +
      `at ${time(buckets[last.index])}, highest ${figure.format(highest.value)} at ${time(buckets[highest.index])}.`
    );
  });
  return `${figure.title} over time. ${lines.join(' ')}`;
}

function chart(report: TelemetryReport, builds: readonly BuildReport[], figure: (typeof FIGURES)[number]): HTMLElement {
  const container = element('figure', { className: 'chart' }, [
    element('h3', { textContent: figure.title }),
    // The text alternative of the canvas below (which is hidden from assistive technology).
    element('figcaption', { className: 'chart-summary', textContent: describeChart(report.buckets, builds, figure) }),
  ]);
  container.dataset.figure = figure.key;
  const x = report.buckets.map((bucket) => Date.parse(bucket) / 1000);
  const data: uPlot.AlignedData = [x, ...builds.map((build) => [...build.series[figure.key]])];
  // Two charts side by side on a wide screen, one on a phone.
  const width = Math.round(Math.min(520, Math.max(300, main.clientWidth / 2 - 24)));
  const options: uPlot.Options = {
    width,
    height: 200,
    series: [
      {},
      ...builds.map((build, index) => ({
        label: build.build,
        stroke: COLOURS[index % COLOURS.length],
        width: 2,
        spanGaps: false,
        value: (_self: uPlot, value: number | null) => (value === null ? '–' : figure.format(value)),
      })),
    ],
    axes: [{}, { values: (_self, ticks) => ticks.map((tick) => figure.tick(tick)), size: 56 }],
    scales: { y: { range: (_self, _min, max) => [0, max > 0 ? max * 1.1 : figure.empty] } },
  };
  queueMicrotask(() => {
    const plot = new uPlot(options, data, container);
    // The drawing says nothing to a screen reader; the figcaption says it all.
    for (const canvas of container.querySelectorAll('canvas')) canvas.setAttribute('aria-hidden', 'true');
    charts.push(plot);
  });
  return container;
}

function render(report: TelemetryReport): void {
  clear();
  main.append(
    element('p', {
      textContent: `From ${new Date(report.from).toLocaleString()} to ${new Date(report.to).toLocaleString()}; each build of a remote is its own series.`,
    }),
    controls(report),
  );
  if (report.remotes.length === 0) {
    main.append(element('p', { textContent: 'No telemetry in this window.' }));
    return;
  }
  for (const remote of report.remotes) {
    const section = element('section', {}, [element('h2', { textContent: `Remote ${remote.remote}` })]);
    section.dataset.remote = remote.remote;
    section.append(table(remote));
    section.append(
      element(
        'div',
        { className: 'charts' },
        FIGURES.map((figure) => chart(report, remote.builds, figure)),
      ),
    );
    main.append(section);
  }
}

void load();
