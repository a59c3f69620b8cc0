/**
 * `npm run bench:composer`: composed pages per second against a static file of the same server
 * (issue 40's measure: what composing a page costs). Run beside `npm run serve` (or `npm run up`):
 * - the Node composer: the running host at BENCH_HOST_URL (http://localhost:3000);
 * - nginx: the host image's config (deploy/nginx/host.conf.template, Debian's nginx, one worker)
 *   on the same builds, in front of the same running API and remotes; skipped when `nginx` is not
 *   installed, or with BENCH_COMPOSER_NGINX=off;
 * - nginx with the state agent (tooling/state-agent) as RELEASE_STATE_UPSTREAM, reading the same
 *   build store folder with the same keys as the running host (serve-app.ts): the images' path of
 *   issue 40, where a page asks the API nothing. BENCH_STATE_AGENT=off skips it.
 * For each: `/`, `/sign-up`, a whole page view (`/sign-up`, then the token its collector asks for,
 * with the page's builds: two requests, counted as one view) and the page's own page-loader script,
 * each for BENCH_SECONDS (10) at BENCH_CONNECTIONS (32) keep-alive connections (autocannon), after
 * 2 s of warm-up. Any non-2xx answer or error is counted and printed: a fast server that answers
 * errors is no figure. A token refused (204) is a 2xx: `tokens` counts the views that got one.
 * Prints a Markdown table. Machines are noisy: compare ratios measured in the same run.
 */
import { spawn, spawnSync } from 'node:child_process';
import autocannon from 'autocannon';
import { REMOTES } from '../tooling/remotes';
import { freePort } from '../tooling/nginx-tests/nginx-under-test';
import { remoteEntryVariable } from '../tooling/serve/runtime-config';
import { nginxCommand, prepareNginx } from '../e2e/support/nginx';
import { readOrCreateOperatorToken } from '../release-cli/src/operator-token';
import { buildStorePath } from '../release-cli/src/store/open-store';
import { folderReader } from '../tooling/composition/release-state-source';
import { REPO_ROOT } from '../tooling/serve/local-topology';
import { startStateAgent } from '../tooling/state-agent/agent';
import { readStateAgentSettings } from '../tooling/state-agent/settings';

const HOST_URL = (process.env.BENCH_HOST_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const API_URL = (process.env.BENCH_API_URL ?? 'http://127.0.0.1:3004').replace(/\/$/, '');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WARM_UP_SECONDS = 2;
/** BENCH_COOKIE (e.g. `sg_bucket=42; sg_lang=en`): every request a returning visitor's; unset, a first visit's. */
const HEADERS: Record<string, string> = process.env.BENCH_COOKIE ? { cookie: process.env.BENCH_COOKIE } : {};

interface Figure {
  readonly server: string;
  readonly path: string;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly bytes: number;
  readonly failed: number;
}

/** The path of a page's token request (PAGE_TOKEN.path) and the page's builds it sends. */
const TOKEN_PATH = '/_sg_page_token';

async function measure(server: string, origin: string, path: string): Promise<Figure> {
  const url = `${origin}${path}`;
  const probe = await fetch(url, { headers: HEADERS });
  const body = await probe.text();
  if (!probe.ok) throw new Error(`${url} answered ${probe.status}: is the server running?`);
  await autocannon({ url, connections: CONNECTIONS, duration: WARM_UP_SECONDS, headers: HEADERS });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers: HEADERS });
  return {
    server,
    path,
    perSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    bytes: Buffer.byteLength(body),
    failed: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * Page views a second: each connection asks `/sign-up`, then its token with the page's builds, as a
 * browser and its collector do. Counts the views whose token came (a 200 of the token's shape).
 */
async function measureView(server: string, origin: string): Promise<Figure & { signed: number }> {
  const page = await (await fetch(`${origin}/sign-up`, { headers: HEADERS })).text();
  const builds = /data-sg-builds="([^"]*)"/.exec(page)?.[1] ?? '';
  let signed = 0;
  const requests = [
    { method: 'GET' as const, path: '/sign-up', headers: HEADERS },
    {
      method: 'GET' as const,
      path: TOKEN_PATH,
      headers: { ...HEADERS, 'sg-builds': builds },
      onResponse: (status: number) => void (status === 200 && (signed += 1)),
    },
  ];
  await autocannon({ url: origin, connections: CONNECTIONS, duration: WARM_UP_SECONDS, requests });
  signed = 0;
  const result = await autocannon({ url: origin, connections: CONNECTIONS, duration: SECONDS, requests });
  return {
    server,
    path: 'a page view (/sign-up + its token)',
    perSecond: result.requests.average / 2,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    bytes: Buffer.byteLength(page),
    failed: result.non2xx + result.errors + result.timeouts,
    signed: Math.round(signed / SECONDS),
  };
}

