import type { BuildContent } from '../build-id';
import { Refusal } from '../integrity';

/**
 * Where published builds live (docs/releases.md, "The build store"): `<remote>/<buildId>/<file>`,
 * written once, never edited. The release tool only speaks to this interface, so the same publish,
 * retention and checks run against a directory (`npm run up`) and object storage (CI, production).
 */
export interface BuildStore {
  /** For messages: the directory, or `s3://bucket/prefix`. */
  readonly location: string;
  /** Stores a build (idempotent: the same id is the same bytes). Resolves once it is present. */
  put(remote: string, content: BuildContent, dist: string): Promise<StoredBuild>;
  /** Whether the whole build is there: what publish checks before registering it. */
  isPresent(remote: string, buildId: string): Promise<boolean>;
  /** Removes a purged build; nothing to do if it is gone already. */
  delete(remote: string, buildId: string): Promise<void>;
}

export interface StoredBuild {
  /** False: the build was already present, nothing was written. */
  readonly written: boolean;
  /** Files and bytes this call sent (a re-publish after an interrupted one sends what was missing or everything, by backend). */
  readonly files: number;
  readonly bytes: number;
}

export function changedWhilePublishing(dist: string): Refusal {
  return new Refusal(`${dist} changed while it was being published (a build running?): publish again`);
}
