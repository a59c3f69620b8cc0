/**
 * `sg-release telemetry report [--window 1h|1d] [--remote x]` (`npm run telemetry -- …` in the
 * monorepo): the telemetry report as tables.
 * `sg-release telemetry verdict <remote> [--canary <buildId> --baseline <buildId>] [--since <time>] [--window 1h|1d] [--act yes]`:
 * advance, hold or roll back, by the API's sequential rule (`GET /v1/telemetry/verdict`;
 * api/src/rollouts, docs/rollouts.md) over the signed page views since the canary started, with the
 * statistic, the always-valid p-values and what would change the decision. Without the builds,
 * the remote's release pointer names them (its canary, its live build) and its history when the
 * canary started; otherwise `--since`, else the last `--window`. With `--act yes`, a roll back
 * aborts the canary at once (everyone back on the live build).
 * Reads the API at SG_RELEASE_API (default http://127.0.0.1:3004) with the token from
 * SG_RELEASE_TOKEN (a viewer of the remote reads, a deployer acts), else OPERATOR_TOKEN or the file
 * .data/operator-token under the working folder. Exit code: 0, or 1 for an error (a command line it
 * cannot read included: 2 is taken); `verdict` exits 0 for advance, 2 for hold and 3 for roll back,
 * so a pipeline can act on it.
 */
import {
  BUILD_ID,
  canaryStart,
  describeRefused,
  REPORT_WINDOWS,
  WINDOW_SECONDS,
  type CanaryDecisionAnswer,
  type ReportWindow,
  type TelemetryReport,
} from '@special-gift/shared/telemetry';
import { channelFrom, ReleaseApi } from '../api-client';
import { parseCommandLine, UsageError } from '../arguments';
import { readOrCreateOperatorToken } from '../operator-token';
import { NOT_SERVED_EXIT, notServedWords, stateWaitMs } from '../served';
import { formatTable } from '../table';

export const TELEMETRY_USAGE = `Usage: sg-release telemetry <command> [options]   (in the monorepo: npm run telemetry -- …)
  report [--window 1h|1d] [--remote <remote>]
  verdict <remote> [--canary <buildId> --baseline <buildId>] [--since <ISO time>] [--window 1h|1d] [--act yes]`;

const OPTIONS = {
  window: { type: 'string' },
  remote: { type: 'string' },
  canary: { type: 'string' },
  baseline: { type: 'string' },
  since: { type: 'string' },
  act: { type: 'string' },
} as const;

/** The team's scoped token (SG_RELEASE_TOKEN), else the operator's: OPERATOR_TOKEN, else this checkout's (the one `npm run up` gives the API). */
export const readToken = (env: NodeJS.ProcessEnv, root = process.cwd()): string =>
  env.SG_RELEASE_TOKEN || env.OPERATOR_TOKEN || readOrCreateOperatorToken(root);

const apiBase = () => (process.env.SG_RELEASE_API ?? 'http://127.0.0.1:3004').replace(/\/$/, '');

