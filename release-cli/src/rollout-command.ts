// `sg-release rollout …` (docs/releases.md, "Rollouts from the CLI"): start a rollout that the API's
// leader takes through its gates and steps (docs/rollouts.md), read where it stands, and steer it.
// The API is the authority on plans and states; the tool checks only what a person can mistype, and
// its contract check refuses before the API is asked (the API's contract gate decides).
import { readFileSync } from 'node:fs';
import {
  ROLLOUT_CONTROLS,
  type Rollout,
  type RolloutControl,
  type RolloutPlan,
  type RolloutStartRequest,
} from '@special-gift/shared/api';
import type { ReleaseApi } from './api-client';
import { type CommandLine, UsageError } from './arguments';
import { checkContract } from './contract-check';
import { Refusal } from './integrity';
import { buildIdArg, expectArgs, remoteNamed } from './release-args';
import { describeRollout, formatEvent, formatRemotePlan, formatRolloutStatus, rolloutExitCode } from './rollout-status';

export const ROLLOUT_USAGE = `  rollout <remote> <buildId> --reason <text> [--plan <file.json> | --steps 1,5,25,50 --dwell 30m]
          [--approve-promote yes] [--wait] [--json]
                                             start a rollout: gates before any user, then shares that
                                             advance, hold or roll back by themselves (docs/rollouts.md);
                                             --wait: until it ends (0 succeeded, 1 rolled back/failed/aborted)
  rollout status <remote> [--json]           the rollout under way, else the last: gates, steps, rule, events
  rollout pause|resume|skip|abort <remote> --reason <text>
                                             steer the rollout under way
  rollout approve <remote> --reason <text>   let it enter a share that needs approval (a token other than
                                             the one that started it: four eyes)
  rollout plan <remote> [--json]             the remote's default plan: what a rollout started without
                                             --plan or --steps follows (else the API's built-in plan)
  rollout plan <remote> --plan <file.json> | --steps 1,5,25,100 --dwell 10m [--approve-promote yes]
                                             set it (a deployer of the remote; rollouts under way keep theirs)
  rollout plan <remote> --clear              remove it: the built-in plan again`;

/** The options only `rollout` reads; release-tool.ts adds them to its own. */
export const ROLLOUT_OPTIONS = {
  plan: { type: 'string' },
  steps: { type: 'string' },
  dwell: { type: 'string' },
  'approve-promote': { type: 'string' },
  wait: { type: 'boolean' },
  clear: { type: 'boolean' },
} as const;

type RolloutValues = CommandLine<typeof ROLLOUT_OPTIONS>['values'] & { json?: boolean; reason?: string };

/** Fresh signed canary views a step needs before it advances, as the API's built-in plan has it. */
const STEPS_MIN_NEW_VIEWS = 20;

export type RolloutInvocation =
  | {
      readonly kind: 'start';
      readonly request: RolloutStartRequest;
      readonly wait: boolean;
      readonly json: boolean;
    }
  | { readonly kind: 'status'; readonly remote: string; readonly json: boolean }
  | {
      readonly kind: 'control';
      readonly control: RolloutControl;
      readonly remote: string;
      readonly reason: string;
      readonly json: boolean;
    }
  | {
      readonly kind: 'plan';
      readonly remote: string;
      /** undefined: show it; null: clear it; else set it. */
      readonly plan: RolloutPlan | null | undefined;
      readonly reason: string;
      readonly json: boolean;
    };

const SUBCOMMANDS: readonly string[] = ['status', ...ROLLOUT_CONTROLS];
const START_ONLY = ['plan', 'steps', 'dwell', 'approve-promote', 'wait'] as const;
const PLAN_OPTIONS = ['plan', 'steps', 'dwell', 'approve-promote'] as const;

/** `--steps 1,5,25,50`: shares from 1 to 99 %, increasing (the API checks the rest of a plan). */
export function parseSteps(text: string): number[] {
  const shares = text.split(',').map((word) => (/^[0-9]{1,2}$/.test(word.trim()) ? Number(word.trim()) : NaN));
  if (shares.some((share, index) => !(share >= 1 && share <= 99) || (index > 0 && share <= (shares[index - 1] ?? 0))))
    throw new UsageError(`--steps must be shares from 1 to 99 %, increasing, e.g. 1,5,25,50 (got "${text}")`);
  return shares;
}

/** `--dwell 30m`: seconds, minutes or hours, as a plan writes a step's minDwell. */
export function parseDwell(text: string): string {
  if (!/^[1-9][0-9]{0,5}[smh]$/.test(text))
    throw new UsageError(`--dwell must be a duration like 90s, 30m or 2h (got "${text}")`);
  return text;
}

