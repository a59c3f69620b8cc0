/**
 * The gate runner (docs/rollouts.md, "The gate runner"): polls the API for a rollout's next gate,
 * runs it against the live host and answers with its outcome, keeping its claim alive meanwhile.
 * It never exits on what a gate meets (no browser, a host that is down): that is the gate's
 * `inconclusive` result, and the gate waits. Under `npm run up` it is one of serve-all's children,
 * which stops everything when one exits.
 */
import type { Server } from 'node:http';
import type { GateJob } from '@special-gift/shared/api';
import { exitWithParent } from '../../tooling/process/exit-with-parent';
import { checkAcceptance } from './acceptance';
import { gateApi, GateApiError, GateJobGone, type GateApi, type GateVerdict } from './api';
import { describeError } from './errors';
import { startHealthServer, type Liveness } from './health';
import { checkIntegrity } from './integrity-check';

export interface GateRunnerConfig {
  readonly apiUrl: string;
  readonly token: string;
  readonly hostUrl: string;
  readonly chromiumPath: string;
  readonly pollSeconds: number;
  readonly settleMs: number;
  /** Where `GET /health` answers; none when unset. */
  readonly healthPort: number | undefined;
}

/** The runner's settings from its environment; every problem at once, in one clear error. */
export function readConfig(env: NodeJS.ProcessEnv): GateRunnerConfig {
  const problems: string[] = [];
  // `keepPath`: the API may be served under a path (the host's /api/); the host is an origin.
  const url = (name: string, keepPath = false): string => {
    const value = env[name];
    try {
      const parsed = new URL(value ?? '');
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:')
        return keepPath ? `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}` : parsed.origin;
    } catch {
      // reported below
    }
    problems.push(`${name} must be an http(s) URL${value ? `, not "${value}"` : ' (it is not set)'}`);
    return '';
  };
  const number = (name: string, fallback: number, valid: (n: number) => boolean, what: string): number => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    const parsed = Number(value);
    if (/^\s*$/.test(value) || !valid(parsed)) problems.push(`${name} must be ${what}, not "${value}"`);
    return parsed;
  };
  const apiUrl = url('API_URL', true);
  const hostUrl = url('GATE_HOST_URL');
  const token = env.GATE_RUNNER_TOKEN ?? '';
  if (token === '') problems.push("GATE_RUNNER_TOKEN must be set: the API's credential for gate runners");
  const pollSeconds = number(
    'GATE_POLL_SECONDS',
    5,
    (n) => n > 0 && n <= 3600,
    'a number of seconds above 0, at most 3600',
  );
  const settleMs = number(
    'GATE_SETTLE_MS',
    1500,
    (n) => Number.isInteger(n) && n >= 0 && n <= 60_000,
    'whole milliseconds up to 60000',
  );
  const port = env.GATE_HEALTH_PORT;
  const healthPort =
    port === undefined || port === ''
      ? undefined
      : number('GATE_HEALTH_PORT', 0, (n) => Number.isInteger(n) && n >= 0 && n <= 65_535, 'a port number');
  if (problems.length > 0) throw new Error(`The gate runner cannot start: ${problems.join('; ')}.`);
  return {
    apiUrl,
    token,
    hostUrl,
    chromiumPath: env.CHROMIUM_PATH || '/usr/bin/chromium',
    pollSeconds,
    settleMs,
    healthPort,
  };
}

type Log = (line: string) => void;
const consoleLog: Log = (line) => console.log(`[gate-runner] ${line}`);
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/** The check a gate names; anything it throws is a check not made, never a crash of the runner. */
async function runCheck(job: GateJob, config: GateRunnerConfig): Promise<GateVerdict> {
  try {
    return job.gate === 'integrity'
      ? await checkIntegrity(job, { hostUrl: config.hostUrl })
      : await checkAcceptance(job, {
          hostUrl: config.hostUrl,
          chromiumPath: config.chromiumPath,
          settleMs: config.settleMs,
        });
  } catch (error) {
    return {
      outcome: 'inconclusive',
      reason: `The ${job.gate} check broke: ${describeError(error)}`,
      detail: {},
    };
  }
}

