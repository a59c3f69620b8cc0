import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONTRACT_VERSION } from '@special-gift/shared/version';
import type { Compiler } from 'webpack';

/** What the host's `build-info.json` says: the release tool refuses remotes of another contract major. */
export interface BuildInfo {
  readonly contractMajor: number;
  /** `@special-gift/shared`'s package version, whose major moves with CONTRACT_VERSION. */
  readonly contractVersion: string;
}

export function buildInfo(): BuildInfo {
  const sharedPackage = path.resolve(__dirname, '..', '..', '..', 'shared', 'package.json');
  const { version } = JSON.parse(readFileSync(sharedPackage, 'utf8')) as { version: string };
  return { contractMajor: CONTRACT_VERSION, contractVersion: version };
}

/**
 * Emits `build-info.json` at the root of the host's build: served beside its index, it tells the
 * release tool (`npm run release`) which contract major the live host speaks, before a remote of
 * another one is released to it (docs/releases.md).
 */
export class BuildInfoPlugin {
  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('BuildInfoPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'BuildInfoPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => compilation.emitAsset('build-info.json', new sources.RawSource(`${JSON.stringify(buildInfo())}\n`)),
      );
    });
  }
}