function readPlanFile(file: string, readFile: (file: string) => string): RolloutPlan {
  let text: string;
  try {
    text = readFile(file);
  } catch (error) {
    throw new UsageError(`cannot read --plan ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  let plan: unknown;
  try {
    plan = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--plan ${file} is not JSON (${(error as Error).message})`);
  }
  // Only its shape: the API validates the plan (shares, dwell floor, approvals) and says what is wrong.
  const steps = (plan as { steps?: unknown } | null)?.steps;
  const isStep = (step: unknown) =>
    typeof (step as { percent?: unknown } | null)?.percent === 'number' &&
    typeof (step as { minDwell?: unknown }).minDwell === 'string';
  if (typeof plan !== 'object' || !Array.isArray(steps) || steps.length === 0 || !steps.every(isStep))
    throw new UsageError(
      `--plan ${file} must hold a plan: {"steps": [{"percent": 1, "minDwell": "30m"}, …], "promote": …} (docs/rollouts.md)`,
    );
  return plan as RolloutPlan;
}

/**
 * The plan a start sends: the `--plan` file's, or one built from `--steps` and `--dwell` (with the
 * built-in plan's 20 fresh views per step and the documented low-traffic default, advance), or
 * none: the remote's default plan. `--approve-promote yes` makes promoting need an approval.
 */
export function planFromOptions(
  values: RolloutValues,
  readFile: (file: string) => string = (file) => readFileSync(file, 'utf8'),
): RolloutPlan | undefined {
  const approvePromote = values['approve-promote'];
  if (approvePromote !== undefined && approvePromote !== 'yes')
    throw new UsageError('--approve-promote takes only yes');
  if (values.plan !== undefined && (values.steps !== undefined || values.dwell !== undefined))
    throw new UsageError('give --plan, or --steps with --dwell, not both');
  let plan: RolloutPlan | undefined;
  if (values.plan !== undefined) plan = readPlanFile(values.plan, readFile);
  else if (values.steps !== undefined || values.dwell !== undefined) {
    if (values.steps === undefined) throw new UsageError('--dwell needs --steps');
    if (values.dwell === undefined) throw new UsageError('--steps needs --dwell (how long each share holds at least)');
    const minDwell = parseDwell(values.dwell);
    plan = {
      steps: parseSteps(values.steps).map((percent) => ({ percent, minDwell })),
      promote: { approval: false },
      minNewViewsPerStep: STEPS_MIN_NEW_VIEWS,
      lowTraffic: 'advance',
    };
  }
  if (approvePromote === undefined) return plan;
  if (plan === undefined)
    throw new UsageError("--approve-promote needs --plan or --steps: the remote's default plan applies as it is");
  return { ...plan, promote: { ...plan.promote, approval: true } };
}

/** What a `rollout …` command line asks for; a UsageError when it cannot be read. */
export function parseRollout(
  positionals: readonly string[],
  values: RolloutValues,
  readFile?: (file: string) => string,
): RolloutInvocation {
  const json = values.json === true;
  const reason = values.reason ?? '';
  const [first, ...rest] = positionals;
  if (first !== 'plan' && values.clear !== undefined) throw new UsageError('--clear is for rollout plan');
  if (first === 'plan') {
    expectArgs({ positionals: rest }, 1);
    const remote = remoteNamed(rest[0]).name;
    if (values.wait !== undefined) throw new UsageError('--wait is for starting a rollout');
    if (values.clear === true) {
      const given = PLAN_OPTIONS.find((name) => values[name] !== undefined);
      if (given !== undefined) throw new UsageError(`give --clear, or --${given}, not both`);
      return { kind: 'plan', remote, plan: null, reason, json };
    }
    return { kind: 'plan', remote, plan: planFromOptions(values, readFile), reason, json };
  }
  if (first !== undefined && SUBCOMMANDS.includes(first)) {
    expectArgs({ positionals: rest }, 1);
    const remote = remoteNamed(rest[0]).name;
    const startOnly = START_ONLY.find((name) => values[name] !== undefined);
    if (startOnly !== undefined) throw new UsageError(`--${startOnly} is for starting a rollout`);
    if (first === 'status') return { kind: 'status', remote, json };
    if (reason.trim() === '') throw new UsageError(`rollout ${first} needs --reason <text>`);
    return { kind: 'control', control: first as RolloutControl, remote, reason, json };
  }
  expectArgs({ positionals }, 2);
  const remote = remoteNamed(first).name;
  const buildId = buildIdArg(positionals[1]);
  if (reason.trim() === '') throw new UsageError('rollout needs --reason <text>');
  const plan = planFromOptions(values, readFile);
  return {
    kind: 'start',
    request: { remote, buildId, ...(plan === undefined ? {} : { plan }), reason },
    wait: values.wait === true,
    json,
  };
}

/** How often `--wait` reads the rollout: SG_ROLLOUT_POLL_S seconds (more than 0, at most 600), 10 by default. */
export function rolloutPollMs(env: Readonly<Record<string, string | undefined>>): number {
  const given = env.SG_ROLLOUT_POLL_S;
  if (given === undefined || given === '') return 10_000;
  const seconds = /^[0-9]{1,3}(\.[0-9]{1,3})?$/.test(given) ? Number(given) : NaN;
  if (!(seconds > 0 && seconds <= 600))
    throw new UsageError(`SG_ROLLOUT_POLL_S must be a number of seconds above 0, at most 600 (got '${given}')`);
  return seconds * 1000;
}

