// The acceptance gate: the candidate, mounted in the live host through its preview cookie (only this
// browser gets it), in headless Chromium. Its screen must become interactive and render with no page
// error, no failed request or error response, no CSP violation and no axe violation, twice, each in
// a fresh incognito context. What could not be run (no browser, a host that cannot be reached, a
// navigation that times out, a page composed without the candidate) is `inconclusive`: the gate
// then waits for another try, never skipped.
import { readFileSync } from 'node:fs';
import puppeteer, { type Browser, type HTTPResponse, type Page } from 'puppeteer-core';
import type { GateJob } from '@special-gift/shared/api';
import { PAGE_BUILDS_ATTRIBUTE, parsePageBuilds } from '@special-gift/shared/composition';
import { CHROMIUM_ARGS } from '../../tooling/chromium';
import type { GateVerdict } from './api';
import { describeError } from './errors';

/** The cookies the composer reads (tooling/composition/composition.ts, RELEASE_SNAPSHOT). */
const PREVIEW_COOKIE = 'sg_preview';
const BUCKET_COOKIE = 'sg_bucket';
/** The last bucket: in no canary (a canary at N % reaches buckets below N), so only the preview differs from live. */
const LAST_BUCKET = '99';

/** axe-core's browser build, evaluated in the page as e2e/engines/accessibility.spec.ts does. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The page's own markers: the first screen's code ran (host/src/app/schedule-preload.ts), or a remote's error view. */
const READY = 'html[data-interactive="true"], [role="alert"]';

export interface AcceptanceOptions {
  /** The live host's origin as users load it (`GATE_HOST_URL`). */
  readonly hostUrl: string;
  /** Debian's Chromium unless `CHROMIUM_PATH` says otherwise. */
  readonly chromiumPath: string;
  /** How long to wait after the screen is ready for late errors (`GATE_SETTLE_MS`). */
  readonly settleMs: number;
  /** Runs that must all pass. */
  readonly runs?: number;
  readonly readyTimeoutMs?: number;
  readonly navigationTimeoutMs?: number;
}

/** What one run saw. */
interface RunRecord {
  durationMs: number;
  pageErrors: string[];
  failedRequests: string[];
  errorResponses: string[];
  cspViolations: string[];
  consoleErrors: string[];
  abortedRequests: string[];
  builds?: Record<string, string>;
  axe?: string[];
  problems: string[];
}

/** The run could not check the candidate (the host cannot be reached, the navigation timed out, no preview). */
class NotRun extends Error {}

async function oneRun(browser: Browser, job: GateJob, options: AcceptanceOptions): Promise<RunRecord> {
  const started = Date.now();
  const record: RunRecord = {
    durationMs: 0,
    pageErrors: [],
    failedRequests: [],
    errorResponses: [],
    cspViolations: [],
    consoleErrors: [],
    abortedRequests: [],
    problems: [],
  };
  const host = new URL(options.hostUrl);
  const context = await browser.createBrowserContext();
  try {
    await context.setCookie(
      ...[
        { name: PREVIEW_COOKIE, value: job.previewCookie },
        { name: BUCKET_COOKIE, value: LAST_BUCKET },
      ].map((cookie) => ({ ...cookie, domain: host.hostname, path: '/', secure: host.protocol === 'https:' })),
    );
    const page = await context.newPage();
    await watch(page, record);

    const url = new URL(job.route, host).href;
    let response: HTTPResponse | null;
    try {
      response = await page.goto(url, {
        waitUntil: 'domcontentloaded',
        timeout: options.navigationTimeoutMs ?? 30_000,
      });
    } catch (error) {
      throw new NotRun(`${url} could not be loaded: ${describeError(error)}`);
    }
    const status = response?.status();
    if (status !== undefined && status >= 500) throw new NotRun(`${url} answered ${status}`);
    // The page names the builds it was composed with, read from the HTML the host sent (no page
    // code runs for it: a candidate that blocks its page is still judged below). Without the
    // candidate, the preview did not apply (the host's API answered its snapshot too late, say):
    // the page says nothing of the candidate, so the run is not made, and the gate waits for
    // another try rather than fail a build it never saw.
    const html = (await response?.text().catch(() => '')) ?? '';
    record.builds = parsePageBuilds(new RegExp(`${PAGE_BUILDS_ATTRIBUTE}="([^"]*)"`).exec(html)?.[1]);
    const mounted = record.builds[job.remote];
    if (mounted !== job.buildId)
      throw new NotRun(
        `the host composed ${url} with ${job.remote}=${mounted ?? '(its origin’s own build)'}, not the candidate ${job.buildId}: its preview did not apply`,
      );

    const readyTimeoutMs = options.readyTimeoutMs ?? 20_000;
    const ready = await page.waitForSelector(READY, { timeout: readyTimeoutMs }).then(
      () => true,
      () => false,
    );
    if (!ready) record.problems.push(`the screen did not become interactive within ${readyTimeoutMs / 1000} s`);
    else {
      await new Promise((resolve) => setTimeout(resolve, options.settleMs));
      const seen = await page.evaluate(() => ({
        alert: document.querySelector('[role="alert"]')?.textContent?.trim() ?? null,
        main: document.querySelector('main')?.textContent?.trim() ?? '',
      }));
      if (seen.alert !== null) record.problems.push(`the page shows an error: "${seen.alert}"`);
      else if (seen.main === '') record.problems.push('the page’s main holds no content');
      record.axe = await axeViolations(page);
      if (record.axe.length > 0) record.problems.push(`axe violations: ${record.axe.join(', ')}`);
    }
    record.problems.push(
      ...record.pageErrors.map((error) => `page error: ${error}`),
      ...record.failedRequests.map((request) => `failed request: ${request}`),
      ...record.errorResponses.map((response) => `error response: ${response}`),
      ...record.cspViolations.map((violation) => `CSP violation: ${violation}`),
    );
    return record;
  } finally {
    record.durationMs = Date.now() - started;
    await context.close().catch(() => undefined);
  }
}

