import { cpSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { computeBuild, listBuildFiles, type BuildContent } from '../build-id';
import { changedWhilePublishing, type BuildStore, type StoredBuild } from './store-interface';
import { Refusal } from '../integrity';
import { parseS3Location } from '@special-gift/shared/builds';
import { openS3BuildStore } from './s3-store';

type Env = Readonly<Record<string, string | undefined>>;

/** `SG_BUILD_STORE`: `s3://bucket/prefix` for object storage, else a directory (`<root>/.data/builds` by default: the checkout, or the folder the tool runs in). */
export function openBuildStore(root: string, env: Env): BuildStore {
  const s3 = parseS3Location(env.SG_BUILD_STORE ?? '');
  return s3 ? openS3BuildStore(s3, env) : new DirectoryBuildStore(buildStorePath(root, env));
}

/** The directory store's path; `npm run up` serves it. Object storage is for the stack and production. */
export function buildStorePath(root: string, env: Env): string {
  if (parseS3Location(env.SG_BUILD_STORE ?? ''))
    throw new Refusal(
      `SG_BUILD_STORE=${env.SG_BUILD_STORE}: npm run up serves builds from a directory; ` +
        'an s3:// store is served by the compose stack (docs/releases.md, "Object storage")',
    );
  return env.SG_BUILD_STORE ? path.resolve(env.SG_BUILD_STORE) : path.join(root, '.data', 'builds');
}

export function buildDir(store: string, remote: string, buildId: string): string {
  return path.join(store, remote, buildId);
}

export class DirectoryBuildStore implements BuildStore {
  constructor(readonly location: string) {}

  /**
   * Copies a build into `<store>/<remote>/<buildId>/` (every file but source maps), atomically: into
   * a temporary folder beside it, then one rename, so the remote's origin never serves half a build
   * (the rename plays the part of the S3 store's manifest, written last).
   */
  // async: a refusal rejects, like the S3 store's, rather than throwing.
  async put(remote: string, content: BuildContent, dist: string): Promise<StoredBuild> {
    const { buildId } = content;
    const target = buildDir(this.location, remote, buildId);
    const nothing = { written: false, files: 0, bytes: 0 };
    if (existsSync(target)) return nothing;
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
      if (computeBuild(temporary).buildId !== buildId) throw changedWhilePublishing(dist);
      try {
        renameSync(temporary, target);
      } catch (error) {
        // Another publisher of the same build got there first: its copy is the same content.
        if (existsSync(target)) return nothing;
        throw error;
      }
      return { written: true, files: content.files.length, bytes: content.bytes };
    } finally {
      rmSync(temporary, { recursive: true, force: true });
    }
  }

  isPresent(remote: string, buildId: string): Promise<boolean> {
    return Promise.resolve(existsSync(buildDir(this.location, remote, buildId)));
  }

  /** Renamed aside first, so the build's folder disappears in one step. */
  async delete(remote: string, buildId: string): Promise<void> {
    const target = buildDir(this.location, remote, buildId);
    if (!existsSync(target)) return;
    const doomed = path.join(path.dirname(target), `.purged-${buildId}-${process.pid}-${Date.now()}`);
    renameSync(target, doomed);
    rmSync(doomed, { recursive: true, force: true });
  }
}
