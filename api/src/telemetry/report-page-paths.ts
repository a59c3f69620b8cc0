import path from 'node:path';
import type { BrowserPage } from '../http/browser-page';

/** The field report page (api/operator-pages/report/): built by esbuild, with uPlot, beside the API's bundle. */
export const REPORT_PAGE: BrowserPage = {
  name: 'report',
  // api/operator-pages/report/, from api/src/telemetry: only used when building, which runs from the sources.
  source: path.resolve(__dirname, '..', '..', 'operator-pages', 'report', 'report-page.ts'),
  outdir: 'report-page',
};
