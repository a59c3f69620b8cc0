import path from 'node:path';
import { ROLES, type Role } from '@special-gift/shared/api';
import type { RemoteApp } from '../../tooling/remotes';
import { type CommandLine, parseCommandLine, UsageError } from './arguments';
import { formatTable } from './table';
import { buildIdArg, expectArgs, remoteNamed } from './release-args';
import { channelFrom, ReleaseApi, type ActionRequest, type RemoteState } from './api-client';
import { computeBuild } from './build-id';
import { checkContract } from './contract-check';
import { NOT_SERVED_EXIT, notServedWords, servedWords, stateWaitMs } from './served';
import { buildFootprint } from './footprint';
import { checkDist, Refusal } from './integrity';
import { readOrCreateOperatorToken } from './operator-token';
import { buildsToPurge } from './retention';
import { ROLLOUT_OPTIONS, ROLLOUT_USAGE, rolloutCommand } from './rollout-command';
import type { BuildStore } from './store/store-interface';
import { buildIntegrity } from './sri';
import { openBuildStore } from './store/open-store';

export const USAGE = `Usage: sg-release <command> [options]   (in the monorepo: npm run release -- …)

  publish <remote> [--dist <dir>] [--json]   check, store and register a build; prints its id
  release <remote> <buildId>                 make a build live (clears any canary)
  canary <remote> <buildId> --percent <1-100> serve a build to that share of visitors
  promote <remote>                           make the canary live
  abort <remote>                             drop the canary
  rollback <remote> [--to <buildId>]         back to the previous live build (or the one named)
  detach <remote>                            no pointer: pages get the remote's own image build
  history <remote>                           the pointer and its history
  preview <remote> <buildId>                 how to see a build in your own browser only
  lock <remote> --reason <text>              freeze the pointer: release, canary, promote, detach refused
  unlock <remote> --reason <text>            unfreeze it
  audit <remote>                             who changed what, when, from where, and why
${ROLLOUT_USAGE}
  token create <remote> --role <viewer|deployer|admin> --name <text> [--days <1-365>]
                                             a token for one remote (printed once; admins only)
  token list <remote>                        that remote's tokens (admins only)
  token revoke <tokenId> [--cascade yes|no]  revoke a token at once (admins only); yes (the default) also
                                             revokes the tokens it created, no keeps them (rotation)
  telemetry report|verdict …                 the telemetry report, the canary verdict (sg-release telemetry)

Every command takes --reason <text>. Changes are recorded under the token's name.
Environment: SG_RELEASE_API (http://127.0.0.1:3004), SG_RELEASE_TOKEN (a token scoped to the remote;
else OPERATOR_TOKEN, else .data/operator-token), CI (set: the audit trail says "ci", else "cli"),
SG_BUILD_STORE (.data/builds, or s3://bucket/prefix with the AWS SDK's
settings: AWS_ENDPOINT_URL_S3, AWS_REGION, credentials), SG_HOST_URL (http://localhost:3000),
SG_ROLLOUT_POLL_S (how often rollout --wait reads the rollout, 10 s).
Exit codes: 0 done, 1 refused (the reason on stderr), 2 usage, 4 applied but not yet served (the build
store has not taken the release state within SG_RELEASE_STATE_WAIT_S, 10 s; the API keeps trying).
rollout --wait exits 0 when the rollout succeeded, 1 when it was rolled back, failed or aborted (why, on stderr).`;

export interface ToolContext {
  /**
   * The folder the defaults are under: the operator token (.data/operator-token), the directory
   * store (.data/builds) and a remote's dist (<folder>/dist). The monorepo's root under
   * `npm run release`, the team's checkout in its CI (which names --dist and SG_BUILD_STORE).
   */
  readonly workDir: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly now?: () => Date;
}

const OPTIONS = {
  json: { type: 'boolean' },
  dist: { type: 'string' },
  reason: { type: 'string' },
  percent: { type: 'string' },
  to: { type: 'string' },
  role: { type: 'string' },
  name: { type: 'string' },
  days: { type: 'string' },
  cascade: { type: 'string' },
  ...ROLLOUT_OPTIONS,
} as const;

type ParsedArgs = CommandLine<typeof OPTIONS>;

