interface ManifestAssets {
  readonly js?: { readonly sync?: readonly string[]; readonly async?: readonly string[] };
  readonly css?: { readonly sync?: readonly string[]; readonly async?: readonly string[] };
}

/**
 * The code files an `mf-manifest.json` names: the exposed modules' and the shared modules'. Used to
 * tell a replaced build (live-build.ts) and to list a build's files for the offline set.
 */
export function manifestFiles(manifest: unknown): string[] {
  const { exposes = [], shared = [] } = (manifest ?? {}) as {
    exposes?: ReadonlyArray<{ assets?: ManifestAssets }>;
    shared?: ReadonlyArray<{ assets?: ManifestAssets }>;
  };
  const files = new Set<string>();
  for (const { assets } of [...exposes, ...shared])
    for (const kind of [assets?.js, assets?.css])
      for (const file of [...(kind?.sync ?? []), ...(kind?.async ?? [])]) files.add(file);
  return [...files];
}
