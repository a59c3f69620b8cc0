/**
 * `npm run bench:api`: sign-up throughput and latency of the API's build (api/dist) on loopback,
 * at 1, 8 and 32 concurrent keep-alive clients, for PGlite with fsync on and off, and PostgreSQL
 * with one and two API replicas (clients alternate between the two). PostgreSQL is the server at
 * TEST_DATABASE_URL when set, else a throwaway cluster (tooling/postgres/throwaway-cluster.sh).
 * Then, on each setup, telemetry: real page batches (5-8 events each) sent open-loop at
 * BENCH_TELEMETRY_EVENTS_PER_S (2,000) for 8 s, the rate held and the latency of each 202, and
 * the sessions the report counts afterwards (what was written, not only acknowledged).
 * Bounded: about 5 s per sign-up measurement, 12 of them, and 9 s per telemetry one, 4 of them.
 * Prints two Markdown tables. BENCH_API_PHASES=telemetry (or sign-ups) runs one phase only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { makeTestCardCode } from '@special-gift/shared/testing/cards';
import type { TelemetryReport } from '@special-gift/shared/telemetry';
import { REPO_ROOT } from '../../tooling/serve/local-topology';

const CLIENT_COUNTS = [1, 8, 32];
const WARM_UP_MS = 1_000;
const MEASURE_MS = 4_000;
const XSRF = 'bench-xsrf-token';
const OPERATOR_TOKEN = 'bench-operator-token-0123456789abcdef';
const TELEMETRY_EVENTS_PER_S = Number(process.env.BENCH_TELEMETRY_EVENTS_PER_S ?? 2000);
const TELEMETRY_WARM_UP_MS = 1_000;
const TELEMETRY_MEASURE_MS = 8_000;
const PHASES = (process.env.BENCH_API_PHASES ?? 'sign-ups,telemetry').split(',');

interface Api {
  readonly url: string;
  readonly child: ChildProcess;
}

function startApi(env: Record<string, string>): Promise<Api> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: join(REPO_ROOT, 'api'),
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SIGN_UPS_PER_MINUTE: '0',
      TELEMETRY_BATCHES_PER_MINUTE: '0',
      OPERATOR_TOKEN,
      ...env,
    },
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

const ROUTES = ['/', '/sign-up', '/thank-you'] as const;
const DEVICES = ['phone', 'tablet', 'desktop'] as const;
const pick = <T>(list: readonly T[]): T => list[Math.floor(Math.random() * list.length)] as T;

/** One page view as the browser collector sends it: the vitals, now and then a failure; 5-8 events. */
function pageBatch(): { body: string; events: number } {
  const screen = pick(['intro', 'signup', 'thankyou'] as const);
  const events: object[] = [
    { type: 'vital', name: 'TTFB', value: 80 + Math.random() * 200, remote: null, rating: 'good', t: 300 },
    { type: 'vital', name: 'FCP', value: 600 + Math.random() * 900, remote: null, rating: 'good', t: 900 },
    { type: 'vital', name: 'LCP', value: 900 + Math.random() * 2500, remote: screen, target: 'main>h1.title', t: 2000 },
    { type: 'vital', name: 'CLS', value: Math.random() * 0.2, remote: screen, t: 9000 },
  ];
  if (Math.random() < 0.8)
    events.push({ type: 'vital', name: 'INP', value: 40 + Math.random() * 300, remote: null, t: 9100 });
  if (Math.random() < 0.5)
    events.push({ type: 'load_failure', remote: screen, phase: 'lazy_chunk', kind: 'timeout', t: 4000 });
  if (Math.random() < 0.5) events.push({ type: 'render_error', remote: screen, errorName: 'TypeError', t: 4100 });
  if (Math.random() < 0.5)
    events.push({ type: 'uncaught', remote: null, errorName: 'Error', t: 5000, rejection: true });
  while (events.length < 5) events.push({ type: 'vital', name: 'INP', value: 100, remote: null, t: 9200 });
  const body = JSON.stringify({
    v: 1,
    route: ROUTES[['intro', 'signup', 'thankyou'].indexOf(screen)],
    device: pick(DEVICES),
    builds: { intro: 'image', signup: pick(['c0ffee000001', 'ba5e11e00001']), thankyou: '0123456789ab' },
    events,
  });
  return { body, events: events.length };
}

