import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONTRACT_VERSION } from '@special-gift/shared/version';
import type { Compiler } from 'webpack';

/** What the host's `build-info.json` says: the release tool refuses remotes of another contract major. */
export interface BuildInfo {
  readonly contractMajor: number;
  /** `@special-gift/shared`'s package version, whose major moves with CONTRACT_VERSION. */
  readonly contractVersion: string;
  /**
   * The oldest contract a remote may have been built against for this host (the rollouts' contract
   * gate, docs/rollouts.md): `<major>.0.0` until the host starts depending on something remotes
   * gained in a later minor, when its build raises it.
   */
  readonly minRemoteContract: string;
}

export interface BuildInfoOptions {
  /** `x.y.z` of the contract major; `<major>.0.0` when not given. */
  readonly minRemoteContract?: string;
}

export function buildInfo({ minRemoteContract = `${CONTRACT_VERSION}.0.0` }: BuildInfoOptions = {}): BuildInfo {
  const sharedPackage = path.resolve(__dirname, '..', '..', '..', 'shared', 'package.json');
  const { version } = JSON.parse(readFileSync(sharedPackage, 'utf8')) as { version: string };
  const [, major, minor, patch] = /^([0-9]+)\.([0-9]+)\.([0-9]+)$/.exec(minRemoteContract) ?? [];
  if (Number(major) !== CONTRACT_VERSION)
    throw new Error(
      `minRemoteContract must be x.y.z of the contract major ${CONTRACT_VERSION}, not "${minRemoteContract}".`,
    );
  // Above the host's own contract, no remote built against what the host ships could satisfy it.
  const [, ownMinor = 0, ownPatch = 0] = version.split('.').map(Number);
  if (Number(minor) > ownMinor || (Number(minor) === ownMinor && Number(patch) > ownPatch))
    throw new Error(`minRemoteContract ${minRemoteContract} is above the host's own contract ${version}.`);
  return { contractMajor: CONTRACT_VERSION, contractVersion: version, minRemoteContract };
}

/**
 * Emits `build-info.json` at the root of the host's build: served beside its index, it tells the
 * release tool (`npm run release`) which contract major the live host speaks, before a remote of
 * another one is released to it (docs/releases.md), and the rollouts' contract gate which remotes'
 * contracts it accepts (docs/rollouts.md).
 */
export class BuildInfoPlugin {
  constructor(private readonly options: BuildInfoOptions = {}) {}

  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('BuildInfoPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'BuildInfoPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () =>
          compilation.emitAsset(
            'build-info.json',
            new sources.RawSource(`${JSON.stringify(buildInfo(this.options))}\n`),
          ),
      );
    });
  }
}