/** Records what fails the run as it happens; console errors are kept but fail nothing. */
async function watch(page: Page, record: RunRecord): Promise<void> {
  page.on('pageerror', (error) => record.pageErrors.push(describeError(error)));
  page.on('requestfailed', (request) => {
    const failure = request.failure()?.errorText ?? 'failed';
    // Aborted by the page itself (a cancelled preload, a navigation away): no server failed it.
    if (failure === 'net::ERR_ABORTED') record.abortedRequests.push(request.url());
    else record.failedRequests.push(`${request.method()} ${request.url()} (${failure})`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      record.errorResponses.push(`${response.request().method()} ${response.url()} (${response.status()})`);
  });
  page.on('console', (entry) => {
    if (entry.type() === 'error') record.consoleErrors.push(entry.text());
  });
  // A binding the init script below calls: it survives navigations, and CSP does not apply to it.
  await page.exposeFunction('sgGateCspViolation', (violation: string) => {
    record.cspViolations.push(violation);
  });
  await page.evaluateOnNewDocument(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = (window as unknown as { sgGateCspViolation: (violation: string) => void }).sgGateCspViolation;
        void report(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'}`);
      },
      true,
    );
  });
}

/** axe-core's violations on the page as it is, by rule id with the elements. */
async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated over the DevTools protocol, which the page's CSP does not govern: no bypass needed.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    interface AxeResults {
      violations: Array<{ id: string; nodes: Array<{ target: string[] }> }>;
    }
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe;
    const results = await axe.run(document);
    return results.violations.map(
      (violation) => `${violation.id} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
  });
}

export async function checkAcceptance(job: GateJob, options: AcceptanceOptions): Promise<GateVerdict> {
  const started = Date.now();
  const runs: RunRecord[] = [];
  const detail = () => ({ runs, durationMs: Date.now() - started });
  // A host that cannot be reached: say so without starting a browser for nothing.
  const url = new URL(job.route, options.hostUrl);
  try {
    const response = await fetch(url, {
      method: 'HEAD',
      signal: AbortSignal.timeout(options.navigationTimeoutMs ?? 30_000),
    });
    await response.body?.cancel();
  } catch (error) {
    return {
      outcome: 'inconclusive',
      reason: `The host cannot be reached: ${url.href}: ${describeError(error)}.`,
      detail: detail(),
    };
  }
  let browser: Browser;
  try {
    browser = await puppeteer.launch({ executablePath: options.chromiumPath, args: CHROMIUM_ARGS, headless: true });
  } catch (error) {
    return {
      outcome: 'inconclusive',
      reason: `Chromium cannot start (${options.chromiumPath}): ${describeError(error)}`,
      detail: detail(),
    };
  }
  try {
    for (let run = 1; run <= (options.runs ?? 2); run++) {
      let record: RunRecord;
      try {
        record = await oneRun(browser, job, options);
      } catch (error) {
        if (error instanceof NotRun)
          return {
            outcome: 'inconclusive',
            reason: `Run ${run} could not be made: ${error.message}.`,
            detail: detail(),
          };
        throw error;
      }
      runs.push(record);
      // One failing run fails the gate: a second cannot make the first one's errors not have happened.
      if (record.problems.length > 0)
        return { outcome: 'failed', reason: `Run ${run}: ${record.problems.join('; ')}.`, detail: detail() };
    }
    return {
      outcome: 'passed',
      reason: `${runs.length} runs of ${job.route} with ${job.remote}=${job.buildId}: interactive, no errors, axe clean.`,
      detail: detail(),
    };
  } catch (error) {
    // The browser itself failed under the run (it crashed, the protocol broke): nothing was checked.
    return {
      outcome: 'inconclusive',
      reason: `The browser failed during a run: ${describeError(error)}`,
      detail: detail(),
    };
  } finally {
    await browser.close().catch(() => undefined);
  }
}
