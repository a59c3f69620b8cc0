// The canary decision rule's operating characteristics, against the fixed-sample z-test it
// replaces, both asked every minute as an automation would (docs/rollouts.md has the table).
// Seeded, so two runs print the same table; about a minute on one core.
//   node --import tsx bench/rollout-rule/simulate.ts [--runs 400] [--seed 41]
import { parseArgs } from 'node:util';
import { decide, DEFAULT_ROLLOUT_RULE, type RolloutRuleParameters, type RuleInput } from '../../api/src/rollouts';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '400' }, seed: { type: 'string', default: '41' } },
});
const RUNS = Number(values.runs);
const SEED = Number(values.seed);
if (!Number.isSafeInteger(RUNS) || RUNS < 10 || !Number.isSafeInteger(SEED))
  throw new Error('--runs (≥ 10) and --seed take integers');

const MINUTES = 24 * 60;
const RULE = DEFAULT_ROLLOUT_RULE;

/** mulberry32: small, fast, seeded; plenty for a simulation's uniforms. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Poisson arrivals in a minute (Knuth's method; the means here are at most ~17). */
function poisson(random: () => number, mean: number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let product = random();
  while (product > limit) {
    k += 1;
    product *= random();
  }
  return k;
}

/** The verdict before this rule (the fixed-sample z-test of shared/src/telemetry/verdict.ts), on the cumulative counts. */
function zTestSaysRollBack(cf: number, cn: number, lf: number, ln: number): boolean | null {
  if (cn < 610 || ln < 610) return null;
  const pooled = (cf + lf) / (cn + ln);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / cn + 1 / ln));
  if (se === 0) return false;
  const rise = cf / cn - lf / ln;
  return rise / se > 1.6448536 && rise > 0.005;
}

const NO_VITALS: RuleInput['vitals'] = {
  LCP: { canary: { events: 0, trials: 0 }, live: { events: 0, trials: 0 } },
  INP: { canary: { events: 0, trials: 0 }, live: { events: 0, trials: 0 } },
  CLS: { canary: { events: 0, trials: 0 }, live: { events: 0, trials: 0 } },
};

interface Run {
  /** The z-test: the first minute it says roll back (null: never in 24 h), and the page views per arm then. */
  zRollback: { minute: number; views: number } | null;
  /** The z-test's first minute with a verdict other than hold. */
  zFirstVerdict: number | null;
  /** The new rule, acting on its first decision: which, when, at how many page views per arm. */
  first: { decision: 'rollback' | 'advance'; minute: number; views: number } | null;
  /** The new rule asked every minute for the whole 24 h, never stopping: did it ever say rollback? */
  everRollback: boolean;
}

function simulate(
  random: () => number,
  perHour: number,
  liveRate: number,
  canaryRate: number,
  rule: RolloutRuleParameters,
): Run {
  let cn = 0;
  let cf = 0;
  let ln = 0;
  let lf = 0;
  const run: Run = { zRollback: null, zFirstVerdict: null, first: null, everRollback: false };
  for (let minute = 1; minute <= MINUTES; minute += 1) {
    const canaryViews = poisson(random, perHour / 60);
    const liveViews = poisson(random, perHour / 60);
    for (let i = 0; i < canaryViews; i += 1) if (random() < canaryRate) cf += 1;
    for (let i = 0; i < liveViews; i += 1) if (random() < liveRate) lf += 1;
    cn += canaryViews;
    ln += liveViews;
    const z = zTestSaysRollBack(cf, cn, lf, ln);
    if (z !== null && run.zFirstVerdict === null) run.zFirstVerdict = minute;
    if (z === true && run.zRollback === null) run.zRollback = { minute, views: Math.min(cn, ln) };
    if (run.everRollback && run.zRollback !== null) break;
    if (run.everRollback) continue;
    const { decision } = decide(
      {
        errors: { canary: { events: cf, trials: cn }, live: { events: lf, trials: ln } },
        vitals: NO_VITALS,
        elapsedMinutes: minute,
      },
      rule,
    );
    if (decision !== 'hold' && run.first === null) run.first = { decision, minute, views: Math.min(cn, ln) };
    if (decision === 'rollback') run.everRollback = true;
  }
  return run;
}

