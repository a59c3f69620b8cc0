import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tooling/chromium';

const run = promisify(execFile);

/** What one Lighthouse run (mobile preset: simulated Slow 4G, 4x CPU) reports. */
export interface LighthouseRun {
  requests: number;
  /** Script bytes as transferred, gzipped (`resource-summary`). */
  jsTransferBytes: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** Lighthouse's CPU benchmark of this machine, to read the timings against. */
  benchmarkIndex: number;
}

interface LighthouseReport {
  categories: Record<'performance' | 'accessibility' | 'best-practices', { score: number | null }>;
  audits: Record<
    string,
    {
      numericValue?: number;
      details?: { items?: Array<{ resourceType?: string; requestCount?: number; transferSize?: number }> };
    }
  >;
  environment: { benchmarkIndex: number };
  runtimeError?: { code: string; message: string };
}

const LIGHTHOUSE = join(__dirname, '..', 'node_modules', '.bin', 'lighthouse');

/**
 * `simulate` (the mobile preset's default) models Slow 4G and a 4x slower CPU from one fast load;
 * `devtools` (BENCH_THROTTLING=devtools) really throttles the load (562 ms per request, 1.5 Mbps),
 * which shows round-trip savings that the CPU-dominated simulation hides.
 */
export const THROTTLING = process.env.BENCH_THROTTLING === 'devtools' ? 'devtools' : 'simulate';

/**
 * One cold Lighthouse run of `url`. Lighthouse itself sometimes fails to record the trace on this
 * machine (NO_NAVSTART, "please run Lighthouse again"): such a run is retried, up to 3 attempts.
 */
export async function runLighthouse(url: string, reportDir: string, name: string): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runLighthouseOnce(url, reportDir, name);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.warn(
        `  lighthouse ${name}: attempt ${attempt} failed (${
          String(error)
            .split('\n')
            .find((line) => line.includes('Runtime error')) ?? 'see above'
        }); retrying`,
      );
    }
  }
}

async function runLighthouseOnce(url: string, reportDir: string, name: string): Promise<LighthouseRun> {
  mkdirSync(reportDir, { recursive: true });
  const profile = mkdtempSync(join(tmpdir(), 'lighthouse-profile-'));
  const outputPath = join(reportDir, `${name}.json`);
  try {
    await run(
      LIGHTHOUSE,
      [
        url,
        `--chrome-flags=${[...CHROMIUM_ARGS, `--user-data-dir=${profile}`].join(' ')}`,
        '--form-factor=mobile',
        '--only-categories=performance,accessibility,best-practices',
        '--output=json',
        `--output-path=${outputPath}`,
        '--quiet',
        `--throttling-method=${THROTTLING}`,
      ],
      { env: { ...process.env, CHROME_PATH: CHROMIUM_PATH }, timeout: 180_000 },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  const report = JSON.parse(readFileSync(outputPath, 'utf8')) as LighthouseReport;
  if (report.runtimeError)
    throw new Error(`Lighthouse could not measure ${url}: ${report.runtimeError.code} ${report.runtimeError.message}`);
  const audit = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  const summary = report.audits['resource-summary']?.details?.items ?? [];
  const score = (id: keyof LighthouseReport['categories']) => Math.round((report.categories[id].score ?? 0) * 100);
  return {
    requests: summary.find((item) => item.resourceType === 'total')?.requestCount ?? Number.NaN,
    jsTransferBytes: summary.find((item) => item.resourceType === 'script')?.transferSize ?? Number.NaN,
    fcpMs: audit('first-contentful-paint'),
    lcpMs: audit('largest-contentful-paint'),
    tbtMs: audit('total-blocking-time'),
    cls: audit('cumulative-layout-shift'),
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    benchmarkIndex: report.environment.benchmarkIndex,
  };
}
