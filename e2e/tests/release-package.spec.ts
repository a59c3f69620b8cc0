import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { AuditEntry, ReleasePointer } from '@special-gift/shared/api';
import { distOf } from '../support/nginx';
import { buildsInHtml, release } from '../support/releases';
import { API_URL, BUILD_STORE_DIR, HOST_URL } from '../support/topology';
import { REPO_ROOT } from '../../tooling/serve/local-topology';

/**
 * A team that keeps its screen in a repository of its own (docs/releases.md, "From a team's CI"):
 * its CI installs the packed release tool (`npm pack` of release-cli/) into an empty folder, and
 * with only a token of its remote, the API's URL and the build store, publishes its dist and
 * releases it against the suite's API, build store and host. No page: the host's HTML says which
 * build new pages get.
 */
test.describe.configure({ mode: 'serial' });

/** npm and the tool without the npm_* variables `npx playwright` runs under (its prefix is this checkout). */
const cleanEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name))),
  ...extra,
});

let work = '';
let team = '';
let deployerToken = '';

/** The installed `sg-release`, run in the team's folder with the CI's environment alone. */
function sgRelease(...args: string[]) {
  const env = cleanEnv({
    CI: 'true',
    SG_RELEASE_API: API_URL,
    SG_RELEASE_TOKEN: deployerToken,
    SG_BUILD_STORE: BUILD_STORE_DIR,
    SG_HOST_URL: HOST_URL,
  });
  delete env.OPERATOR_TOKEN;
  return spawnSync(join(team, 'node_modules', '.bin', 'sg-release'), args, { cwd: team, env, encoding: 'utf8' });
}

test.beforeAll(() => {
  test.setTimeout(180_000);
  work = mkdtempSync(join(tmpdir(), 'sg-release-package-'));
  // The package as a release would ship it: `prepack` bundles it (release-cli/package.json).
  execFileSync('npm', ['pack', '-w', 'release-cli', '--pack-destination', work], {
    cwd: REPO_ROOT,
    env: cleanEnv({}),
    stdio: 'pipe',
  });
  const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
  expect(tarball).toMatch(/^special-gift-release-\d+\.\d+\.\d+\.tgz$/);
  team = join(work, 'team-ci');
  cpSync(distOf('signup'), join(team, 'dist'), { recursive: true });
  execFileSync(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', join(work, tarball ?? '')],
    { cwd: team, env: cleanEnv({}), stdio: 'pipe' },
  );
  // The operator gives the team its token once, as an admin does (docs/access.md).
  const created = JSON.parse(
    release('token', 'create', 'signup', '--role', 'deployer', '--name', 'signup team CI', '--json'),
  ) as { token: string };
  deployerToken = created.token;
});

test.afterAll(() => {
  // The remote back on its image build, as the other specs expect.
  release('detach', 'signup', '--reason', 'e2e: back to the image build');
  if (work !== '') rmSync(work, { recursive: true, force: true });
});

test('the packed tool installs alone: its bundle, its manifest and the AWS SDK, nothing of the monorepo', () => {
  const installed = join(team, 'node_modules', '@special-gift', 'release');
  expect(readdirSync(installed).sort()).toEqual(['dist', 'package.json']);
  expect(readdirSync(join(installed, 'dist'))).toEqual(['sg-release.js']);
  expect(existsSync(join(team, 'node_modules', '@aws-sdk', 'client-s3'))).toBe(true);
  expect(readdirSync(join(team, 'node_modules', '@special-gift'))).toEqual(['release']);
});

test("a team's CI publishes its dist and releases it with the packed tool; new pages get the build", async () => {
  const published = sgRelease('publish', 'signup', '--dist', 'dist', '--json');
  expect(published.stderr).toBe('');
  expect(published.status).toBe(0);
  const { buildId, registered } = JSON.parse(published.stdout) as { buildId: string; registered: string };
  expect(buildId).toMatch(/^[0-9a-f]{12}$/);
  expect(['created', 'existing']).toContain(registered);
  expect(existsSync(join(BUILD_STORE_DIR, 'signup', buildId, 'remoteEntry.js'))).toBe(true);

  const released = sgRelease('release', 'signup', buildId, '--reason', 'team CI: release');
  expect(released.stderr).toBe('');
  expect(released.status).toBe(0);
  // The suite's API writes the release state to the build store: the tool waits until it is there.
  expect(released.stdout).toMatch(
    new RegExp(`^signup: live ${buildId} \\(revision \\d+, state \\d+, served to new pages within 2 s\\)\\n$`),
  );

  const history = sgRelease('history', 'signup', '--json');
  expect((JSON.parse(history.stdout) as { pointer: ReleasePointer | null }).pointer?.live).toBe(buildId);
  const html = await (await fetch(`${HOST_URL}/sign-up`)).text();
  expect(buildsInHtml(html).signup).toBe(buildId);
  // Recorded under the team's token, from CI; the tool wrote nothing into the team's folder.
  const [last] = JSON.parse(release('audit', 'signup', '--json')) as AuditEntry[];
  expect(last).toMatchObject({ action: 'release', tokenName: 'signup team CI', channel: 'ci' });
  expect(readdirSync(team).sort()).toEqual(['dist', 'node_modules', 'package-lock.json', 'package.json']);
});

test('the packed tool reads the telemetry report and refuses a command line it cannot read', () => {
  const report = sgRelease('telemetry', 'report', '--remote', 'signup');
  expect(report.stderr).toBe('');
  expect(report.status).toBe(0);
  expect(report.stdout).toMatch(/^Telemetry from \S+ to \S+ \(1h\)\n/);

  const refused = sgRelease('canary', 'signup', 'c0ffee000001', '--percent');
  expect(refused.status).toBe(2);
  expect(refused.stderr).toMatch(/^release: Option '--percent <value>' argument missing\n\nUsage: sg-release/);
});
