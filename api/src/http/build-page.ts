import path from 'node:path';
import { buildSync, type BuildOptions } from 'esbuild';
import type { BrowserPage, PageAssets } from './browser-page';

const OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'browser',
  target: 'es2020',
  format: 'iife',
  minify: true,
  legalComments: 'inline',
  logLevel: 'warning',
};

/** The page's script and styles, into `outdir` (the API's build) or in memory (when none is given). */
export function buildPage(page: BrowserPage, outdir?: string): PageAssets {
  const result = buildSync({
    ...OPTIONS,
    entryPoints: { [page.name]: page.source },
    outdir: outdir ?? path.join(__dirname, page.outdir),
    write: !!outdir,
  });
  if (outdir) return { js: '', css: '' };
  const text = (extension: string) => result.outputFiles?.find((file) => file.path.endsWith(extension))?.text ?? '';
  return { js: text('.js'), css: text('.css') };
}
