// The contract gate (docs/rollouts.md, "The gates"): whether a remote build and the live host can
// work together, before any user gets the build. Both sides are versions of @special-gift/shared:
// the host's build-info.json says which it provides (contractVersion) and the oldest it accepts from
// a remote (minRemoteContract, `<major>.0.0` when absent); the build's is the one it was built with,
// recorded at publish (release_builds.shared_versions).
import semver from 'semver';

export interface HostContract {
  readonly contractMajor: number;
  readonly contractVersion: string;
  readonly minRemoteContract: string;
}

export interface BuildContract {
  readonly contractMajor: number;
  /** `shared_versions['@special-gift/shared']`; null: not recorded (published before it was). */
  readonly sharedVersion: string | null;
}

export type ContractCheck =
  { readonly ok: true; readonly reason: string } | { readonly ok: false; readonly reason: string };

/** The host's build-info.json as served, or a sentence saying why it cannot be used. */
export function parseHostBuildInfo(value: unknown): HostContract | string {
  if (typeof value !== 'object' || value === null) return "the host's build-info.json is not a JSON object";
  const { contractMajor, contractVersion, minRemoteContract } = value as Record<string, unknown>;
  if (typeof contractMajor !== 'number' || !Number.isInteger(contractMajor) || contractMajor < 0)
    return "the host's build-info.json has no contractMajor";
  if (typeof contractVersion !== 'string' || semver.valid(contractVersion) === null)
    return "the host's build-info.json has no semver contractVersion";
  const minimum = minRemoteContract ?? `${contractMajor}.0.0`;
  if (typeof minimum !== 'string' || semver.valid(minimum) === null)
    return "the host's build-info.json minRemoteContract is not a semver version";
  return { contractMajor, contractVersion, minRemoteContract: minimum };
}

export function contractCompatible(host: HostContract, build: BuildContract): ContractCheck {
  if (build.sharedVersion === null)
    return { ok: false, reason: 'The build has no contract version recorded: publish it again.' };
  const version = semver.valid(build.sharedVersion);
  if (version === null)
    return { ok: false, reason: `The build's contract version "${build.sharedVersion}" is not a semver version.` };
  if (build.contractMajor !== host.contractMajor || semver.major(version) !== host.contractMajor)
    return {
      ok: false,
      reason: `The build is for contract ${version} (major ${build.contractMajor}); the live host provides major ${host.contractMajor}.`,
    };
  if (semver.gt(version, host.contractVersion))
    return {
      ok: false,
      reason: `The build needs contract ${version}; the live host provides only ${host.contractVersion}.`,
    };
  if (semver.lt(version, host.minRemoteContract))
    return {
      ok: false,
      reason: `The build provides contract ${version}; the live host needs at least ${host.minRemoteContract} of a remote.`,
    };
  return {
    ok: true,
    reason: `The build's contract ${version} is within the live host's ${host.minRemoteContract} – ${host.contractVersion}.`,
  };
}
