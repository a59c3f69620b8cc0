import { scriptBytes, type FirstRender } from './first-render';
import type { LighthouseRun } from './lighthouse-runs';
import type { CallsByInteraction, LabInp } from './lab-inp';
import type { WarmPath } from './warm-path';

export type Variant = 'federated' | 'monolith';
export const VARIANTS: readonly Variant[] = ['federated', 'monolith'];
export const PATHS = ['/', '/sign-up'] as const;
export type BenchPath = (typeof PATHS)[number];

export interface BenchResults {
  date: string;
  throttling: 'simulate' | 'devtools';
  machine: string;
  lighthouseRuns: number;
  firstRender: Record<Variant, Record<BenchPath, FirstRender>>;
  lighthouse: Record<Variant, Record<BenchPath, LighthouseRun[]>>;
  warm: Record<Variant, WarmPath>;
  /** Lab INP on the sign-up form at 4x CPU, one entry per run (absent from results older than it). */
  labInp?: Record<Variant, LabInp[]>;
  /** JS function calls per interaction kind, one counted run (absent from results older than it). */
  interactionCalls?: Record<Variant, CallsByInteraction>;
}

/** A row of the side-by-side table: label, both variants, and how the federated one compares. */
export interface Row {
  metric: string;
  federated: string;
  monolith: string;
  comparison: string;
}

export const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] ?? Number.NaN)
    : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
};

