import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { parsePageBuilds } from '@special-gift/shared/composition';
import { HOST_URL, REPO_ROOT, releaseToolEnv } from './stack';

/**
 * What the fault tests share (06, 07, 08): the release tool run from this machine, and a steady
 * load of page views counted by what each page was composed with.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The release tool from this machine, as a team's CI outside the stack runs it: through the
 * published ports (a container joining the stack's network makes Podman's DNS reload).
 */
export function releaseTool(...args: string[]): string {
  return execFileSync('node', ['--import', 'tsx', 'release-cli/src/cli.ts', ...args], {
    cwd: REPO_ROOT,
    env: releaseToolProcessEnv(),
    encoding: 'utf8',
  });
}

/** {@link releaseTool} without blocking this process: a load of page views keeps running meanwhile. */
export async function releaseToolAsync(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('node', ['--import', 'tsx', 'release-cli/src/cli.ts', ...args], {
    cwd: REPO_ROOT,
    env: releaseToolProcessEnv(),
    encoding: 'utf8',
  });
  return stdout;
}

function releaseToolProcessEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ...releaseToolEnv({
      s3: `http://127.0.0.1:${process.env.SG_S3_PORT ?? '6309'}`,
      host: HOST_URL,
      operatorToken: process.env.SG_OPERATOR_TOKEN ?? '',
    }),
  };
}

/** Publishes a build of signup from `dist` and returns its id. */
export function publishSignup(dist: string): string {
  const published = releaseTool('publish', 'signup', '--dist', dist, '--json');
  const { buildId } = JSON.parse(published.split('\n').find((line) => line.startsWith('{')) ?? '{}') as {
    buildId?: string;
  };
  if (!buildId) throw new Error(`the release tool published nothing from ${dist}: ${published}`);
  return buildId;
}

/** One page of /sign-up as composed for a bucket: its status, signup build and integrity pairs. */
export interface PageView {
  readonly status: number;
  readonly signup?: string;
  readonly integrity?: string;
  /** The page's whole `data-sg-builds`: with `integrity`, the release state it was composed from. */
  readonly builds?: string;
  /** The page cache's `X-Cache-Status` (snippets/page-cache.conf): HIT, STALE and UPDATING were kept. */
  readonly cacheStatus?: string;
}

export async function pageView(bucket: number): Promise<PageView> {
  const response = await fetch(`${HOST_URL}/sign-up`, {
    headers: { cookie: `sg_bucket=${bucket}` },
    signal: AbortSignal.timeout(10_000),
  });
  const html = await response.text();
  const builds = /data-sg-builds="([^"]*)"/.exec(html)?.[1];
  return {
    status: response.status,
    builds,
    signup: parsePageBuilds(builds).signup,
    integrity: /data-sg-integrity="([^"]*)"/.exec(html)?.[1],
    cacheStatus: response.headers.get('x-cache-status') ?? undefined,
  };
}

/** Whether a page was composed with `buildId` for signup, with the hash of its entry. */
export const onBuild = (buildId: string) => (view: PageView) =>
  view.status === 200 && view.signup === buildId && /(^|,)signup\/remoteEntry\.js=sha384-/.test(view.integrity ?? '');

const KEPT = new Set(['HIT', 'STALE', 'UPDATING']);

export interface PageViewCounts {
  served: number;
  /** Served and composed as `expected` says. */
  expected: number;
  /** Served from the host's page cache rather than composed for the request (HIT, STALE, UPDATING). */
  kept: number;
  serverErrors: number;
  otherStatus: number;
  /** Requests refused or cut while the test said the host was down. */
  unreachable: number;
  /** Requests that failed otherwise (no answer, or none within 10 s). */
  failed: number;
}

/**
 * Visitors loading /sign-up one page after another over every bucket until stopped. A request that
 * fails while `hostDown` is set (or was when it began) counts as unreachable; any other failure is
 * kept, with the first pages composed otherwise than `expected`, for the test to assert.
 */
export function pageViewLoad(visitors: number, expected: (view: PageView) => boolean) {
  const counts: PageViewCounts = {
    served: 0,
    expected: 0,
    kept: 0,
    serverErrors: 0,
    otherStatus: 0,
    unreachable: 0,
    failed: 0,
  };
  // The first pages composed otherwise, with their bucket, when they were asked (ms since the
  // load began) and whether the test said the host was down then: enough to tell when it happened.
  const unexpected: (PageView & { bucket: number; atMs: number; hostDown: boolean })[] = [];
  const started = Date.now();
  const failures: string[] = [];
  let stop = false;
  let bucket = 0;
  const state = { hostDown: false };
  const visitor = async () => {
    while (!stop) {
      // A request begun while the host's container restarts may hang on the old address: it
      // counts as refused even if it fails after the new container answers.
      const begunWhileDown = state.hostDown;
      const asked = { bucket: bucket++ % 100, atMs: Date.now() - started, hostDown: begunWhileDown };
      try {
        const view = await pageView(asked.bucket);
        if (view.status >= 500) counts.serverErrors += 1;
        else if (view.status !== 200) counts.otherStatus += 1;
        else {
          counts.served += 1;
          if (view.cacheStatus && KEPT.has(view.cacheStatus)) counts.kept += 1;
          if (expected(view)) counts.expected += 1;
          else if (unexpected.length < 3) unexpected.push({ ...view, ...asked });
        }
      } catch (error) {
        if (begunWhileDown || state.hostDown) counts.unreachable += 1;
        else {
          counts.failed += 1;
          if (failures.length < 3) failures.push(String(error));
        }
        await sleep(50);
      }
    }
  };
  const running = Promise.all(Array.from({ length: visitors }, visitor));
  return {
    state,
    async stop() {
      stop = true;
      await running;
      return { counts, unexpected, failures };
    },
  };
}