const quantile = (values: number[], q: number): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? null;
};
const share = (count: number) => `${((count / RUNS) * 100).toFixed(1)} %`;
const hours = (minutes: number | null) =>
  minutes === null ? '–' : minutes < 120 ? `${minutes} min` : `${(minutes / 60).toFixed(1)} h`;
const views = (value: number | null) => (value === null ? '–' : String(value));
const medianP90 = (list: number[], unit: (value: number | null) => string) =>
  `${unit(quantile(list, 0.5))} / ${unit(quantile(list, 0.9))}`;

const started = Date.now();
const rows: string[][] = [];
let seed = SEED;
for (const perHour of [1000, 100]) {
  for (const [name, live, canary] of [
    ['identical (1 % / 1 %)', 0.01, 0.01],
    ['1 % → 3 %', 0.01, 0.03],
    ['1 % → 2 %', 0.01, 0.02],
  ] as const) {
    const row = (
      label: string,
      rolledShare: string,
      hits: ReadonlyArray<{ views: number; minute: number }>,
      advanced: string,
      decided: number[],
    ) => [
      `${perHour}/h`,
      name,
      label,
      rolledShare,
      medianP90(
        hits.map((hit) => hit.views),
        views,
      ),
      medianP90(
        hits.map((hit) => hit.minute),
        hours,
      ),
      advanced,
      medianP90(decided, hours),
    ];
    // At 100 page views an hour the low-traffic policy decides much: both policies, on the same streams.
    const rules: Array<[string, RolloutRuleParameters]> = [['mSPRT rule', RULE]];
    if (perHour < 1000) rules.push(['mSPRT rule, policy hold', { ...RULE, lowTraffic: 'hold' }]);
    seed += 1;
    const zRuns = Array.from({ length: RUNS }, () => null as Run | null);
    for (const [label, rule] of rules) {
      // One generator per run, so each policy sees the very same page views in run i.
      const runs = Array.from({ length: RUNS }, (_, index) =>
        simulate(prng(seed * 1_000_003 + index), perHour, live, canary, rule),
      );
      runs.forEach((run, index) => (zRuns[index] ??= run));
      const rolled = runs.flatMap((run) => (run.first?.decision === 'rollback' ? [run.first] : []));
      const advanced = runs.flatMap((run) => (run.first?.decision === 'advance' ? [run.first] : []));
      const decided = runs.flatMap((run) => (run.first ? [run.first.minute] : []));
      const rolledShare = `${share(rolled.length)} (${share(runs.filter((run) => run.everRollback).length)} never stopping)`;
      rows.push(row(label, rolledShare, rolled, share(advanced.length), decided));
    }
    // The z-test on the same page views (the first rule's runs: same seed, same streams).
    const zCaught = zRuns.flatMap((run) => (run?.zRollback ? [run.zRollback] : []));
    const zFirst = zRuns.flatMap((run) => (run?.zFirstVerdict == null ? [] : [run.zFirstVerdict]));
    rows.splice(rows.length - rules.length, 0, row('z-test (610/arm)', share(zCaught.length), zCaught, '–', zFirst));
  }
}

console.log(
  `${RUNS} runs per row, seed ${SEED}, 24 h checked every minute, Poisson page views per arm; rule: alpha ${RULE.alpha}, ` +
    `min ${RULE.minViews} views, error margin ${RULE.errorMargin}, tau ${RULE.errorTau}, max dwell ${RULE.maxDwellMinutes} min (${RULE.lowTraffic}).\n`,
);
const header = [
  'traffic per arm',
  'error rate live → canary',
  'rule',
  'rolled back in 24 h',
  'page views per arm at rollback (median / p90)',
  'time to rollback (median / p90)',
  'advanced',
  'time to first decision (median / p90)',
];
console.log(`| ${header.join(' | ')} |`);
console.log(`| ${header.map(() => '---').join(' | ')} |`);
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
console.log(`\n${((Date.now() - started) / 1000).toFixed(1)} s`);
