// The contract gate's I/O (docs/rollouts.md, "The gates"): the live host's build-info.json, and the
// candidate's recorded contract and integrity. The checks themselves are pure (rollouts/contract.ts).
import type { Queryable } from '../db/database';
import { contractCompatible, parseHostBuildInfo, type HostContract } from '../rollouts';

/** How long the host's build-info.json may take: a hung host must not hold the leader's tick. */
export const HOST_TIMEOUT_MS = 5_000;

/** Reads a URL's JSON body; throws on a network error, a timeout or a status other than 2xx. */
export type FetchJson = (url: string) => Promise<unknown>;

export const fetchJson: FetchJson = async (url) => {
  const response = await fetch(url, { signal: AbortSignal.timeout(HOST_TIMEOUT_MS), redirect: 'error' });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return (await response.json()) as unknown;
};

/** The live host's contract, or why it cannot be read (the gate then waits). */
export async function readHostContract(fetch: FetchJson, hostUrl: string | undefined): Promise<HostContract | string> {
  if (hostUrl === undefined) return "ROLLOUT_HOST_URL is not set on the API: the live host's contract cannot be read.";
  const url = `${hostUrl.replace(/\/+$/, '')}/build-info.json`;
  try {
    return parseHostBuildInfo(await fetch(url));
  } catch (error) {
    return `The live host's ${url} cannot be read: ${error instanceof Error ? error.message : String(error)}.`;
  }
}

interface BuildFacts {
  readonly contractMajor: number;
  readonly sharedVersion: string | null;
  readonly integrity: Readonly<Record<string, string>> | null;
  readonly purged: boolean;
}

export async function readBuildFacts(db: Queryable, remote: string, buildId: string): Promise<BuildFacts | null> {
  const found = await db.query<{
    contract_major: number;
    shared: string | null;
    integrity: Record<string, string> | null;
    purged_at: unknown;
  }>(
    `SELECT contract_major, shared_versions->>'@special-gift/shared' AS shared, integrity, purged_at
       FROM release_builds WHERE remote = $1 AND build_id = $2`,
    [remote, buildId],
  );
  const row = found.rows[0];
  if (!row) return null;
  return {
    contractMajor: row.contract_major,
    sharedVersion: row.shared,
    integrity: row.integrity,
    purged: row.purged_at !== null,
  };
}

export type Verdict = {
  readonly ok: boolean;
  readonly reason: string;
  readonly detail: Readonly<Record<string, unknown>>;
};

export function checkContract(host: HostContract, build: BuildFacts): Verdict {
  const check = contractCompatible(host, build);
  return {
    ok: check.ok,
    reason: check.reason,
    detail: { host, build: { contractMajor: build.contractMajor, sharedVersion: build.sharedVersion } },
  };
}

/**
 * The integrity gate's pre-check in the API: the build's hashes are recorded, name its entry, and it
 * is not purged. The gate runner then fetches every file from where browsers load it.
 */
export function precheckIntegrity(build: BuildFacts): Verdict {
  const entries = build.integrity === null ? 0 : Object.keys(build.integrity).length;
  const detail = { files: entries };
  if (build.purged) return { ok: false, reason: 'The build was purged.', detail };
  if (build.integrity === null)
    return { ok: false, reason: 'The build has no integrity recorded: publish it again.', detail };
  if (entries === 0 || build.integrity['remoteEntry.js'] === undefined)
    return { ok: false, reason: "The build's recorded integrity does not hash remoteEntry.js.", detail };
  return { ok: true, reason: `${entries} files hashed, remoteEntry.js among them.`, detail };
}
