/**
 * Which builds of a remote the store keeps (docs/releases.md, "Retention"), as one pure function so
 * the policy is in one place and tested. Kept:
 * - the live and the canary build: pages are loading them now;
 * - the last {@link KEEP_LAST_LIVE} builds that were live: rollback targets;
 * - every build that was live within {@link KEEP_LIVE_DAYS} days: a page opened then (a phone's tab
 *   can stay open for days) still loads chunks of the build it started with;
 * - every build published within {@link KEEP_LIVE_DAYS} days that was never live: it is waiting to
 *   be previewed or released.
 * Everything else is purged.
 */
export const KEEP_LAST_LIVE = 10;
export const KEEP_LIVE_DAYS = 7;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface RetentionInput {
  readonly pointer: { readonly live: string; readonly canary: string | null } | null;
  /** The remote's builds not yet purged. */
  readonly builds: ReadonlyArray<{ readonly buildId: string; readonly publishedAt: string }>;
  /** The pointer's history, in any order (sorted here by revision). */
  readonly history: ReadonlyArray<{
    readonly revision: number;
    readonly action: string;
    readonly buildId: string | null;
    readonly at: string;
  }>;
  readonly now: Date;
}

/** The actions after which the history row's build is the live one. */
const MAKES_LIVE = new Set(['release', 'promote', 'rollback']);

export function buildsToPurge({ pointer, builds, history, now }: RetentionInput): string[] {
  const keep = new Set<string>();
  if (pointer) {
    keep.add(pointer.live);
    if (pointer.canary !== null) keep.add(pointer.canary);
  }
  const since = now.getTime() - KEEP_LIVE_DAYS * DAY_MS;
  const ascending = [...history].sort((a, b) => a.revision - b.revision);
  // Each stretch during which one build was live: from its row to the next row that changed the live build.
  const everLive = new Set<string>();
  const liveOrder: string[] = [];
  for (let index = 0; index < ascending.length; index += 1) {
    const entry = ascending[index];
    if (!entry || !MAKES_LIVE.has(entry.action) || entry.buildId === null) continue;
    everLive.add(entry.buildId);
    liveOrder.push(entry.buildId);
    const end = ascending.slice(index + 1).find((later) => MAKES_LIVE.has(later.action) || later.action === 'detach');
    const liveUntil = end ? Date.parse(end.at) : now.getTime();
    if (liveUntil >= since) keep.add(entry.buildId);
  }
  const lastLive: string[] = [];
  for (const buildId of liveOrder.reverse()) {
    if (lastLive.length >= KEEP_LAST_LIVE) break;
    if (!lastLive.includes(buildId)) lastLive.push(buildId);
  }
  for (const buildId of lastLive) keep.add(buildId);
  for (const build of builds) {
    if (!everLive.has(build.buildId) && Date.parse(build.publishedAt) >= since) keep.add(build.buildId);
  }
  return builds
    .map((build) => build.buildId)
    .filter((buildId) => !keep.has(buildId))
    .sort();
}
