/**
 * `sg-release telemetry report [--window 1h|1d] [--remote x]` (`npm run telemetry -- …` in the
 * monorepo): the telemetry report as tables.
 * `sg-release telemetry verdict <remote> [--canary <buildId> --baseline <buildId>] [--window 1h|1d] [--act yes]`:
 * promote, hold or roll back, with the figures (rule: shared/src/telemetry/verdict.ts, docs/telemetry.md).
 * Without the builds, the remote's release pointer names them (its canary, its live build). With
 * `--act yes`, a roll back verdict aborts the canary at once (everyone back on the live build).
 * Reads the API at SG_RELEASE_API (default http://127.0.0.1:3004) with the token from
 * SG_RELEASE_TOKEN (a viewer of the remote reads, a deployer acts), else OPERATOR_TOKEN or the file
 * .data/operator-token under the working folder. Exit code: 0, or 1 for an error (a command line it
 * cannot read included: 2 is taken); `verdict` exits 0 for promote, 2 for hold and 3 for roll back,
 * so a pipeline can act on it.
 */
import {
  BUILD_ID,
  canaryVerdict,
  describeRefused,
  REPORT_WINDOWS,
  verdictArm,
  type ArmFigures,
  type ReportWindow,
  type TelemetryReport,
} from '@special-gift/shared/telemetry';
import { channelFrom, ReleaseApi } from '../api-client';
import { parseCommandLine, UsageError } from '../arguments';
import { readOrCreateOperatorToken } from '../operator-token';
import { formatTable } from '../table';

export const TELEMETRY_USAGE = `Usage: sg-release telemetry <command> [options]   (in the monorepo: npm run telemetry -- …)
  report [--window 1h|1d] [--remote <remote>]
  verdict <remote> [--canary <buildId> --baseline <buildId>] [--window 1h|1d] [--act yes]`;

const OPTIONS = {
  window: { type: 'string' },
  remote: { type: 'string' },
  canary: { type: 'string' },
  baseline: { type: 'string' },
  act: { type: 'string' },
} as const;

/** The team's scoped token (SG_RELEASE_TOKEN), else the operator's: OPERATOR_TOKEN, else this checkout's (the one `npm run up` gives the API). */
export const readToken = (env: NodeJS.ProcessEnv, root = process.cwd()): string =>
  env.SG_RELEASE_TOKEN || env.OPERATOR_TOKEN || readOrCreateOperatorToken(root);

const apiBase = () => (process.env.SG_RELEASE_API ?? 'http://127.0.0.1:3004').replace(/\/$/, '');

async function fetchReport(window: ReportWindow, remote: string | undefined): Promise<TelemetryReport> {
  const base = apiBase();
  const query = new URLSearchParams({ window, ...(remote ? { remote } : {}) });
  const response = await fetch(`${base}/v1/telemetry/report?${query.toString()}`, {
    headers: { authorization: `Bearer ${readToken(process.env)}` },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw new Error(`The API answered ${response.status}: ${body?.error?.message ?? response.statusText}`);
  }
  return (await response.json()) as TelemetryReport;
}

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

const EXIT_CODES = { promote: 0, hold: 2, 'roll back': 3 } as const;

/** Runs one command line; resolves with the exit code. A command line it cannot read rejects with a UsageError. */
export async function main(args: readonly string[]): Promise<number> {
  const { command, positionals: positional, values: options } = parseCommandLine(args, OPTIONS);
  const window = options.window ?? '1h';
  if (!(REPORT_WINDOWS as readonly string[]).includes(window)) throw new UsageError('--window must be 1h or 1d');
  if (options.act !== undefined && options.act !== 'yes') throw new UsageError('--act takes only yes');
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
    let { canary, baseline } = options;
    if (!canary || !baseline) {
      // The arms of the canary under way: the pointer's canary against its live build.
      const { pointer } = await releases.remote(remote, 1);
      canary ??= pointer?.canary ?? undefined;
      baseline ??= pointer?.live;
      if (!canary || !baseline) throw new Error(`${remote} has no canary under way: name --canary and --baseline.`);
    }
    for (const build of [canary, baseline]) {
      if (!BUILD_ID.test(build)) throw new Error(`${build} is not a build id (12 hex digits, or image).`);
    }
    const report = await fetchReport(window as ReportWindow, remote);
    const builds = report.remotes.find((entry) => entry.remote === remote)?.builds ?? [];
    const find = (build: string) => builds.find((entry) => entry.build === build);
    // Signed page views only: what a script made up or replayed moves no verdict (docs/telemetry.md).
    const arms = [
      { name: 'canary', build: canary, figures: verdictArm(canary, find(canary)) },
      { name: 'baseline', build: baseline, figures: verdictArm(baseline, find(baseline)) },
    ];
    const [canaryArm, baselineArm] = arms.map((entry) => entry.figures) as [ArmFigures, ArmFigures];
    const verdict = canaryVerdict(canaryArm, baselineArm);
    console.log(
      table([
        ['arm', 'build', 'signed sessions', 'failed', 'error rate', 'p75 LCP ms', 'p75 INP ms', 'unsigned', 'refused'],
        ...arms.map(({ name, build, figures }) => [
          name,
          build,
          String(figures.sessions),
          String(figures.failedSessions),
          format.rate(figures.sessions > 0 ? figures.failedSessions / figures.sessions : 0),
          format.ms(figures.p75LCP),
          format.ms(figures.p75INP),
          String(find(build)?.provenance.unsigned ?? 0),
          describeRefused(find(build)?.provenance),
        ]),
      ]),
    );
    console.log('Only signed page views count; unsigned and refused ones are shown, never judged.');
    console.log(`\n${verdict.decision.toUpperCase()} (${remote}, last ${window})`);
    for (const reason of verdict.reasons) console.log(`- ${reason}`);
    if (options.act === 'yes' && verdict.decision === 'roll back') {
      // Only the canary this verdict judged: if the pointer moved meanwhile, the revision check refuses.
      const state = await releases.remote(remote, 1);
      if (state.pointer?.canary !== canary) throw new Error(`${remote}'s canary is no longer ${canary}: nothing done.`);
      await releases.act(remote, {
        action: 'abort',
        expectedRevision: state.revision,
        // Recorded under the token this runs with; a lock does not stop an abort.
        reason: `canary verdict: ${verdict.reasons.join('; ')}`.slice(0, 500),
      });
      console.log(`Aborted ${remote}'s canary ${canary}: every visitor is back on ${baseline}.`);
    }
    return EXIT_CODES[verdict.decision];
  }
  throw new UsageError(command === '' ? 'name a command' : `unknown command "${command}"`);
}
