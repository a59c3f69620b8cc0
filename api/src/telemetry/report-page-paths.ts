import path from 'node:path';

export interface ReportAssets {
  readonly js: string;
  readonly css: string;
}

/** api/report-page/, from api/src/telemetry: only used when building, which runs from the sources. */
export const REPORT_PAGE_SOURCE = path.resolve(__dirname, '..', '..', 'report-page', 'report-page.ts');
/** Where the build puts the page's script and styles: beside dist/main.js. */
export const REPORT_PAGE_OUTDIR = 'report-page';