const CONTROL_WORDS: Record<RolloutControl, string> = {
  pause: 'paused: the share holds (proven harm still rolls it back)',
  resume: 'resumed',
  skip: 'skips to the next share at its next check (never past a gate or an approval)',
  approve: 'approved',
  abort: 'aborted: everyone is back on the live build',
};

export interface RolloutContext {
  readonly api: ReleaseApi;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly hostUrl: string;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly now: () => Date;
}

/** Runs `rollout …`; resolves with the exit code. Refusals (the API's included) are thrown as Refusal. */
export async function rolloutCommand(
  positionals: readonly string[],
  values: RolloutValues,
  context: RolloutContext,
): Promise<number> {
  const invocation = parseRollout(positionals, values);
  const { api, out } = context;
  switch (invocation.kind) {
    case 'start': {
      const pollMs = rolloutPollMs(context.env); // read before anything is changed
      const { remote, buildId } = invocation.request;
      await checkContract(remote, buildId, await api.remote(remote), context.hostUrl);
      const rollout = await api.startRollout(invocation.request);
      if (!invocation.wait) {
        out(invocation.json ? JSON.stringify(rollout) : startedWords(rollout));
        return 0;
      }
      if (!invocation.json) out(startedWords(rollout));
      return waitForEnd(rollout, invocation.json, pollMs, context);
    }
    case 'status': {
      const { remote } = invocation;
      // At most one is under way, and it is the newest; else the newest that ended.
      const latest =
        (await api.rollouts(remote, { active: true, limit: 1 }))[0] ?? (await api.rollouts(remote, { limit: 1 }))[0];
      if (latest === undefined) {
        out(invocation.json ? 'null' : `${remote}: no rollout yet`);
        return 0;
      }
      const detail = await api.rollout(latest.id);
      out(invocation.json ? JSON.stringify(detail) : formatRolloutStatus(detail, context.now()));
      return 0;
    }
    case 'plan':
      return planCommand(invocation, context);
    case 'control': {
      const { remote, control } = invocation;
      const active = (await api.rollouts(remote, { active: true, limit: 1 }))[0];
      if (active === undefined) throw new Refusal(`${remote} has no rollout under way`);
      // The version read here is the one the API compares: if the runner or a person changed the
      // rollout in between, this is refused (409) rather than applied to a state nobody saw.
      const changed = await api.rolloutControl(active.id, control, {
        expectedVersion: active.version,
        reason: invocation.reason,
      });
      out(
        invocation.json
          ? JSON.stringify(changed)
          : `${remote}: rollout ${changed.id} ${CONTROL_WORDS[control]}; now ${describeRollout(changed)}`,
      );
      return 0;
    }
  }
}

/** `rollout plan <remote>`: prints the remote's default plan, or sets or clears it from the version just read. */
async function planCommand(
  invocation: Extract<RolloutInvocation, { kind: 'plan' }>,
  { api, out }: RolloutContext,
): Promise<number> {
  const { remote, plan, reason, json } = invocation;
  const current = await api.rolloutPlan(remote);
  if (plan === undefined) {
    out(json ? JSON.stringify(current) : formatRemotePlan(current));
    return 0;
  }
  // The version read here is the one the API compares: a change made in between is refused (409).
  const changed = await api.setRolloutPlan(remote, {
    plan,
    expectedVersion: current.version,
    ...(reason === '' ? {} : { reason }),
  });
  out(
    json
      ? JSON.stringify(changed)
      : changed.plan === null
        ? `${remote}: default rollout plan cleared (version ${changed.version}): rollouts started without a plan follow the API's built-in plan`
        : `${remote}: default rollout plan set (version ${changed.version}): ${planWords(changed.plan)}. ` +
          'Rollouts started without --plan or --steps follow it; those under way keep theirs.',
  );
  return 0;
}

const planWords = (plan: RolloutPlan) => `${plan.steps.map((step) => `${step.percent} %`).join(' → ')} → promote`;

const startedWords = (rollout: Rollout) =>
  `${rollout.remote}: rollout ${rollout.id} of ${rollout.buildId} started (against live ${rollout.baselineBuild}): ` +
  `gates, then ${planWords(rollout.plan)}. ` +
  `\`rollout status ${rollout.remote}\` shows where it stands.`;

/** Reads the rollout every `pollMs` until it ends, printing its timeline as it grows; the exit code of its end. */
async function waitForEnd(rollout: Rollout, json: boolean, pollMs: number, context: RolloutContext): Promise<number> {
  // With --json, stdout holds only the final JSON: the timeline goes to stderr.
  const progress = json ? context.err : context.out;
  let seen = 0;
  for (;;) {
    const detail = await context.api.rollout(rollout.id);
    for (const event of detail.events.filter((candidate) => candidate.seq > seen)) progress(formatEvent(event));
    seen = Math.max(seen, ...detail.events.map((event) => event.seq));
    const code = rolloutExitCode(detail.state);
    if (code !== undefined) {
      context.out(json ? JSON.stringify(detail) : `${detail.remote}: rollout ${detail.id} ${describeRollout(detail)}`);
      if (code !== 0)
        context.err(
          `release: rollout ${detail.id} of ${detail.remote} ${detail.state.replace('_', ' ')}: ${detail.outcomeReason}`,
        );
      return code;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
