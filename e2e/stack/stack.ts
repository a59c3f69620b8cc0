import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeTestCardCode } from '@special-gift/shared/testing/cards';
import { parse, stringify } from 'yaml';
import { E2E_GATE_RUNNER_TOKEN } from '../support/gate-runner';
import { ROLLOUT_RULE_SETTINGS } from '../support/rollouts';

/**
 * The compose stack under test, as tooling/containers/stack.sh configures it (project name,
 * published ports): its containers through Podman, its pages and API through the host's port.
 */
export const REPO_ROOT = join(__dirname, '..', '..');
export const PROJECT = process.env.SG_STACK_PROJECT ?? 'sg-stack';
export const HOST_URL = `http://localhost:${process.env.SG_HOST_PORT ?? '6300'}`;
export const API_URL = `${HOST_URL}/api`;
/** The image the API and the builds run on (deploy/*.Dockerfile), for the containers a test starts itself. */
export const NODE_IMAGE = 'docker.io/library/node:24-bookworm-slim';

const run = promisify(execFile);
/** A podman command's output (it fails the test with podman's message when podman fails). */
export const podman = async (...args: string[]) =>
  (await run('podman', args, { maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
export const podmanSync = (...args: string[]) =>
  execFileSync('podman', args, { encoding: 'utf8', stdio: 'pipe' }).trim();

/** The services `podman-compose up` starts: those of docker-compose.yml outside any profile. */
export function defaultServices(): string[] {
  const compose = parse(readFileSync(join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { profiles?: string[] }>;
  };
  return Object.entries(compose.services)
    .filter(([, service]) => !service.profiles?.length)
    .map(([name]) => name);
}

/**
 * The tests' settings, a compose file given after docker-compose.yml: set through the
 * configuration production reads, never a code path of the tests' own.
 * - The API's replicas run rollouts on the browser suite's short dwells and small samples, and
 *   take gate results from the stack's gate-runner service, which polls every second.
 * - The host believes X-Forwarded-For from this machine (podman's bridges, 10.89.0.0/16), as
 *   from a load balancer: the rollout test's phones each come from their own network.
 * - `SG_STACK_RELEASE_STATE=api` (a measurement, never part of verify): the host asks the API for
 *   each page's snapshot, as before the state agent, to run the fault matrix on the earlier design
 *   (docs/operations.md); the page's token is nginx's own either way.
 * `host`: more of the host's settings, for a test that starts a host of its own (a roll).
 * Returns the file's path.
 */
export function writeStackSettings(host: Record<string, string> = {}): string {
  const file = join(mkdtempSync(join(tmpdir(), 'sg-stack-settings-')), 'compose.test-settings.yml');
  const earlierDesign =
    process.env.SG_STACK_RELEASE_STATE === 'api' ? { RELEASE_STATE_UPSTREAM: 'http://api:3004' } : {};
  const settings = {
    services: {
      host: { environment: { REAL_IP_FROM: '10.89.0.0/16', ...earlierDesign, ...host } },
      api: { environment: { ...ROLLOUT_RULE_SETTINGS, GATE_RUNNER_TOKEN: E2E_GATE_RUNNER_TOKEN } },
      'gate-runner': { environment: { GATE_RUNNER_TOKEN: E2E_GATE_RUNNER_TOKEN, GATE_POLL_SECONDS: '1' } },
    },
  };
  writeFileSync(file, stringify(settings));
  return file;
}

/**
 * `podman-compose up` of these services, with the tests' settings ({@link writeStackSettings});
 * `noDeps`: only them (a roll), not what they depend on; `host`: more settings for the host.
 */
export async function composeUp(
  services: readonly string[],
  { noDeps = false, host = {} }: { noDeps?: boolean; host?: Record<string, string> } = {},
): Promise<void> {
  const args = ['-p', PROJECT, '-f', 'docker-compose.yml', '-f', writeStackSettings(host), 'up', '-d', '--no-build'];
  try {
    await run('podman-compose', [...args, ...(noDeps ? ['--no-deps'] : []), ...services], { cwd: REPO_ROOT });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`podman-compose up failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

/** The names of the stack's containers, all or one service's (running or not). */
export async function containers(service?: string): Promise<string[]> {
  const filters = [
    '--filter',
    `label=io.podman.compose.project=${PROJECT}`,
    ...(service ? ['--filter', `label=com.docker.compose.service=${service}`] : []),
  ];
  const names = await podman('ps', '-a', ...filters, '--format', '{{.Names}}');
  return names.split('\n').filter(Boolean).sort();
}

export const inspect = async (container: string, format: string) => podman('inspect', '--format', format, container);

/**
 * Runs the container's own healthcheck (HEALTHCHECK / compose `healthcheck`) once and says whether
 * it passed. Podman schedules healthchecks with systemd timers, which these machines lack, so the
 * tests run the same check on demand.
 */
export async function healthy(container: string): Promise<boolean> {
  try {
    await podman('healthcheck', 'run', container);
    return true;
  } catch {
    return false;
  }
}

export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 120_000,
  intervalMs = 500,
): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return Date.now() - started;
}

/** SQL in the stack's PostgreSQL container, as its superuser over the local socket. */
export async function psql(sql: string): Promise<string> {
  const [postgres] = await containers('postgres');
  if (!postgres) throw new Error('no postgres container');
  return podman('exec', postgres, 'psql', '-U', 'special_gift', '-d', 'special_gift', '-tAc', sql);
}

/**
 * A container's log since `since` (RFC 3339), both streams: `podman logs` writes the container's
 * stderr to its own stderr, which {@link podman} leaves out.
 */
export async function containerLog(container: string, since: string): Promise<string> {
  const { stdout, stderr } = await run('podman', ['logs', '--since', since, container], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return `${stdout}${stderr}`;
}

/** The requests an API replica has logged (one JSON line each), since `since` (RFC 3339), if given. */
export async function apiRequests(
  container: string,
  since?: string,
): Promise<{ method: string; path: string; status: number }[]> {
  const logs = await podman('logs', ...(since ? ['--since', since] : []), container);
  return logs
    .split('\n')
    .filter((line) => line.includes('"msg":"request"'))
    .map((line) => JSON.parse(line) as { method: string; path: string; status: number });
}

const XSRF = 'stack-test-xsrf-token';
let card = Math.floor(Math.random() * 1e9) * 1000;
const cardCode = () => makeTestCardCode(6_000_000_000_000 + card++);

/** One sign-up through the host's /api/ proxy, as the browser app sends it: status and body. */
export async function signUp(): Promise<{ status: number; id?: string }> {
  const response = await fetch(`${API_URL}/v1/sign-ups`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'idempotency-key': crypto.randomUUID(),
      cookie: `XSRF-TOKEN=${XSRF}`,
      'x-xsrf-token': XSRF,
      origin: HOST_URL,
    },
    body: JSON.stringify({
      firstName: 'Stack',
      lastName: 'Test',
      email: 'stack@example.com',
      cardCode: cardCode(),
      acceptedTerms: true,
    }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await response.json().catch(() => ({}))) as { id?: string };
  return { status: response.status, id: body.id };
}

/**
 * `clients` loops posting sign-ups until `stop()`: the ids the API acknowledged (201), and how often
 * each other outcome happened.
 */
export async function signUpLoad(
  clients: number,
  stop: () => boolean,
): Promise<{ acknowledged: string[]; failures: Record<string, number> }> {
  const acknowledged: string[] = [];
  const failures: Record<string, number> = {};
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!stop()) {
        try {
          const { status, id } = await signUp();
          if (status === 201 && id) acknowledged.push(id);
          else failures[`http ${status}`] = (failures[`http ${status}`] ?? 0) + 1;
        } catch (error) {
          const what = String((error as Error).cause ?? error);
          failures[what] = (failures[what] ?? 0) + 1;
        }
      }
    }),
  );
  return { acknowledged, failures };
}

/** How many of these sign-up ids the PostgreSQL container holds. */
export async function storedCount(ids: readonly string[]): Promise<number> {
  // In slices: one command-line argument may not pass 128 KiB (E2BIG), about 3,300 ids.
  const SLICE = 1_000;
  let stored = 0;
  for (let start = 0; start < ids.length; start += SLICE) {
    const slice = ids.slice(start, start + SLICE).map((id) => `'${id.replace(/[^0-9a-f-]/g, '')}'`);
    stored += Number(await psql(`SELECT count(*) FROM sign_ups WHERE id IN (${slice.join(',')})`));
  }
  return stored;
}

export const RELEASE_TOOL = 'node --import tsx release-cli/src/cli.ts';

/**
 * `npm run release -- <args>` as a team's CI job runs it: in a container of its own, with the
 * checkout (read-only: the tool and the remote's dist) and only the API's URL, the operator token
 * and the store's credentials. Like a CI runner outside the cluster, it reaches the host and the S3
 * stand-in through their published ports, on the machine's network: it mounts no volume of the
 * remotes (they serve what it publishes from the bucket), and it never joins the stack's network.
 * A container joining or leaving that network makes podman 4.3's DNS server (aardvark-dns 1.4)
 * reload, and after a reload the host's nginx could not resolve the API for 40 s (CI of stop 45;
 * containers/aardvark-dns#389), so the tool's calls through the host got 502s. A cluster's DNS
 * does not reload on a pod's start, and the Kubernetes test reaches the play the same way.
 */
export async function startReleaseTool(where: ReleaseToolTarget): Promise<ReleaseToolContainer> {
  const env = releaseToolEnv(where);
  const checkout = statSync(REPO_ROOT);
  const id = (
    await podman(
      'run',
      '-d',
      '--rm',
      '--network',
      'host',
      // The checkout's owner, who can read it whatever its mode (a fresh clone in `mktemp -d` is
      // 0700): another user, such as the image's `node`, could not even open it.
      '--user',
      `${checkout.uid}:${checkout.gid}`,
      '-v',
      `${REPO_ROOT}:/repo:ro`,
      '-w',
      '/repo',
      ...Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]),
      NODE_IMAGE,
      // Bounded: gone after 10 minutes even if the test never stops it.
      'sleep',
      '600',
    )
  ).trim();
  return {
    run: (...command: string[]) => podman('exec', id, 'sh', '-c', command.join(' ')),
    stop: async () => {
      await podman('rm', '--force', '--time', '0', id).catch(() => undefined);
    },
  };
}

/** One CI job's container, started once and given each command in turn. */
export interface ReleaseToolContainer {
  run(...command: string[]): Promise<string>;
  stop(): Promise<void>;
}

/** Where the release tool publishes (the S3 endpoint) and registers and releases (the host's origin), as it reaches them. */
export interface ReleaseToolTarget {
  readonly s3: string;
  readonly host: string;
  readonly operatorToken: string;
}

/** The release tool's whole environment for a stack: the build store in the S3 stand-in, the API through the host. */
export function releaseToolEnv(where: ReleaseToolTarget): Record<string, string> {
  return {
    SG_BUILD_STORE: 's3://sg-builds/builds',
    AWS_ENDPOINT_URL_S3: where.s3,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    SG_RELEASE_API: `${where.host}/api`,
    SG_HOST_URL: where.host,
    OPERATOR_TOKEN: where.operatorToken,
    USER: 'ci',
  };
}
