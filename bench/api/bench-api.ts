/**
 * `npm run bench:api`: sign-up throughput and latency of the API's build (api/dist) on loopback,
 * at 1, 8 and 32 concurrent keep-alive clients, for PGlite with fsync on and off, and PostgreSQL
 * with one and two API replicas (clients alternate between the two). PostgreSQL is the server at
 * TEST_DATABASE_URL when set, else a throwaway cluster (tooling/postgres/throwaway-cluster.sh).
 * Bounded: about 5 s per measurement, 12 measurements. Prints a Markdown table.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { makeTestCardCode } from '@special-gift/shared/testing/cards';
import { REPO_ROOT } from '../../tooling/serve/local-topology';

const CLIENT_COUNTS = [1, 8, 32];
const WARM_UP_MS = 1_000;
const MEASURE_MS = 4_000;
const XSRF = 'bench-xsrf-token';

interface Api {
  readonly url: string;
  readonly child: ChildProcess;
}

function startApi(env: Record<string, string>): Promise<Api> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: join(REPO_ROOT, 'api'),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SIGN_UPS_PER_MINUTE: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const match = /"msg":"listening"[^\n]*"port":(\d+)/.exec(buffered);
      if (match) resolve({ url: `http://127.0.0.1:${match[1]}`, child });
      buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
    });
    child.once('exit', (code) => reject(new Error(`the API exited with ${String(code)} before listening`)));
  });
}

async function stopApi(api: Api): Promise<void> {
  if (api.child.exitCode !== null) return;
  const exited = new Promise((resolve) => api.child.once('exit', resolve));
  api.child.kill('SIGTERM');
  await exited;
}

let nextCard = (Date.now() % 1e9) * 1000;

function postOnce(agent: http.Agent, url: string): Promise<number> {
  const body = JSON.stringify({
    firstName: 'Bench',
    lastName: 'Mark',
    email: 'bench@example.com',
    cardCode: makeTestCardCode(8e12 + nextCard++),
    acceptedTerms: true,
  });
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/v1/sign-ups`, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        'idempotency-key': crypto.randomUUID(),
        cookie: `XSRF-TOKEN=${XSRF}`,
        'x-xsrf-token': XSRF,
      },
    });
    request.on('response', (response) => {
      response.resume().on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(body);
  });
}

interface Figures {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

async function measure(urls: readonly string[], clients: number): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  const warmUpEnds = Date.now() + WARM_UP_MS;
  const ends = warmUpEnds + MEASURE_MS;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const url = urls[client % urls.length] ?? '';
      while (Date.now() < ends) {
        const started = performance.now();
        const status = await postOnce(agent, url).catch(() => 0);
        measuring = Date.now() >= warmUpEnds;
        if (!measuring) continue;
        if (status === 201) latencies.push(performance.now() - started);
        else errors += 1;
      }
      agent.destroy();
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (quantile: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))] ?? NaN;
  return { perSecond: latencies.length / (MEASURE_MS / 1000), p50: at(0.5), p99: at(0.99), errors };
}

function startThrowawayPostgres(): Promise<{ url: string; stop: () => void }> {
  // The shell keeps the cluster until its standard input closes (when this process ends, however).
  const shell = spawn(
    'bash',
    [
      '-c',
      'source tooling/postgres/throwaway-cluster.sh && start_throwaway_postgres >&2 && echo "URL=$TEST_DATABASE_URL" && read -r _ ; stop_throwaway_postgres',
    ],
    {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    shell.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const url = /URL=(\S+)/.exec(chunk)?.[1];
      if (url) resolve({ url, stop: () => shell.stdin.end() });
    });
    shell.once('exit', (code) => reject(new Error(`PostgreSQL did not start (${String(code)})`)));
  });
}

async function freshPostgresDatabase(adminUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function main(): Promise<void> {
  if (!existsSync(join(REPO_ROOT, 'api', 'dist', 'main.js'))) {
    spawnSync('npm', ['run', 'build', '-w', 'api'], { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  const own = process.env.TEST_DATABASE_URL ? undefined : await startThrowawayPostgres();
  const adminUrl = process.env.TEST_DATABASE_URL ?? own?.url ?? '';
  const rows: string[] = [];
  try {
    const setups: Array<{ name: string; start: () => Promise<{ apis: Api[]; cleanup: () => void }> }> = [
      ...(['on', 'off'] as const).map((fsync) => ({
        name: `PGlite, fsync ${fsync}`,
        start: async () => {
          const dataDir = mkdtempSync(join(tmpdir(), 'special-gift-bench-'));
          return {
            apis: [await startApi({ API_DATA_DIR: dataDir, PGLITE_FSYNC: fsync })],
            cleanup: () => rmSync(dataDir, { recursive: true, force: true }),
          };
        },
      })),
      ...[1, 2].map((replicas) => ({
        name: `PostgreSQL, ${replicas} replica${replicas > 1 ? 's' : ''}`,
        start: async () => {
          const url = await freshPostgresDatabase(adminUrl, `sg_bench_${replicas}`);
          const apis = [];
          for (let index = 0; index < replicas; index += 1) apis.push(await startApi({ DATABASE_URL: url }));
          return { apis, cleanup: () => undefined };
        },
      })),
    ];
    for (const setup of setups) {
      const { apis, cleanup } = await setup.start();
      try {
        for (const clients of CLIENT_COUNTS) {
          const figures = await measure(
            apis.map((api) => api.url),
            clients,
          );
          const row = `| ${setup.name} | ${clients} | ${figures.perSecond.toFixed(0)} | ${figures.p50.toFixed(1)} | ${figures.p99.toFixed(1)} | ${figures.errors} |`;
          rows.push(row);
          console.error(row);
        }
      } finally {
        await Promise.all(apis.map(stopApi));
        cleanup();
      }
    }
  } finally {
    own?.stop();
  }
  console.log('\n| engine | clients | sign-ups/s | p50 ms | p99 ms | errors |\n|---|---|---|---|---|---|');
  console.log(rows.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
