import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import type { Chunk, Compilation, Compiler } from 'webpack';
// A chunk without a recorded hash gets the refusal value: a missing hash never means "load without a check".
import { REFUSE_INTEGRITY } from '@special-gift/shared/composition';
import { sriOf } from '../../../release-cli/src/sri';

const NAME = 'ChunkIntegrityPlugin';
/** Replaced, once every chunk's final bytes are known, by the integrity map of the build's chunks. */
const PLACEHOLDER = '"__SG_CHUNK_INTEGRITY__"';

/** The runtime's global holding `{ js: { <chunk id>: <integrity> }, css: {...} }`. */
const GLOBAL = '__webpack_require__.sgIntegrity';

/**
 * Every script and stylesheet webpack's chunk loader creates carries `integrity`: the sha384 of
 * that chunk's final bytes, embedded in the runtime chunk (a remote's `remoteEntry.js`, whose own
 * integrity the page has from the API). So a remote's chunks, its shared modules' included, are
 * checked by the browser against the hashes of the build the team published.
 *
 * Own code rather than `webpack-subresource-integrity`: with module federation, that plugin fails
 * the build ("Asset remoteEntry.js contains unresolved integrity placeholders", its issue #176),
 * because a container's runtime chunk is not the parent of the chunks it loads. Here only runtime
 * chunks carry hashes and only non-runtime chunks are hashed, so there is no order to get wrong.
 */
export class ChunkIntegrityPlugin {
  apply(compiler: Compiler): void {
    const { Compilation: CompilationClass, RuntimeModule, runtime, sources } = compiler.webpack;

    class IntegrityRuntimeModule extends RuntimeModule {
      constructor() {
        super('chunk integrity', RuntimeModule.STAGE_BASIC);
      }
      override generate(): string {
        return `${GLOBAL} = ${PLACEHOLDER};`;
      }
    }

    compiler.hooks.thisCompilation.tap(NAME, (compilation: Compilation) => {
      compilation.hooks.additionalTreeRuntimeRequirements.tap(NAME, (chunk: Chunk) => {
        compilation.addRuntimeModule(chunk, new IntegrityRuntimeModule());
      });

      const lookup = (kind: 'js' | 'css') => `(${GLOBAL}.${kind}[chunkId] || ${JSON.stringify(REFUSE_INTEGRITY)})`;
      runtime.LoadScriptRuntimeModule.getCompilationHooks(compilation).createScript.tap(
        NAME,
        (source: string) => `${source}\nif (chunkId !== undefined) script.integrity = ${lookup('js')};`,
      );
      MiniCssExtractPlugin.getCompilationHooks(compilation).beforeTagInsert.tap(
        NAME,
        (source: string) => `${source}\nlinkTag.integrity = ${lookup('css')};`,
      );

      compilation.hooks.processAssets.tap(
        // After minification and the real content hashes: the bytes hashed are the bytes served.
        { name: NAME, stage: CompilationClass.PROCESS_ASSETS_STAGE_OPTIMIZE_HASH + 1 },
        () => {
          const map = { js: {} as Record<string, string>, css: {} as Record<string, string> };
          for (const chunk of compilation.chunks) {
            if (chunk.hasRuntime() || chunk.id === null) continue;
            for (const file of chunk.files) {
              const kind = file.endsWith('.js') ? 'js' : file.endsWith('.css') ? 'css' : undefined;
              const asset = compilation.getAsset(file);
              if (kind && asset) map[kind][String(chunk.id)] = sriOf(asset.source.buffer());
            }
          }
          const literal = JSON.stringify(map);
          for (const chunk of compilation.chunks) {
            if (!chunk.hasRuntime()) continue;
            for (const file of chunk.files) {
              const asset = compilation.getAsset(file);
              const text = asset?.source.source().toString();
              if (!asset || text === undefined || !text.includes(PLACEHOLDER)) continue;
              compilation.updateAsset(file, new sources.RawSource(text.replace(PLACEHOLDER, literal)));
            }
          }
        },
      );
    });
  }
}
