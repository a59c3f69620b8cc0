import path from 'node:path';
import type { BrowserPage } from '../http/browser-page';

/** The field report page (api/report-page/): built by esbuild, with uPlot, beside the API's bundle. */
export const REPORT_PAGE: BrowserPage = {
  name: 'report',
  // api/report-page/, from api/src/telemetry: only used when building, which runs from the sources.
  source: path.resolve(__dirname, '..', '..', 'report-page', 'report-page.ts'),
  outdir: 'report-page',
};