/** The page's page-loader script: a static, hashed file the same server sends from disk. */
async function staticFileOf(origin: string): Promise<string> {
  const page = await (await fetch(`${origin}/sign-up`)).text();
  const found = /'(\/page-loader\.[0-9a-f]{8}\.js)'/.exec(page)?.[1];
  if (!found) throw new Error(`${origin}/sign-up names no page-loader script`);
  return found;
}

async function measureServer(server: string, origin: string): Promise<Figure[]> {
  const staticPath = await staticFileOf(origin);
  const figures: Figure[] = [];
  const report = (figure: Figure) => {
    figures.push(figure);
    console.error(`${server} ${figure.path}: ${Math.round(figure.perSecond)}/s`);
  };
  for (const path of ['/', '/sign-up']) report(await measure(server, origin, path));
  const view = await measureView(server, origin);
  report(view);
  console.error(`${server}: ${view.signed} of ${Math.round(view.perSecond)} page views a second signed`);
  report(await measure(server, origin, staticPath));
  return figures;
}

async function withNginx<T>(
  run: (origin: string) => Promise<T>,
  more: Record<string, string> = {},
): Promise<T | undefined> {
  if (process.env.BENCH_COMPOSER_NGINX === 'off' || spawnSync('nginx', ['-v']).status !== 0) return undefined;
  const port = await freePort();
  // The running host's remotes: nginx composes the same screens from the same origins.
  const config = (await (await fetch(`${HOST_URL}/config.json`)).json()) as { remotes: Record<string, string> };
  const overrides: Record<string, string> = { PORT: String(port), API_UPSTREAM: API_URL, ...more };
  for (const remote of REMOTES) {
    const entry = config.remotes[remote.name];
    if (entry) overrides[remoteEntryVariable(remote.name)] = entry;
  }
  prepareNginx('host', overrides);
  const { command, args } = nginxCommand('host');
  const child = spawn(command, args, { stdio: 'inherit' });
  const origin = `http://127.0.0.1:${port}`;
  try {
    for (let tries = 0; ; tries += 1) {
      try {
        if ((await fetch(`${origin}/config.json`)).ok) break;
      } catch {
        if (tries > 50) throw new Error('nginx did not start');
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return await run(origin);
  } finally {
    child.kill('SIGQUIT');
  }
}

async function main(): Promise<void> {
  const figures = [...(await measureServer('Node composer', HOST_URL))];
  const nginx = await withNginx((origin) => measureServer('nginx', origin));
  if (nginx) figures.push(...nginx);
  if (nginx && process.env.BENCH_STATE_AGENT !== 'off') {
    // The state agent as the running host's composer reads: its store folder, its keys.
    const agent = await startStateAgent(
      readStateAgentSettings({
        ...process.env,
        RELEASE_STATE_BASE_URL: 'http://127.0.0.1:1/unused',
        OPERATOR_TOKEN: process.env.OPERATOR_TOKEN ?? readOrCreateOperatorToken(REPO_ROOT),
        PORT: String(await freePort()),
        // PAGE_TOKENS_PER_MINUTE from the environment, else 60 as the API's: one address
        // (autocannon) gets 60 tokens a minute from either, then pages without one.
      }),
      folderReader(process.env.RELEASE_STATE_STORE || buildStorePath(REPO_ROOT, process.env)),
    );
    try {
      const withAgent = await withNginx((origin) => measureServer('nginx + state agent', origin), {
        RELEASE_STATE_UPSTREAM: agent.url,
      });
      if (withAgent) figures.push(...withAgent);
    } finally {
      await agent.stop();
    }
  }
  const visitor = HEADERS.cookie
    ? `a returning visitor's requests (Cookie: ${HEADERS.cookie})`
    : "a first visit's requests (no cookie)";
  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s each, after ${WARM_UP_SECONDS} s of warm-up, ${visitor}\n`);
  console.log('| server | path | bytes | per second | of the static file | p50 ms | p99 ms | failed |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const server of new Set(figures.map((figure) => figure.server))) {
    const mine = figures.filter((figure) => figure.server === server);
    const staticRate = mine[mine.length - 1]?.perSecond ?? Number.NaN;
    for (const figure of mine)
      console.log(
        `| ${server} | ${figure.path} | ${figure.bytes} | ${Math.round(figure.perSecond)} | ` +
          `${Math.round((100 * figure.perSecond) / staticRate)} % | ${figure.p50Ms} | ${figure.p99Ms} | ${figure.failed} |`,
      );
  }
  if (figures.some((figure) => figure.failed > 0)) process.exitCode = 1;
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