/** Runs one command line; resolves with the exit code. */
export async function runReleaseTool(argv: readonly string[], context: ToolContext): Promise<number> {
  try {
    return await run(parseCommandLine(argv, OPTIONS), context);
  } catch (error) {
    if (error instanceof UsageError) {
      context.err(`release: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof Refusal) {
      context.err(`release: refused: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

async function run(args: ParsedArgs, context: ToolContext): Promise<number> {
  const { env, out } = context;
  if (args.command === '' || args.command === 'help') {
    out(USAGE);
    return args.command === '' ? 2 : 0;
  }
  // Not silently ignored: `release … --wait` must not look as if it waited.
  const rolloutOnly = Object.keys(ROLLOUT_OPTIONS).find((name) => name in args.values);
  if (args.command !== 'rollout' && rolloutOnly !== undefined) throw new UsageError(`--${rolloutOnly} is for rollout`);
  // A team's CI holds a token scoped to its remote; the operator's is the local default.
  const token = env.SG_RELEASE_TOKEN || env.OPERATOR_TOKEN || readOrCreateOperatorToken(context.workDir);
  const api = new ReleaseApi(env.SG_RELEASE_API || 'http://127.0.0.1:3004', token, undefined, channelFrom(env));
  const hostUrl = env.SG_HOST_URL || 'http://localhost:3000';
  const reason = args.values.reason ?? '';
  if (args.command === 'token') return tokenCommand(args, api, out, reason);
  if (args.command === 'rollout')
    return rolloutCommand(args.positionals, args.values, {
      api,
      env,
      hostUrl,
      out,
      err: context.err,
      now: context.now ?? (() => new Date()),
    });
  const remote = remoteNamed(args.positionals[0]);

  const act = async (request: Omit<ActionRequest, 'expectedRevision' | 'reason'>, state?: RemoteState) => {
    // The revision read here is the one the API compares: if someone else moves the pointer in
    // between, this action is refused (409) rather than silently undoing theirs.
    const waitMs = stateWaitMs(env); // read before anything is changed
    const expectedRevision = (state ?? (await api.remote(remote.name))).revision;
    const result = await api.act(remote.name, { ...request, expectedRevision, reason });
    const served = await api.waitUntilServed(result.state, { waitMs });
    const pointer = result.pointer;
    if (args.values.json) out(JSON.stringify({ remote: remote.name, ...result, served: served.served }));
    else if (pointer === null)
      out(
        `${remote.name}: detached (revision ${result.revision}${servedWords(result.state, served.served)}): pages get its image build`,
      );
    else
      out(
        `${remote.name}: live ${pointer.live}` +
          (pointer.canary === null ? '' : `, canary ${pointer.canary} at ${pointer.canaryPercent} %`) +
          ` (revision ${result.revision}${servedWords(result.state, served.served)})`,
      );
    if (served.served) return 0;
    context.err(notServedWords(served));
    return NOT_SERVED_EXIT;
  };

  switch (args.command) {
    case 'publish': {
      expectArgs(args, 1);
      return publish(remote, args, context, api);
    }
    case 'release':
    case 'canary': {
      expectArgs(args, 2);
      const buildId = buildIdArg(args.positionals[1]);
      let percent: number | undefined;
      if (args.command === 'canary') {
        const given = args.values.percent;
        if (given === undefined || !/^[0-9]{1,3}$/.test(given) || Number(given) < 1 || Number(given) > 100)
          throw new UsageError('canary needs --percent <1-100>');
        percent = Number(given);
      }
      const state = await api.remote(remote.name);
      await checkContract(remote.name, buildId, state, hostUrl);
      return act({ action: args.command, buildId, ...(percent === undefined ? {} : { percent }) }, state);
    }
    case 'promote':
    case 'abort':
    case 'detach':
      expectArgs(args, 1);
      return act({ action: args.command });
    case 'rollback': {
      expectArgs(args, 1);
      const to = args.values.to;
      return act({ action: 'rollback', ...(to === undefined ? {} : { buildId: buildIdArg(to, '--to build id') }) });
    }
    case 'history': {
      expectArgs(args, 1);
      const state = await api.remote(remote.name);
      if (args.values.json) {
        out(JSON.stringify(state));
        return 0;
      }
      const pointer = state.pointer;
      if (state.lock) out(`LOCKED by ${state.lock.lockedBy} since ${state.lock.lockedAt}: ${state.lock.reason}`);
      out(
        pointer === null
          ? `${remote.name}: no pointer (pages get its image build); revision ${state.revision}`
          : `${remote.name}: live ${pointer.live}` +
              (pointer.canary === null ? '' : `, canary ${pointer.canary} at ${pointer.canaryPercent} %`) +
              `; revision ${pointer.revision}, ${pointer.updatedAt}`,
      );
      const rows = state.history.map((entry) => [
        String(entry.revision),
        entry.at,
        entry.action,
        entry.buildId ?? '',
        entry.previousLive ?? '',
        entry.action === 'canary' ? `${entry.canaryPercent} %` : '',
        entry.actor,
        entry.reason,
      ]);
      for (const line of formatTable([['rev', 'at', 'action', 'build', 'was live', 'canary', 'by', 'reason'], ...rows]))
        out(line);
      return 0;
    }
    case 'preview': {
      expectArgs(args, 2);
      const buildId = buildIdArg(args.positionals[1]);
      const state = await api.remote(remote.name);
      if (!state.builds.some((build) => build.buildId === buildId && build.purgedAt === null))
        throw new Refusal(`build ${buildId} of ${remote.name} is not published (or was purged): publish it first`);
      const page = `${hostUrl.replace(/\/$/, '')}/api/v1/releases/preview`;
      out(`To see ${remote.name} build ${buildId} in your own browser only (8 hours, or until you stop it):`);
      out(`  1. open ${page}`);
      out(`  2. enter remote "${remote.name}", build id "${buildId}" and a deployer token of ${remote.name}`);
      out(`     (SG_RELEASE_TOKEN; or the operator's: OPERATOR_TOKEN, .data/operator-token)`);
      out('  3. open the site in that browser; "Stop preview" on the same page ends it.');
      return 0;
    }
    case 'lock':
    case 'unlock': {
      expectArgs(args, 1);
      if (reason.trim() === '') throw new UsageError(`${args.command} needs --reason <text>`);
      const { lock } = await api.setLock(remote.name, args.command, reason);
      if (args.values.json) out(JSON.stringify({ remote: remote.name, lock }));
      else out(lock ? `${remote.name}: locked (${lock.reason})` : `${remote.name}: unlocked`);
      return 0;
    }
    case 'audit': {
      expectArgs(args, 1);
      const entries = await api.audit(remote.name);
      if (args.values.json) {
        out(JSON.stringify(entries));
        return 0;
      }
      const rows = entries.map((entry) => [
        entry.at,
        entry.action,
        `${entry.tokenName} (${entry.tokenId})`,
        entry.channel,
        entry.fromState ?? '',
        entry.toState ?? '',
        entry.reason,
      ]);
      for (const line of formatTable([['at', 'action', 'by', 'via', 'from', 'to', 'reason'], ...rows])) out(line);
      return 0;
    }
    default:
      throw new UsageError(`unknown command "${args.command}"`);
  }
}

/** `token create|list|revoke`: an admin's (the operator's, or an admin token of the remote). */
async function tokenCommand(args: ParsedArgs, api: ReleaseApi, out: (line: string) => void, reason: string) {
  const [sub, target] = args.positionals;
  expectArgs(args, 2);
  switch (sub) {
    case 'create': {
      const remote = remoteNamed(target);
      const role = args.values.role ?? '';
      const name = args.values.name ?? '';
      const days = args.values.days ?? '90';
      if (!ROLES.includes(role as Role)) throw new UsageError(`token create needs --role ${ROLES.join('|')}`);
      if (name.trim() === '') throw new UsageError('token create needs --name <text>');
      if (!/^[0-9]{1,3}$/.test(days) || Number(days) < 1 || Number(days) > 365)
        throw new UsageError('--days must be from 1 to 365');
      const created = await api.createToken({ remote: remote.name, role, name, expiresInDays: Number(days), reason });
      if (args.values.json) out(JSON.stringify(created));
      else {
        out(
          `${created.role} token "${created.name}" for ${created.remote} (${created.environment}), id ${created.id},`,
        );
        out(`valid until ${created.expiresAt}. It is shown only now; store it as your CI's SG_RELEASE_TOKEN:`);
        out(created.token);
      }
      return 0;
    }
    case 'list': {
      const tokens = await api.tokens(remoteNamed(target).name);
      if (args.values.json) out(JSON.stringify(tokens));
      else
        for (const line of formatTable([
          ['id', 'name', 'role', 'expires', 'revoked', 'created by'],
          ...tokens.map((t) => [t.id, t.name, t.role, t.expiresAt, t.revokedAt ?? '', t.createdBy]),
        ]))
          out(line);
      return 0;
    }
    case 'revoke': {
      if (target === undefined || !/^[0-9a-f]{24}$/.test(target)) throw new UsageError('token revoke needs a token id');
      const cascade = args.values.cascade ?? 'yes';
      if (cascade !== 'yes' && cascade !== 'no') throw new UsageError('--cascade must be yes or no');
      const revoked = await api.revokeToken(target, reason, cascade === 'yes');
      out(
        args.values.json
          ? JSON.stringify(revoked)
          : [
              `token "${revoked.name}" (${revoked.id}) revoked at ${revoked.revokedAt ?? ''}`,
              // The tokens it created end with it (docs/access.md).
              ...revoked.alsoRevoked.map((other) => `  and "${other.name}" (${other.id}), which it created`),
              ...revoked.reattached.map((other) => `  kept "${other.name}" (${other.id}), which it created`),
            ].join('\n'),
      );
      return 0;
    }
    default:
      throw new UsageError('token needs create, list or revoke');
  }
}

async function publish(remote: RemoteApp, args: ParsedArgs, context: ToolContext, api: ReleaseApi): Promise<number> {
  const dist = path.resolve(args.values.dist ?? path.join(context.workDir, remote.dir, 'dist'));
  const { contractMajor, manifest } = checkDist(dist);
  const content = computeBuild(dist);
  // The trusted side's hashes, recorded with the build: pages check every file against them.
  const integrity = buildIntegrity(content);
  const store = openBuildStore(context.workDir, context.env);
  // Files first, then the registration: a registered build always has its files in the store.
  const started = performance.now();
  const stored = await store.put(remote.name, content, dist);
  const seconds = (performance.now() - started) / 1000;
  // Checked, not assumed: only a build whose manifest (written last) is there gets registered.
  if (!(await store.isPresent(remote.name, content.buildId)))
    throw new Refusal(`build ${content.buildId} is not complete in ${store.location}: publish again`);
  const { created } = await api.registerBuild({
    remote: remote.name,
    buildId: content.buildId,
    contractMajor,
    files: content.files.length,
    bytes: content.bytes,
    integrity,
    // Entry and first-screen bytes, shared versions: what the console compares builds by.
    ...buildFootprint(dist, manifest),
  });
  let purged: string[] = [];
  try {
    purged = await applyRetention(remote.name, api, store, context.now?.() ?? new Date());
  } catch (error) {
    // The build is published; retention runs again at the next publish.
    if (!(error instanceof Refusal)) throw error;
    context.err(`release: published, but old builds were not purged: ${error.message}`);
  }
  const summary = {
    remote: remote.name,
    buildId: content.buildId,
    contractMajor,
    files: content.files.length,
    bytes: content.bytes,
    copied: stored.written,
    store: store.location,
    uploaded: { files: stored.files, bytes: stored.bytes, seconds: Number(seconds.toFixed(3)) },
    registered: created ? 'created' : 'existing',
    purged,
  };
  if (args.values.json) context.out(JSON.stringify(summary));
  else {
    context.err(
      `${remote.name}: build ${content.buildId} (contract major ${contractMajor}, ${content.files.length} files, ` +
        `${content.bytes} bytes) ${created ? 'published' : 'was already published'}` +
        (stored.written ? ` (sent ${stored.bytes} bytes to ${store.location} in ${seconds.toFixed(1)} s)` : '') +
        (purged.length > 0 ? `; purged ${purged.join(', ')}` : ''),
    );
    context.out(content.buildId);
  }
  return 0;
}

/** Purges what the retention policy does not keep: in the API first (so nothing points at it), then from the store. */
async function applyRetention(remote: string, api: ReleaseApi, store: BuildStore, now: Date): Promise<string[]> {
  const state = await api.remote(remote, 1000);
  const alive = state.builds.filter((build) => build.purgedAt === null);
  const purge = buildsToPurge({ pointer: state.pointer, builds: alive, history: state.history, now });
  const purged = purge.length > 0 ? await api.purge(remote, purge) : [];
  // Builds purged earlier whose files a failed run left behind, too.
  const stale = state.builds.filter((build) => build.purgedAt !== null).map((build) => build.buildId);
  for (const buildId of [...purged, ...stale]) await store.delete(remote, buildId);
  return purged;
}
