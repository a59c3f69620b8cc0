import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { computeBuild, listBuildFiles } from './build-id';
import { Refusal } from './integrity';

/** `<repo>/.data/builds` unless `SG_BUILD_STORE` says otherwise. */
export function buildStorePath(repoRoot: string, env: Readonly<Record<string, string | undefined>>): string {
  return env.SG_BUILD_STORE ? path.resolve(env.SG_BUILD_STORE) : path.join(repoRoot, '.data', 'builds');
}

export function buildDir(store: string, remote: string, buildId: string): string {
  return path.join(store, remote, buildId);
}

/**
 * Copies a build into `<store>/<remote>/<buildId>/` (every file but source maps), atomically: into
 * a temporary folder beside it, then one rename, so the remote's origin never serves half a build.
 * Already there: nothing to do (same id, same content). Returns whether it copied.
 */
export function storeBuild(store: string, remote: string, buildId: string, dist: string): boolean {
  const target = buildDir(store, remote, buildId);
  if (existsSync(target)) return false;
  const parent = path.dirname(target);
  mkdirSync(parent, { recursive: true });
  const temporary = path.join(parent, `.tmp-${buildId}-${process.pid}-${Date.now()}`);
  try {
    for (const file of listBuildFiles(dist)) {
      const destination = path.join(temporary, ...file.split('/'));
      mkdirSync(path.dirname(destination), { recursive: true });
      cpSync(path.join(dist, ...file.split('/')), destination);
    }
    // The dist folder may have been rebuilt since its id was computed: store only what the id names.
    if (computeBuild(temporary).buildId !== buildId)
      throw new Refusal(`${dist} changed while it was being published (a build running?): publish again`);
    try {
      renameSync(temporary, target);
    } catch (error) {
      // Another publisher of the same build got there first: its copy is the same content.
      if (existsSync(target)) return false;
      throw error;
    }
    return true;
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** Deletes a purged build's files: renamed aside first, so its folder disappears in one step. */
export function deleteBuild(store: string, remote: string, buildId: string): void {
  const target = buildDir(store, remote, buildId);
  if (!existsSync(target)) return;
  const doomed = path.join(path.dirname(target), `.purged-${buildId}-${process.pid}-${Date.now()}`);
  renameSync(target, doomed);
  rmSync(doomed, { recursive: true, force: true });
}
