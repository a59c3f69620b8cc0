// How the console words numbers, times and the change of a build against the live one.
import type { PublishedBuild } from '@special-gift/shared/api';

const NUMBER = new Intl.NumberFormat('en');

export const NOT_RECORDED = 'not recorded';

export const bytes = (value: number | null) => (value === null ? NOT_RECORDED : `${NUMBER.format(value)} B`);

export const time = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

export const count = (value: number) => NUMBER.format(value);

/** `+1,024 B`, `−512 B`, `no change`; "not recorded" when either side was published before it was. */
export function bytesChange(value: number | null, live: number | null): string {
  if (value === null || live === null) return NOT_RECORDED;
  const change = value - live;
  if (change === 0) return 'no change';
  return `${change > 0 ? '+' : '−'}${NUMBER.format(Math.abs(change))} B`;
}

/** The shared libraries whose version differs from the live build's: `react 19.3.1 → 19.4.0`, added, removed. */
export function sharedChange(build: PublishedBuild, live: PublishedBuild): string {
  const mine = build.sharedVersions;
  const theirs = live.sharedVersions;
  if (mine === null || theirs === null) return NOT_RECORDED;
  const names = [...new Set([...Object.keys(theirs), ...Object.keys(mine)])].sort();
  const changes = names.flatMap((name) => {
    const was = theirs[name];
    const now = mine[name];
    if (was === now) return [];
    if (was === undefined) return [`${name} ${now ?? ''} added`];
    if (now === undefined) return [`${name} ${was} removed`];
    return [`${name} ${was} → ${now}`];
  });
  return changes.length === 0 ? 'same versions' : changes.join(', ');
}

export const sharedList = (build: PublishedBuild) =>
  build.sharedVersions === null
    ? NOT_RECORDED
    : Object.entries(build.sharedVersions)
        // jsonb keeps keys in its own order (shortest first): by name here.
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, version]) => `${name} ${version}`)
        .join(', ') || 'none';
