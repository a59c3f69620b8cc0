import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A refusal the release tool explains to its user (exit code 1), as opposed to a usage error or a bug. */
export class Refusal extends Error {
  override readonly name = 'Refusal';
}

/** The languages every remote ships prerendered screens and texts for. */
export const LANGUAGES = ['en', 'fr', 'ar'] as const;

interface AssetLists {
  readonly js?: { readonly sync?: readonly string[]; readonly async?: readonly string[] };
  readonly css?: { readonly sync?: readonly string[]; readonly async?: readonly string[] };
}

/** The parts of module federation's `mf-manifest.json` that name files, and the shared libraries' versions. */
export interface FederationManifest {
  readonly metaData?: { readonly remoteEntry?: { readonly name?: string; readonly path?: string } };
  readonly shared?: ReadonlyArray<{ readonly name?: string; readonly version?: string; readonly assets?: AssetLists }>;
  readonly exposes?: ReadonlyArray<{ readonly assets?: AssetLists }>;
}

function assetFiles(assets: AssetLists | undefined): string[] {
  return [
    ...(assets?.js?.sync ?? []),
    ...(assets?.js?.async ?? []),
    ...(assets?.css?.sync ?? []),
    ...(assets?.css?.async ?? []),
  ];
}

/** The entry's path in the build, as the manifest names it. */
export function entryPath(manifest: FederationManifest): string {
  const entry = manifest.metaData?.remoteEntry;
  if (!entry?.name) throw new Refusal('mf-manifest.json names no remoteEntry');
  return entry.path ? path.posix.join(entry.path, entry.name) : entry.name;
}

/** Every file the manifest says the remote loads: its entry, and the exposed and shared modules' chunks. */
export function manifestFiles(manifest: FederationManifest): string[] {
  const files = [
    entryPath(manifest),
    ...(manifest.exposes ?? []).flatMap((expose) => assetFiles(expose.assets)),
    ...(manifest.shared ?? []).flatMap((shared) => assetFiles(shared.assets)),
  ];
  return [...new Set(files)];
}

/** The contract major the build was prerendered for: its one `prerender/v<N>/` folder. */
export function contractMajorOf(dist: string): number {
  const prerender = path.join(dist, 'prerender');
  const folders = existsSync(prerender)
    ? readdirSync(prerender, { withFileTypes: true }).filter((entry) => entry.isDirectory())
    : [];
  const majors = folders.map((entry) => /^v([0-9]{1,6})$/.exec(entry.name)?.[1]).filter((major) => major !== undefined);
  if (majors.length !== 1 || folders.length !== 1)
    throw new Refusal(
      `${prerender} must hold exactly one v<N> folder (the contract major it was built for), found: ${
        folders.map((entry) => entry.name).join(', ') || 'none'
      }`,
    );
  return Number(majors[0]);
}

/**
 * Checks that a remote's `dist/` is complete before it is published, so a half-written or broken
 * build is refused here rather than found by users: every file its federation manifest names, its
 * prerendered screens and its texts. Returns its contract major.
 */
export function checkDist(dist: string): { readonly contractMajor: number; readonly manifest: FederationManifest } {
  const manifestPath = path.join(dist, 'mf-manifest.json');
  if (!existsSync(manifestPath)) throw new Refusal(`missing ${manifestPath}: is this a remote's build?`);
  let manifest: FederationManifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as FederationManifest;
  } catch {
    throw new Refusal(`${manifestPath} is not valid JSON`);
  }
  const contractMajor = contractMajorOf(dist);
  const required = [
    ...manifestFiles(manifest),
    ...LANGUAGES.map((language) => `prerender/v${contractMajor}/${language}.html`),
    ...LANGUAGES.map((language) => `assets/i18n/${language}.json`),
  ];
  for (const file of required) {
    if (!existsSync(path.join(dist, ...file.split('/'))))
      throw new Refusal(
        `the build is incomplete: ${path.join(dist, file)} is missing (named by mf-manifest.json or required of every remote)`,
      );
  }
  return { contractMajor, manifest };
}
