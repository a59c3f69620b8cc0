import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { HOST_URL, NODE_IMAGE, PROJECT, REPO_ROOT, composeUp, containers, inspect, podman, waitUntil } from './stack';

const IMAGE = 'special-gift/remote-signup';
const networkOf = async (container: string) =>
  inspect(container, '{{range $name, $n := .NetworkSettings.Networks}}{{$name}}{{end}}');
const addressOf = async (container: string) =>
  inspect(container, '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}');

/** The repo's files (tracked and new, not ignored) with the sign-up screen's lead text changed: a new build. */
function changedSource(lead: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-roll-'));
  execFileSync('sh', ['-c', `git ls-files -z -co --exclude-standard | tar -c --null -T - | tar -x -C "${dir}"`], {
    cwd: REPO_ROOT,
  });
  const texts = join(dir, 'remote-signup', 'public', 'assets', 'i18n', 'en.json');
  writeFileSync(texts, JSON.stringify({ ...(JSON.parse(readFileSync(texts, 'utf8')) as object), lead }));
  return dir;
}

test('the signup container rolled to a new image while the host runs: new pages compose the new build, the host is not restarted', async ({
  page,
  request,
}) => {
  test.setTimeout(600_000);
  const [host] = await containers('host');
  const [signup] = await containers('signup');
  if (!host || !signup) throw new Error('no host or signup container');
  const hostBefore = await inspect(host, '{{.Id}} {{.State.StartedAt}} {{.RestartCount}}');

  const lead = `Register your card, build ${Date.now()}.`;
  const source = changedSource(lead);
  const builtAt = Date.now();
  try {
    const secret = process.env.SG_BUILD_SECRET;
    await podman(
      'build',
      '--quiet',
      '--layers',
      '--pull=never',
      ...(secret ? ['--secret', `id=npm_ca,src=${secret}`] : []),
      '-f',
      'deploy/static-app.Dockerfile',
      '--build-arg',
      'APP_DIR=remote-signup',
      '--build-arg',
      'APP_KIND=remote',
      '-t',
      IMAGE,
      source,
    );
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
  const buildSeconds = (Date.now() - builtAt) / 1000;

  // The roll: the old container goes, compose starts the service again from the new image. Its old
  // address is held by a placeholder meanwhile, so the new container surely gets another one, as it
  // may in any real roll.
  const network = await networkOf(signup);
  const oldAddress = await addressOf(signup);
  await podman('rm', '--force', '--time', '2', signup);
  await podman(
    'run',
    '--detach',
    '--name',
    `${PROJECT}_placeholder`,
    '--label',
    `io.podman.compose.project=${PROJECT}`,
    '--network',
    network,
    '--ip',
    oldAddress,
    '--user',
    'node',
    NODE_IMAGE,
    'sleep',
    'infinity',
  );
  const rolledAt = Date.now();
  await composeUp(['signup'], { noDeps: true });
  const [rolled] = await containers('signup');
  if (!rolled) throw new Error('the signup service did not start again');
  expect(await addressOf(rolled)).not.toBe(oldAddress);

  // Composed by the host's server from the new container: the new text is in the page's HTML.
  const composedMs = await waitUntil(
    'the host to compose the new build',
    async () =>
      (await (await request.get(`${HOST_URL}/sign-up`, { headers: { 'Accept-Language': 'en' } })).text()).includes(
        lead,
      ),
    30_000,
    250,
  );
  console.log(
    `roll: new signup image built in ${buildSeconds.toFixed(1)} s; ${oldAddress} -> ${await addressOf(rolled)}; the host composed the new build ${((Date.now() - rolledAt) / 1000).toFixed(1)} s after the roll (${composedMs} ms after the first try)`,
  );

  await page.goto('/sign-up');
  await expect(page.getByText(lead)).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-interactive', 'true', { timeout: 30_000 });
  await expect(page.getByText(lead)).toBeVisible();

  expect(await inspect(host, '{{.Id}} {{.State.StartedAt}} {{.RestartCount}}')).toBe(hostBefore);
});
