import { expect, test } from '@playwright/test';
import { containers, defaultServices, healthy, inspect, podman } from './stack';

test.describe('the containers of docker-compose.yml', () => {
  test('each service runs, the API with two replicas, and every healthcheck passes', async () => {
    for (const service of defaultServices()) {
      const names = await containers(service);
      expect(names, service).toHaveLength(service === 'api' ? 2 : 1);
      for (const name of names) {
        expect(await inspect(name, '{{.State.Status}}'), name).toBe('running');
        expect(await healthy(name), `${name}'s healthcheck`).toBe(true);
        expect(await inspect(name, '{{.State.Health.Status}}'), name).toBe('healthy');
      }
    }
  });

  test('every process of every container runs as a user other than root', async () => {
    for (const name of await containers()) {
      const configured = await inspect(name, '{{.Config.User}}');
      expect(configured, `${name}'s user`).not.toMatch(/^(|root|0)(:.*)?$/);
      // Every process, PID 1 included, by the container's own user names.
      const users = (await podman('top', name, 'user'))
        .split('\n')
        .slice(1)
        .map((line) => line.trim());
      expect(users.length, name).toBeGreaterThan(0);
      expect(
        users.filter((user) => user === 'root' || user === '0'),
        `${name}'s processes`,
      ).toEqual([]);
    }
  });
});
