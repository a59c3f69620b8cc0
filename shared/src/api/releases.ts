// The release endpoints' wire contract (docs/releases.md): what the API answers and the release
// tool reads; api/openapi.yaml documents the same shapes.

/** What moves a pointer; `detach` deletes it. */
export const RELEASE_ACTIONS = ['release', 'canary', 'promote', 'abort', 'rollback', 'detach'] as const;
export type ReleaseAction = (typeof RELEASE_ACTIONS)[number];

/** A published build of a remote: the same for every environment. */
export interface PublishedBuild {
  readonly remote: string;
  readonly buildId: string;
  readonly contractMajor: number;
  readonly files: number;
  readonly bytes: number;
  readonly publishedAt: string;
  readonly publishedBy: string;
  /** Set once its files left the store: it can never be pointed at again. */
  readonly purgedAt: string | null;
  /** Bytes of its `remoteEntry.js`; null: published before they were recorded (never 0 for "unknown"). */
  readonly entryBytes: number | null;
  /**
   * Bytes a page loads from it to show its screen: the entry and the exposed modules' sync JS and
   * CSS (the shared libraries come from the host). Null: not recorded.
   */
  readonly firstScreenBytes: number | null;
  /** The shared libraries' versions it was built with, by package name; null: not recorded. */
  readonly sharedVersions: Readonly<Record<string, string>> | null;
}

/** What the release tool reads from a build's `mf-manifest.json` and sends with its registration. */
export type BuildFootprint = Pick<PublishedBuild, 'entryBytes' | 'firstScreenBytes' | 'sharedVersions'>;

/** Which build of a remote pages get in one environment. */
export interface ReleasePointer {
  readonly live: string;
  readonly canary: string | null;
  readonly canaryPercent: number;
  readonly revision: number;
  readonly updatedAt: string;
}

/** One move of a pointer, with who (the acting token's name, as the API authenticated it) and why. */
export interface ReleaseHistoryEntry {
  readonly revision: number;
  readonly action: ReleaseAction;
  readonly buildId: string | null;
  readonly previousLive: string | null;
  readonly canaryPercent: number;
  readonly contractMajor: number | null;
  readonly actor: string;
  readonly reason: string;
  readonly at: string;
}

/** `POST /v1/releases/remotes/{remote}/actions`: compare-and-swap on `expectedRevision`. */
export interface ReleaseActionRequest {
  readonly action: ReleaseAction;
  readonly buildId?: string;
  readonly percent?: number;
  readonly expectedRevision: number;
  readonly reason: string;
}

/**
 * What a pointer change's answer says of the release state it produced (docs/releases.md,
 * "Release state"): committed, and whether the build store has it, so that new pages get it.
 */
export interface ReleaseStateAnswer {
  readonly serial: number;
  readonly publishedSerial: number;
  /** True once the store has this state or a later one: new pages get it within 2 s. */
  readonly published: boolean;
  /** Where states are written (a folder, `s3://…`); null when the API writes none (composers ask it). */
  readonly store: string | null;
  /** Why it is not written yet (the store refused); the API tries again every 2 s. */
  readonly error?: string;
}

/** Where an environment's release state stands: the latest recorded, and the latest the store has. */
export interface ReleaseStateStatus {
  readonly serial: number;
  readonly publishedSerial: number;
  readonly publishedKeyId: string | null;
  readonly publishedAt: string | null;
  readonly lastError: { readonly message: string; readonly at: string } | null;
  /** The last time the store held other objects than those written, and why (repaired since, or being). */
  readonly drift: { readonly reason: string; readonly at: string } | null;
}

/** `GET /v1/releases/state`: the status, with the environment and where states are written (null: none). */
export interface ReleaseStateReport extends ReleaseStateStatus {
  readonly environment: string;
  readonly store: string | null;
}

/** A frozen pointer: release, canary, promote and detach are refused while it holds (docs/access.md). */
export interface ReleaseLock {
  readonly reason: string;
  readonly lockedBy: string;
  readonly lockedAt: string;
}
