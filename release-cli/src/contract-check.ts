// The release tool's local contract check (docs/releases.md, "What each step checks"): a fast refusal
// before any user gets a build the live host would refuse or could not serve. release, canary and
// rollout run it; for a rollout the API's contract gate stays the authority (docs/rollouts.md).
import semver from 'semver';
import type { RemoteState } from './api-client';
import { Refusal } from './integrity';

/** The package whose version a remote was built against, and a host provides: the contract. */
const CONTRACT_PACKAGE = '@special-gift/shared';

/**
 * The contract of the host that is live, from the `build-info.json` its build emits: its major and
 * its version (absent from a host built before it was recorded: then only the major is checked).
 */
async function liveHostContract(hostUrl: string): Promise<{ major: number; version: string | undefined }> {
  const url = `${hostUrl.replace(/\/$/, '')}/build-info.json`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    throw new Refusal(`cannot read the live host's contract major from ${url} (${String(error)}); set SG_HOST_URL`);
  }
  const body = (await response.json().catch(() => undefined)) as
    { contractMajor?: unknown; contractVersion?: unknown } | undefined;
  if (!response.ok || typeof body?.contractMajor !== 'number')
    throw new Refusal(`${url} answered ${response.status} without a contractMajor: is the host's build current?`);
  const version =
    typeof body.contractVersion === 'string' ? (semver.valid(body.contractVersion) ?? undefined) : undefined;
  return { major: body.contractMajor, version };
}

/** Refuses a build that is not published, or that the live host at `hostUrl` would refuse or could not serve. */
export async function checkContract(remote: string, buildId: string, state: RemoteState, hostUrl: string) {
  const build = state.builds.find((candidate) => candidate.buildId === buildId && candidate.purgedAt === null);
  if (!build) throw new Refusal(`build ${buildId} of ${remote} is not published (or was purged): publish it first`);
  const host = await liveHostContract(hostUrl);
  if (build.contractMajor !== host.major)
    throw new Refusal(
      `build ${buildId} of ${remote} was built for contract major ${build.contractMajor}, but the live host ` +
        `(${hostUrl}) is on contract major ${host.major}: the host would refuse it. Release a host on major ` +
        `${build.contractMajor} first, or rebuild ${remote} against major ${host.major}.`,
    );
  // Within a major, a remote built against a newer minor may use what the live host does not
  // provide yet (the host's shared singleton is what it runs with): refused before any user gets it.
  const needed = semver.valid(build.sharedVersions?.[CONTRACT_PACKAGE] ?? null);
  if (needed !== null && host.version !== undefined && semver.gt(needed, host.version))
    throw new Refusal(
      `build ${buildId} of ${remote} was built against contract ${needed}, newer than the live host's ` +
        `${host.version} (${hostUrl}): it may use what that host does not provide. Release a host built against ` +
        `${needed} or later first, or rebuild ${remote} against ${host.version}.`,
    );
}