function sendBeacon(agent: http.Agent, url: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/v1/telemetry`, {
      method: 'POST',
      agent,
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'content-length': Buffer.byteLength(body) },
    });
    request.on('response', (response) => {
      response.resume().on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(body);
  });
}

interface TelemetryFigures {
  readonly eventsPerSecond: number;
  readonly batchesPerSecond: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly errors: number;
  /** Sessions (page × remote rows) the report counted afterwards, against those sent. */
  readonly written: number;
  readonly sent: number;
}

/**
 * Open loop, as browsers are: batches leave on schedule whether or not earlier ones were answered,
 * so a slow server shows as latency (measured from each batch's scheduled time), not as a lower rate.
 */
async function measureTelemetry(urls: readonly string[], eventsPerSecond: number): Promise<TelemetryFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const started = performance.now();
  const ends = started + TELEMETRY_WARM_UP_MS + TELEMETRY_MEASURE_MS;
  const latencies: number[] = [];
  let events = 0;
  let errors = 0;
  let sessions = 0;
  let sent = 0;
  let offered = 0;
  const pending: Array<Promise<void>> = [];
  while (performance.now() < ends) {
    const due = started + (offered / eventsPerSecond) * 1000;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const batch = pageBatch();
    const url = urls[sent % urls.length] ?? '';
    const measured = due - started >= TELEMETRY_WARM_UP_MS;
    sent += 1;
    offered += batch.events;
    sessions += 3;
    pending.push(
      sendBeacon(agent, url, batch.body).then(
        (status) => {
          if (!measured) return;
          if (status === 202) {
            latencies.push(performance.now() - due);
            events += batch.events;
          } else errors += 1;
        },
        () => void (errors += measured ? 1 : 0),
      ),
    );
  }
  await Promise.all(pending);
  agent.destroy();
  // The store writes every 200 ms; then every acknowledged session should be counted.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const response = await fetch(`${urls[0]}/v1/telemetry/report?window=1h`, {
    headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
  });
  const report = (await response.json()) as TelemetryReport;
  const written = report.remotes.flatMap((remote) => remote.builds).reduce((sum, build) => sum + build.sessions, 0);
  latencies.sort((a, b) => a - b);
  const at = (quantile: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))] ?? NaN;
  return {
    eventsPerSecond: events / (TELEMETRY_MEASURE_MS / 1000),
    batchesPerSecond: latencies.length / (TELEMETRY_MEASURE_MS / 1000),
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    errors,
    written,
    sent: sessions,
  };
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
  const telemetryRows: string[] = [];
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
        for (const clients of PHASES.includes('sign-ups') ? CLIENT_COUNTS : []) {
          const figures = await measure(
            apis.map((api) => api.url),
            clients,
          );
          const row = `| ${setup.name} | ${clients} | ${figures.perSecond.toFixed(0)} | ${figures.p50.toFixed(1)} | ${figures.p99.toFixed(1)} | ${figures.errors} |`;
          rows.push(row);
          console.error(row);
        }
        // PGlite with fsync off and a second replica say little more about telemetry: measured once per engine.
        if (PHASES.includes('telemetry') && !/fsync off|2 replicas/.test(setup.name)) {
          const figures = await measureTelemetry(
            apis.map((api) => api.url),
            TELEMETRY_EVENTS_PER_S,
          );
          const row = `| ${setup.name} | ${TELEMETRY_EVENTS_PER_S} | ${figures.eventsPerSecond.toFixed(0)} | ${figures.batchesPerSecond.toFixed(0)} | ${figures.p50.toFixed(1)} | ${figures.p95.toFixed(1)} | ${figures.p99.toFixed(1)} | ${figures.errors} | ${figures.written} / ${figures.sent} |`;
          telemetryRows.push(row);
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
  console.log(
    '\n| engine | target events/s | events/s held | batches/s | p50 ms | p95 ms | p99 ms | errors | sessions written / sent |\n|---|---|---|---|---|---|---|---|---|',
  );
  console.log(telemetryRows.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