/** The q-quantile (0-1) of `values`, linear between the two nearest ranks. */
export const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const low = sorted[Math.floor(at)] ?? Number.NaN;
  const high = sorted[Math.ceil(at)] ?? Number.NaN;
  return low + (high - low) * (at - Math.floor(at));
};

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${Math.round(value)} ms`;
// Below 1 (e.g. 0-1 ms of blocking time) a ratio says nothing.
const ratio = (a: number, b: number) => (b < 1 ? '–' : (a / b).toFixed(2));
const spread = (values: readonly number[], format: (value: number) => string) =>
  values.length > 1
    ? `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`
    : format(values[0] ?? Number.NaN);

export function tableRows(results: BenchResults): Row[] {
  const rows: Row[] = [];
  const both = (metric: string, value: (variant: Variant) => string, comparison: string) =>
    rows.push({ metric, federated: value('federated'), monolith: value('monolith'), comparison });

  for (const path of PATHS) {
    const first = (variant: Variant) => results.firstRender[variant][path];
    const js = (variant: Variant) => first(variant).jsBytes;
    const requests = (variant: Variant) => first(variant).requests.length;
    // The budget the browser suite asserts on every run (performance-budget.spec.ts).
    const target = path === '/' ? ' (budget ≤ 1.22, asserted)' : '';
    both(
      `${path} JS for the first screen (gzip, as transferred)`,
      (v) => kb(js(v)),
      `×${ratio(js('federated'), js('monolith'))}${target}`,
    );
    both(
      `${path} requests before the first screen`,
      (v) => String(requests(v)),
      `+${requests('federated') - requests('monolith')}${path === '/' ? ' (target ≤ +3)' : ''}`,
    );
  }
  const preloadJs = (variant: Variant) => scriptBytes(results.firstRender[variant]['/'].afterPreload);
  both(
    '/ all JS once every screen is preloaded',
    (v) => kb(preloadJs(v)),
    `×${ratio(preloadJs('federated'), preloadJs('monolith'))}`,
  );

  for (const path of PATHS) {
    const runs = (variant: Variant) => results.lighthouse[variant][path];
    const metric = (variant: Variant, pick: (run: LighthouseRun) => number) => runs(variant).map(pick);
    const compare = (pick: (run: LighthouseRun) => number) =>
      `×${ratio(median(metric('federated', pick)), median(metric('monolith', pick)))}`;
    const lh = `Lighthouse ${path}`;
    const simulated = results.throttling === 'simulate';
    both(
      `${lh} LCP`,
      (v) =>
        spread(
          metric(v, (r) => r.lcpMs),
          ms,
        ),
      `${compare((r) => r.lcpMs)} (target ≤ 0.6${simulated ? ', ≤ 2,000 ms' : ''})`,
    );
    both(
      `${lh} FCP`,
      (v) =>
        spread(
          metric(v, (r) => r.fcpMs),
          ms,
        ),
      `${compare((r) => r.fcpMs)} (target ≤ 1)`,
    );
    const tbtDifference = Math.round(
      median(metric('federated', (r) => r.tbtMs)) - median(metric('monolith', (r) => r.tbtMs)),
    );
    both(
      `${lh} TBT`,
      (v) =>
        spread(
          metric(v, (r) => r.tbtMs),
          ms,
        ),
      `${tbtDifference >= 0 ? '+' : '−'}${Math.abs(tbtDifference)} ms (target ≤ +50 ms)`,
    );
    both(
      `${lh} CLS`,
      (v) =>
        spread(
          metric(v, (r) => r.cls),
          (x) => x.toFixed(3),
        ),
      '',
    );
    both(
      `${lh} performance score`,
      (v) =>
        spread(
          metric(v, (r) => r.performance),
          String,
        ),
      simulated ? 'target ≥ 97' : '',
    );
    both(
      `${lh} accessibility score`,
      (v) =>
        spread(
          metric(v, (r) => r.accessibility),
          String,
        ),
      'target 100',
    );
    both(
      `${lh} best-practices score`,
      (v) =>
        spread(
          metric(v, (r) => r.bestPractices),
          String,
        ),
      'target 100',
    );
    both(
      `${lh} requests (whole load)`,
      (v) =>
        spread(
          metric(v, (r) => r.requests),
          String,
        ),
      '',
    );
    both(
      `${lh} JS transferred (whole load)`,
      (v) =>
        spread(
          metric(v, (r) => r.jsTransferBytes),
          kb,
        ),
      compare((r) => r.jsTransferBytes),
    );
  }

  const warm = (variant: Variant) => results.warm[variant];
  both(
    'After the preload: code / text requests moving between screens',
    (v) => `${warm(v).codeRequests} / ${warm(v).textRequests}`,
    'target 0 / 0',
  );
  // After the first paint: medians of interleaved rounds, with the interquartile range, and the
  // target that the federated build is no slower than the monolith for each kind.
  // The difference of the medians is printed in ms too: Event Timing rounds each duration to 8 ms,
  // so a difference well under that is within what one interaction can resolve.
  const interaction = (metric: string, of: (variant: Variant) => readonly number[], target = true) => {
    const fed = median(of('federated'));
    const mono = median(of('monolith'));
    if (!of('federated').length || !of('monolith').length) return;
    const difference = `${fed - mono >= 0 ? '+' : '−'}${Math.abs(fed - mono).toFixed(1)} ms`;
    both(
      `${metric} (median [IQR], n=${of('federated').length})`,
      (v) => `${ms(median(of(v)))} [${ms(quantile(of(v), 0.25))}–${ms(quantile(of(v), 0.75))}]`,
      `×${ratio(fed, mono)}, ${difference}${target ? ` (target ≤ monolith: ${fed <= mono ? 'met' : 'NOT met'})` : ''}`,
    );
  };
  interaction('Click to next heading, 4x CPU, every move', (v) => warm(v).clickToHeadingMs);
  interaction('  the first move of a page (leaves the composed first screen)', (v) => warm(v).firstMoveMs ?? [], false);
  interaction('  the later moves', (v) => warm(v).laterMovesMs ?? [], false);
  const inp = results.labInp;
  if (inp) {
    interaction("Lab INP, every screen, 4x CPU: one run's slowest interaction", (v) => inp[v].map((run) => run.inpMs));
    const kinds = [...new Set(VARIANTS.flatMap((v) => inp[v].flatMap((run) => Object.keys(run.byInteraction))))].sort();
    for (const kind of kinds) {
      interaction(`  "${kind}": mean per run`, (v) => inp[v].flatMap((run) => run.meanByInteraction?.[kind] ?? []));
      interaction(`  "${kind}": slowest per run`, (v) => inp[v].map((run) => run.byInteraction[kind] ?? 0), false);
    }
  }
  const calls = results.interactionCalls;
  if (calls) {
    const kinds = [...new Set(VARIANTS.flatMap((v) => Object.keys(calls[v])))].sort();
    for (const kind of kinds) {
      const of = (variant: Variant) => calls[variant][kind] ?? 0;
      both(
        `JS function calls, "${kind}" (V8 count, every such interaction of a run)`,
        (v) => of(v).toLocaleString('en'),
        `×${ratio(of('federated'), of('monolith'))} (${of('federated') - of('monolith') >= 0 ? '+' : '−'}${Math.abs(of('federated') - of('monolith'))})`,
      );
    }
  }
  return rows;
}

export function markdown(results: BenchResults): string {
  const rows = tableRows(results);
  const benchmarkIndex = median(
    VARIANTS.flatMap((v) => PATHS.flatMap((p) => results.lighthouse[v][p].map((r) => r.benchmarkIndex))),
  );
  return [
    `Measured ${results.date.slice(0, 10)} on ${results.machine}; Lighthouse benchmarkIndex ${Math.round(benchmarkIndex)}.`,
    `Both builds served by nginx with the images' config (gzip on). Lighthouse 12.8.2 mobile preset (${results.throttling === 'devtools' ? 'DevTools throttling' : 'simulated throttling'}), ${results.lighthouseRuns} cold runs each, median (min–max).`,
    '',
    '| Metric | Federated | Monolith | Federated vs monolith |',
    '|---|---|---|---|',
    ...rows.map((row) => `| ${row.metric} | ${row.federated} | ${row.monolith} | ${row.comparison} |`),
    '',
  ].join('\n');
}
