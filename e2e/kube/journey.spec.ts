import { expect, test } from '@playwright/test';
import { signUpInBrowser } from '../stack/journey';
import { podman, waitUntil } from '../stack/stack';

const HOST_URL = process.env.SG_KUBE_HOST_URL ?? 'http://localhost:6350';

/** The containers `podman kube play` made of a Deployment's pods: <deployment>-pod-<n>-<container>. */
const played = async (deployment: string, container: string) =>
  (await podman('ps', '--filter', `name=^${deployment}-pod-[0-9]+-${container}$`, '--format', '{{.Names}}'))
    .split('\n')
    .filter(Boolean);

test.describe('the development overlay played by Podman', () => {
  test.beforeAll(async () => {
    // Up when the API answers ready through the host (the database migrated) and the page composes.
    const ms = await waitUntil(
      'the played pods to serve the page and the API',
      async () => {
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

  test('two API replicas, each the other pods reach by the Service name', async () => {
    expect(await played('api', 'api')).toHaveLength(2);
  });

  test('every played container as the manifests say: read-only root, a non-root user, no capabilities', async () => {
    const names = ['postgres', 'api', 'host'].map((deployment) =>
      played(deployment, deployment === 'host' ? 'nginx' : deployment),
    );
    const containers = (await Promise.all(names)).flat();
    expect(containers.length).toBe(4);
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
});
