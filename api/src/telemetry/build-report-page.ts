import path from 'node:path';
import { buildSync, type BuildOptions } from 'esbuild';
import { REPORT_PAGE_OUTDIR, REPORT_PAGE_SOURCE, type ReportAssets } from './report-page-paths';

const OPTIONS: BuildOptions = {
  entryPoints: { report: REPORT_PAGE_SOURCE },
  bundle: true,
  platform: 'browser',
  target: 'es2020',
  format: 'iife',
  minify: true,
  legalComments: 'inline',
  logLevel: 'warning',
};

/** The page's script and styles, into `outdir` (the API's build) or in memory (when none is given). */
export function buildReportPage(outdir?: string): ReportAssets {
  const result = buildSync({ ...OPTIONS, outdir: outdir ?? path.join(__dirname, REPORT_PAGE_OUTDIR), write: !!outdir });
  if (outdir) return { js: '', css: '' };
  const text = (extension: string) => result.outputFiles?.find((file) => file.path.endsWith(extension))?.text ?? '';
  return { js: text('.js'), css: text('.css') };
}