/**
 * Runs one claimed gate with its claim kept alive, and answers it (a few tries if the API is briefly
 * away). Each heartbeat the API takes counts as reaching it (`/health`): a long gate is no outage.
 * Returns the outcome it sent, if any.
 */
async function runJob(
  api: GateApi,
  job: GateJob,
  config: GateRunnerConfig,
  liveness: Liveness,
  log: Log,
): Promise<GateVerdict['outcome'] | undefined> {
  const name = `${job.gate} of ${job.remote} ${job.buildId} (rollout ${job.rolloutId})`;
  log(`running the ${name}`);
  // A third of the claim's remaining time between heartbeats: two may fail before it lapses.
  const untilDeadline = Date.parse(job.deadline) - Date.now();
  const every = Math.min(30_000, Math.max(1_000, Number.isFinite(untilDeadline) ? untilDeadline / 3 : 10_000));
  let gone = false;
  const heartbeat = setInterval(() => {
    api.heartbeat(job).then(
      () => {
        liveness.lastPollOkAt = Date.now();
      },
      (error: unknown) => {
        if (error instanceof GateJobGone) gone = true;
        log(`heartbeat of the ${name}: ${(error as Error).message}`);
      },
    );
  }, every);
  let verdict: GateVerdict;
  try {
    verdict = await runCheck(job, config);
  } finally {
    clearInterval(heartbeat);
  }
  log(`the ${name}: ${verdict.outcome}: ${verdict.reason}`);
  if (gone) {
    log(`the ${name} was given to another claim meanwhile: its result is not sent`);
    return undefined;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await api.result(job, verdict);
      return verdict.outcome;
    } catch (error) {
      if (error instanceof GateJobGone || !(error instanceof GateApiError) || attempt === 3) {
        log(`the result of the ${name} was not recorded: ${(error as Error).message}`);
        return undefined;
      }
      await new Promise((resolve) => setTimeout(resolve, attempt * 2_000));
    }
  }
}

/** Polls until `signal` aborts; resolves once the current gate (if any) is answered. */
export async function pollGates(
  config: GateRunnerConfig,
  liveness: Liveness,
  signal: AbortSignal,
  log: Log = consoleLog,
): Promise<void> {
  const api = gateApi({ apiUrl: config.apiUrl, token: config.token });
  let lastProblem = '';
  while (!signal.aborted) {
    let job: GateJob | null;
    try {
      job = await api.claim();
      liveness.lastPollOkAt = Date.now();
      if (lastProblem !== '') log('the API answers again');
      lastProblem = '';
    } catch (error) {
      // Said once until it changes, not at every poll.
      const problem = (error as Error).message;
      if (problem !== lastProblem) log(`cannot claim gates: ${problem}`);
      lastProblem = problem;
      job = null;
    }
    // After an inconclusive answer the same gate is pending again, and the oldest: a pause before
    // the next claim, so a host or API that cannot be checked now is not asked back to back.
    const outcome = job ? await runJob(api, job, config, liveness, log) : undefined;
    if (!job || outcome === 'inconclusive') await sleep(config.pollSeconds * 1000, signal);
  }
}

async function main(): Promise<void> {
  let config: GateRunnerConfig;
  try {
    config = readConfig(process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const liveness: Liveness = { lastPollOkAt: undefined };
  let health: Server | undefined;
  if (config.healthPort !== undefined) health = await startHealthServer(liveness, config.healthPort);
  const stop = new AbortController();
  // A gate cut short is not answered: its claim lapses and the gate goes back to pending.
  const shutdown = () => {
    stop.abort();
    health?.close();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  exitWithParent(shutdown);
  consoleLog(
    `polling ${config.apiUrl} every ${config.pollSeconds} s; host ${config.hostUrl}; Chromium ${config.chromiumPath}`,
  );
  await pollGates(config, liveness, stop.signal);
}

if (require.main === module) void main();