async function getJson<T>(path: string, query: Record<string, string>): Promise<T> {
  const response = await fetch(`${apiBase()}${path}?${new URLSearchParams(query).toString()}`, {
    headers: { authorization: `Bearer ${readToken(process.env)}` },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(`The API answered ${response.status}: ${body?.error?.message ?? response.statusText}`);
  }
  return (await response.json()) as T;
}

const fetchReport = (window: ReportWindow, remote: string | undefined) =>
  getJson<TelemetryReport>('/v1/telemetry/report', { window, ...(remote ? { remote } : {}) });

const format = {
  rate: (value: number) => `${(value * 100).toFixed(2)}%`,
  ms: (value: number | null) => (value === null ? '-' : value.toFixed(0)),
  cls: (value: number | null) => (value === null ? '-' : value.toFixed(3)),
};

const table = (rows: ReadonlyArray<readonly string[]>): string => formatTable(rows).join('\n');

export function formatReport(report: TelemetryReport): string {
  const lines = [`Telemetry from ${report.from} to ${report.to} (${report.window})`];
  if (report.remotes.length === 0) return `${lines[0]}\nNo telemetry in this window.`;
  for (const remote of report.remotes) {
    lines.push('', `Remote ${remote.remote}`);
    lines.push(
      table([
        [
          'build',
          'sessions',
          'failed',
          'error rate',
          'p75 LCP ms',
          'p75 INP ms',
          'p75 CLS',
          'signed',
          'unsigned',
          'refused',
        ],
        ...remote.builds.flatMap((build) => [
          [
            build.build,
            String(build.sessions),
            String(build.failedSessions),
            format.rate(build.errorRate),
            format.ms(build.p75.LCP),
            format.ms(build.p75.INP),
            format.cls(build.p75.CLS),
            String(build.provenance.signed),
            String(build.provenance.unsigned),
            describeRefused(build.provenance),
          ],
          // Under each build, the engines its page views came from: a vital an engine lacks is "-".
          ...build.engines.map((engine) => [
            `  ${engine.engine}`,
            String(engine.sessions),
            String(engine.failedSessions),
            format.rate(engine.sessions > 0 ? engine.failedSessions / engine.sessions : 0),
            format.ms(engine.p75.LCP),
            format.ms(engine.p75.INP),
            format.cls(engine.p75.CLS),
          ]),
        ]),
      ]),
    );
  }
  return lines.join('\n');
}

const EXIT_CODES = { advance: 0, hold: 2, rollback: 3 } as const;
const DECISION_WORDS = { advance: 'ADVANCE', hold: 'HOLD', rollback: 'ROLL BACK' } as const;

const pValue = (value: number) => (value < 0.0001 ? value.toExponential(1) : value.toPrecision(2));

/** The decision as the CLI prints it: the rule's figures per metric, the decision, why, and what would change it. */
export function formatDecision(answer: CanaryDecisionAnswer): string {
  const share = ({ events, trials }: { events: number; trials: number }) =>
    trials > 0 ? `${events}/${trials} (${format.rate(events / trials)})` : '-';
  const lines = [
    table([
      ['metric', 'canary', 'live', 'live p75', 'log Λ', 'harm p', 'no-harm p', 'margin', 'state'],
      ...answer.metrics.map((metric) => [
        metric.metric === 'errors' ? 'errors' : `${metric.metric} > live p75`,
        share(metric.canary),
        share(metric.baseline),
        metric.liveP75 === null ? '-' : metric.metric === 'CLS' ? metric.liveP75.toFixed(3) : metric.liveP75.toFixed(0),
        metric.harm ? metric.harm.logLikelihoodRatio.toFixed(2) : '-',
        metric.harm ? pValue(metric.harm.pValue) : '-',
        metric.safety ? pValue(metric.safety.pValue) : '-',
        `${(metric.margin * 100).toFixed(1)} pt`,
        metric.state,
      ]),
    ]),
    `Sequential rule (always-valid p-values, alpha ${answer.rule.alpha}), signed page views since ${answer.since} ` +
      `(${answer.elapsedMinutes} min; maximum dwell ${answer.rule.maxDwellMinutes} min, then ${answer.rule.lowTraffic}).`,
    '',
    `${DECISION_WORDS[answer.decision]} (${answer.remote})`,
    ...answer.reasons.map((reason) => `- ${reason}`),
    'What would change it:',
    ...answer.whatWouldChange.map((line) => `- ${line}`),
  ];
  return lines.join('\n');
}

/** Runs one command line; resolves with the exit code. A command line it cannot read rejects with a UsageError. */
export async function main(args: readonly string[]): Promise<number> {
  const { command, positionals: positional, values: options } = parseCommandLine(args, OPTIONS);
  const window = options.window ?? '1h';
  if (!(REPORT_WINDOWS as readonly string[]).includes(window)) throw new UsageError('--window must be 1h or 1d');
  if (options.act !== undefined && options.act !== 'yes') throw new UsageError('--act takes only yes');
  const waitMs = stateWaitMs(process.env);
  if (options.since !== undefined && command !== 'verdict') throw new UsageError('--since is for verdict only');
  if (command === 'report') {
    if (positional.length > 0) throw new UsageError(`unexpected argument "${positional[0] ?? ''}"`);
    console.log(formatReport(await fetchReport(window as ReportWindow, options.remote)));
    return 0;
  }
  if (command === 'verdict') {
    const [remote, extra] = positional;
    if (!remote) throw new UsageError('verdict needs a remote');
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    const releases = new ReleaseApi(apiBase(), readToken(process.env), undefined, channelFrom(process.env));
    let { canary, baseline, since } = options;
    if (!canary || !baseline || !since) {
      // The arms of the canary under way: the pointer's canary against its live build, since it started.
      const { pointer, history } = await releases.remote(remote, 50);
      if (!canary || !baseline) {
        canary ??= pointer?.canary ?? undefined;
        baseline ??= pointer?.live;
        if (!canary || !baseline) throw new Error(`${remote} has no canary under way: name --canary and --baseline.`);
      }
      if (!since && pointer?.canary === canary) since = canaryStart(history, canary) ?? undefined;
      since ??= new Date(Date.now() - WINDOW_SECONDS[window as ReportWindow].length * 1000).toISOString();
    }
    for (const build of [canary, baseline]) {
      if (!BUILD_ID.test(build)) throw new Error(`${build} is not a build id (12 hex digits, or image).`);
    }
    const [answer, report] = await Promise.all([
      getJson<CanaryDecisionAnswer>('/v1/telemetry/verdict', { remote, canary, baseline, since }),
      fetchReport(window as ReportWindow, remote),
    ]);
    const builds = report.remotes.find((entry) => entry.remote === remote)?.builds ?? [];
    const find = (build: string) => builds.find((entry) => entry.build === build);
    // Signed page views only: what a script made up or replayed moves no verdict (docs/telemetry.md).
    console.log(
      table([
        [
          'arm',
          'build',
          'signed sessions',
          'failed',
          'error rate',
          'p75 LCP ms',
          'p75 INP ms',
          `unsigned (${window})`,
          `refused (${window})`,
        ],
        ...(['canary', 'baseline'] as const).map((name) => {
          const arm = answer.arms[name];
          return [
            name,
            arm.build,
            String(arm.sessions),
            String(arm.failedSessions),
            format.rate(arm.sessions > 0 ? arm.failedSessions / arm.sessions : 0),
            format.ms(arm.p75.LCP),
            format.ms(arm.p75.INP),
            String(find(arm.build)?.provenance.unsigned ?? 0),
            describeRefused(find(arm.build)?.provenance),
          ];
        }),
      ]),
    );
    console.log('Only signed page views count; unsigned and refused ones are shown, never judged.\n');
    console.log(formatDecision(answer));
    if (options.act === 'yes' && answer.decision === 'rollback') {
      // Only the canary this verdict judged: if the pointer moved meanwhile, the revision check refuses.
      const state = await releases.remote(remote, 1);
      if (state.pointer?.canary !== canary) throw new Error(`${remote}'s canary is no longer ${canary}: nothing done.`);
      const aborted = await releases.act(remote, {
        action: 'abort',
        expectedRevision: state.revision,
        // Recorded under the token this runs with; a lock does not stop an abort.
        reason: `canary verdict: ${answer.reasons.join('; ')}`.slice(0, 500),
      });
      const served = await releases.waitUntilServed(aborted.state, { waitMs });
      if (!served.served) {
        console.error(notServedWords(served));
        return NOT_SERVED_EXIT;
      }
      console.log(`Aborted ${remote}'s canary ${canary}: every visitor is back on ${baseline}.`);
    }
    return EXIT_CODES[answer.decision];
  }
  throw new UsageError(command === '' ? 'name a command' : `unknown command "${command}"`);
}
