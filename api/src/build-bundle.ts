import path from 'node:path';
import { buildSync } from 'esbuild';
import { CONSOLE_PAGE } from './console';
import { buildPage } from './http/build-page';
import { REPORT_PAGE } from './telemetry';

/** Resolved at run time from node_modules: native or WASM parts, or large and plain CommonJS. */
const EXTERNAL = ['@electric-sql/pglite', 'pg', 'express', 'express-rate-limit', 'esbuild', '@aws-sdk/client-s3'];

export const BUNDLE_PATH = path.resolve(__dirname, '..', 'dist', 'main.js');

/**
 * Bundles the API (src/main.ts and the shared validation rules it imports as TypeScript) into one
 * CommonJS file for Node 20: what production runs (`node dist/main.js`). `outfile` must stay
 * inside api/ so the externals resolve from its node_modules.
 */
export function buildBundle(outfile = BUNDLE_PATH): string {
  buildSync({
    entryPoints: [path.resolve(__dirname, 'main.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    outfile,
    external: EXTERNAL,
    logLevel: 'warning',
  });
  // The operator pages' scripts and styles, where the bundle's pageAssetLoader looks for them.
  for (const page of [REPORT_PAGE, CONSOLE_PAGE]) buildPage(page, path.join(path.dirname(outfile), page.outdir));
  return outfile;
}

if (require.main === module) buildBundle();
