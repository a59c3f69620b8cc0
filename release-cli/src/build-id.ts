import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sriOf } from './sri';

export interface BuildFile {
  /** Relative to the build's root, with `/` separators. */
  readonly path: string;
  readonly sha256: string;
  /** Its Subresource Integrity value (sha384), from the same read as `sha256`. */
  readonly sri: string;
  readonly bytes: number;
}

export interface BuildContent {
  /** First 12 hex characters of the content hash: the same files give the same id, so publishing is idempotent. */
  readonly buildId: string;
  readonly files: readonly BuildFile[];
  readonly bytes: number;
}

/** Source maps are never published: they are for the team's error tracker, not for browsers. */
export function isPublished(relativePath: string): boolean {
  return !relativePath.endsWith('.map');
}

/** Every published file under `root`, sorted by path (code-unit order, the same on every machine). */
export function listBuildFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), relative);
      else if (entry.isFile() && isPublished(relative)) found.push(relative);
    }
  };
  walk(root, '');
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The build's id: SHA-256 over each file's `<relative path>\0<SHA-256 hex of its bytes>\n`, in path
 * order; the first 12 hex characters (48 bits: a collision among a remote's builds is not a
 * practical worry, and the API refuses one with other metadata anyway).
 */
export function computeBuild(root: string): BuildContent {
  const total = createHash('sha256');
  let bytes = 0;
  const files = listBuildFiles(root).map((relative) => {
    const content = readFileSync(path.join(root, ...relative.split('/')));
    const sha256 = createHash('sha256').update(content).digest('hex');
    total.update(`${relative}\0${sha256}\n`);
    bytes += content.length;
    return { path: relative, sha256, sri: sriOf(content), bytes: content.length };
  });
  return { buildId: total.digest('hex').slice(0, 12), files, bytes };
}
