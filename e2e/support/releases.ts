import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { parsePageBuilds, PAGE_BUILDS_ATTRIBUTE } from '@special-gift/shared/composition';
import { REPO_ROOT } from '../../tooling/serve/local-topology';
import { API_URL, BUILD_STORE_DIR, E2E_OPERATOR_TOKEN, HOST_URL } from './topology';

/** The environment a team's release commands get, pointed at the suite's servers. */
const RELEASE_ENV = {
  ...process.env,
  SG_RELEASE_API: API_URL,
  SG_BUILD_STORE: BUILD_STORE_DIR,
  SG_HOST_URL: HOST_URL,
  OPERATOR_TOKEN: E2E_OPERATOR_TOKEN,
};

/** `npm run release -- <args>` as a team runs it (docs/releases.md); throws with its message when refused. */
export function release(...args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'release-cli', 'src', 'cli.ts'), ...args], {
    cwd: REPO_ROOT,
    env: RELEASE_ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Publishes a remote's build and returns its id. */
export function publish(remote: string, dist: string): string {
  const { buildId } = JSON.parse(release('publish', remote, '--dist', dist, '--json')) as { buildId: string };
  return buildId;
}

/** The API's release endpoints directly: the flip test moves the pointer faster than a command starts. */
export async function releaseNow(remote: string, buildId: string): Promise<void> {
  const headers = { Authorization: `Bearer ${E2E_OPERATOR_TOKEN}`, 'Content-Type': 'application/json' };
  const state = (await (await fetch(`${API_URL}/v1/releases/remotes/${remote}`, { headers })).json()) as {
    revision: number;
  };
  const response = await fetch(`${API_URL}/v1/releases/remotes/${remote}/actions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      action: 'release',
      buildId,
      expectedRevision: state.revision,
      reason: 'flip test',
    }),
  });
  if (!response.ok) throw new Error(`release ${buildId}: ${response.status} ${await response.text()}`);
}

/** The builds a page was composed with (its `<html data-sg-builds>`). */
export async function pageBuilds(page: Page): Promise<Record<string, string>> {
  return parsePageBuilds(await page.locator('html').getAttribute(PAGE_BUILDS_ATTRIBUTE));
}

/** The builds in a composed page's HTML. */
export function buildsInHtml(html: string): Record<string, string> {
  return parsePageBuilds(new RegExp(`${PAGE_BUILDS_ATTRIBUTE}="([^"]*)"`).exec(html)?.[1]);
}
