import { composeUp, containers, defaultServices, healthy, waitUntil } from './stack';

/**
 * Starts the stack from docker-compose.yml with podman-compose (its images are built by
 * stack.sh; tooling/containers/stack.sh removes everything afterwards), with the tests' settings
 * on top ({@link writeStackSettings}), then waits until every container passes its own healthcheck.
 */
export default async function startStack(): Promise<void> {
  const started = Date.now();
  await composeUp(defaultServices());
  const names = await containers();
  await Promise.all(
    names.map((name) => waitUntil(`${name} to pass its healthcheck`, () => healthy(name), 180_000, 1_000)),
  );
  console.log(
    `stack started: ${names.length} containers up and healthy in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
