import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPORT_PAGE_OUTDIR, type ReportAssets } from './report-page-paths';

let loaded: Promise<ReportAssets> | undefined;

/**
 * The report page's script (with uPlot) and styles: built by `npm run build` (build-bundle.ts) next
 * to the bundle; when the API runs from its sources (development, tests) there is no build, so they
 * are built in memory once, with the same esbuild options. esbuild is a development dependency:
 * imported only on that path, never by the production bundle, which finds the built files.
 */
export function loadReportAssets(): Promise<ReportAssets> {
  loaded ??= (async () => {
    const built = path.join(__dirname, REPORT_PAGE_OUTDIR);
    if (existsSync(path.join(built, 'report.js'))) {
      return {
        js: readFileSync(path.join(built, 'report.js'), 'utf8'),
        css: readFileSync(path.join(built, 'report.css'), 'utf8'),
      };
    }
    const { buildReportPage } = await import('./build-report-page');
    return buildReportPage();
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
