import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { signUpInBrowser } from '../stack/journey';
import { parsePageBuilds } from '@special-gift/shared/composition';
import { readRemoteList } from '../../tooling/remotes/read-remote-list';
import { readProductionDigests } from '../../tooling/deployment/kubernetes/kustomize-layout';
import { SECRET, developmentStandIns, environments } from '../../tooling/deployment/kubernetes/manifests';
import { HOST_URL, REPO_ROOT, apiRequests, podman, releaseToolEnv, signUp, waitUntil } from '../stack/stack';

/** The containers `podman kube play` made of a Deployment's pods: <deployment>-pod-<n>-<container>. */
const played = async (deployment: string, container: string) =>
  (await podman('ps', '--filter', `name=^${deployment}-pod-[0-9]+-${container}$`, '--format', '{{.Names}}'))
    .split('\n')
    .filter(Boolean);

/** The API image's own readiness check (docker-compose.yml's healthcheck), run in a replica. */
const READY =
  "fetch('http://127.0.0.1:3004/v1/ready').then((r) => process.exit(r.ok ? 0 : 1)).catch(() => process.exit(1))";

test.describe('the development overlay played by Podman', () => {
  test.beforeAll(async () => {
    test.setTimeout(200_000);
    // Up when both API replicas answer ready (each restarts until the database accepts connections,
    // as on a cluster), and the host answers the API and composes the page.
    const replicaReady = (container: string) =>
      podman('exec', container, 'node', '-e', READY).then(
        () => true,
        () => false,
      );
    const ms = await waitUntil(
      'the played pods to serve the page and the API',
      async () => {
        const replicas = await played('api', 'api');
        if (replicas.length < 2 || !(await Promise.all(replicas.map(replicaReady))).every(Boolean)) return false;
        const [ready, page] = await Promise.all(
          [`${HOST_URL}/api/v1/ready`, `${HOST_URL}/sign-up`].map((url) =>
            fetch(url, { signal: AbortSignal.timeout(3_000) }).then(
              (response) => response.status,
              () => 0,
            ),
          ),
        );
        return ready === 200 && page === 200;
      },
      180_000,
      1_000,
    );
    console.log(`played overlay serving ${ms} ms after the play`);
  });

  test("two API replicas under the Service's name: sign-ups through the host are served by both", async () => {
    const replicas = await played('api', 'api');
    expect(replicas).toHaveLength(2);
    const since = new Date().toISOString();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await signUp()).status);
    expect(statuses).toEqual(Array(20).fill(201));
    const served = await Promise.all(
      replicas.map(async (name) => (await apiRequests(name, since)).filter((r) => r.method === 'POST').length),
    );
    console.log(`20 sign-ups through the played host: ${replicas.map((name, i) => `${name} ${served[i]}`).join(', ')}`);
    for (const [i, count] of served.entries()) expect(count, replicas[i]).toBeGreaterThan(0);
  });

  test('every played container as the manifests say: read-only root, a non-root user, no capabilities', async () => {
    const names = ['postgres', 'api', 'host', 's3', 'gate-runner'].map((deployment) =>
      played(deployment, deployment === 'host' ? 'nginx' : deployment),
    );
    const containers = (await Promise.all(names)).flat();
    expect(containers.length).toBe(6);
    for (const container of containers) {
      const [readOnly, user, capabilities] = (
        await podman(
          'inspect',
          '--format',
          '{{.HostConfig.ReadonlyRootfs}}|{{.Config.User}}|{{.EffectiveCaps}}',
          container,
        )
      ).split('|');
      expect(readOnly, container).toBe('true');
      expect(user, container).toMatch(/^[1-9][0-9]*:[1-9][0-9]*$/);
      expect(capabilities, container).toBe('[]');
    }
  });

  test("the gate runner's pod reaches the API's Service with its token from the Secret: its health says so", async () => {
    const [runner] = await played('gate-runner', 'gate-runner');
    if (!runner) throw new Error('no played gate-runner container');
    // 200 once a poll of the API succeeded (a wrong token is a 401, and the poll a failure).
    const health = () =>
      podman(
        'exec',
        runner,
        'node',
        '-e',
        "fetch('http://127.0.0.1:3020/health').then(async (r) => process.stdout.write(r.status + ' ' + (await r.text())))",
      );
    await waitUntil('the gate runner to poll the API', async () => (await health()).startsWith('200 '), 60_000, 1_000);
    const log = await podman('logs', runner);
    expect(log).toContain('polling http://api.special-gift-dev.svc.cluster.local:3004 every 5 s');
    expect(log).toMatch(/Chromium \/usr\/bin\/chromium/);
    // And it reaches the site at the origins a developer's browser opens (its forwards to the
    // Services): the host's config.json, and the signup entry that names.
    const reached = await podman(
      'exec',
      runner,
      'node',
      '-e',
      `(async () => {
        const host = process.env.GATE_HOST_URL;
        const entry = (await (await fetch(host + '/config.json')).json()).remotes.signup;
        const answer = await fetch(new URL(entry, host));
        process.stdout.write(host + ' ' + entry + ' ' + answer.status);
      })().catch((error) => process.stdout.write('failed: ' + error));`,
    );
    expect(reached).toMatch(/^http:\/\/localhost:\d+ http:\/\/localhost:\d+\/remoteEntry\.js 200$/);
  });

  test('a person signs up in the browser: composed, hydrated, stored in the PostgreSQL pod', async ({ page }) => {
    const id = await signUpInBrowser(page);
    const [postgres] = await played('postgres', 'postgres');
    if (!postgres) throw new Error('no played postgres container');
    expect(
      await podman(
        'exec',
        postgres,
        'psql',
        '-U',
        'special_gift',
        '-d',
        'special_gift',
        '-tAc',
        `SELECT first_name || ' ' || last_name FROM sign_ups WHERE id = '${id}'`,
      ),
    ).toBe('Maren Container');
  });

  test("a team's CI publishes into the stand-in bucket and releases: a new page loads the build from /builds/ through the remote's nginx", async ({
    page,
  }) => {
    // From this machine, as a team's CI outside the cluster: the object store and the host through
    // their published ports (`kubectl port-forward` on a cluster), the development Secrets' keys.
    // (Not a container on the play's network: when one joined it, the host's lookup of the API
    // timed out once, a 502; Podman's DNS reloads then, which a cluster's does not.)
    const development = environments(readRemoteList(), readProductionDigests()).development;
    const secret = developmentStandIns(development).find((object) => object.metadata.name === SECRET);
    const env = {
      ...process.env,
      ...releaseToolEnv({
        s3: `http://127.0.0.1:${process.env.SG_S3_PORT}`,
        host: HOST_URL,
        operatorToken: (secret?.stringData as Record<string, string>).OPERATOR_TOKEN ?? '',
      }),
    };
    const tool = (...args: string[]) =>
      execFileSync('node', ['--import', 'tsx', 'release-cli/src/cli.ts', ...args], { cwd: REPO_ROOT, env }).toString();
    const published = tool('publish', 'signup', '--dist', 'remote-signup/dist', '--json');
    const { buildId } = JSON.parse(published.split('\n').find((line) => line.startsWith('{')) ?? '{}') as {
      buildId?: string;
    };
    if (!buildId) throw new Error(`the release tool published nothing: ${published}`);
    tool('release', 'signup', buildId, '--reason', 'kube play');
    await waitUntil('pages to compose the released build', async () => {
      const html = await (await fetch(`${HOST_URL}/sign-up`)).text();
      return parsePageBuilds(/data-sg-builds="([^"]*)"/.exec(html)?.[1]).signup === buildId;
    });

    const entryUrl = `http://localhost:${process.env.SG_SIGNUP_PORT}/builds/${buildId}/remoteEntry.js`;
    const loaded: { url: string; status: number }[] = [];
    page.on('response', (response) => loaded.push({ url: response.url(), status: response.status() }));
    await page.goto(`${HOST_URL}/sign-up`);
    await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true', { timeout: 30_000 });
    expect(loaded).toContainEqual({ url: entryUrl, status: 200 });
  });
});
