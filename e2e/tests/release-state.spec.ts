import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { localStateKey, stateKeys, type ReleaseCurrent } from '@special-gift/shared/release-state';
import { pageTokenKeys, parsePageToken } from '@special-gift/shared/telemetry';
import { createPageTokenSigner, hmacBytes } from '../../tooling/composition/page-token-signer';
import { createReleaseStateSource, folderReader, hmacBase64url } from '../../tooling/composition/release-state-source';
import { localRuntimeConfig } from '../../tooling/serve/runtime-config';
import { startStaticServer } from '../../tooling/serve/static-server';
import { PAGE_TOKEN } from '../../tooling/composition/composition';
import { distOf } from '../support/nginx';
import { buildsInHtml, publish, release } from '../support/releases';
import { isPortOpen, stopApp } from '../support/servers';
import { restoreSuiteState } from '../support/suite-state';
import { API_URL, BUILD_STORE_DIR, E2E_OPERATOR_TOKEN, E2E_PAGE_TOKEN_KEY, E2E_PORTS } from '../support/topology';
import { expect, test } from '../support/fixtures';

/**
 * `npm run up`'s composer (tooling/serve/static-server.ts) reads the release state the API writes
 * to the build store (docs/releases.md, "Release state") and signs page tokens itself: with the
 * suite's API, which writes to the suite's store, a release reaches new pages, and pages keep their
 * builds and hashes with the API stopped, a host started during the outage included.
 */
const current = (): ReleaseCurrent | undefined => {
  try {
    return JSON.parse(readFileSync(join(BUILD_STORE_DIR, stateKeys('production').current), 'utf8')) as ReleaseCurrent;
  } catch {
    return undefined;
  }
};

/** A host as serve-app.ts starts it, on a free port, with no cache of anything. */
function startHost(): Promise<Server> {
  return startStaticServer({
    root: distOf('host'),
    port: 0,
    spa: true,
    apiTarget: API_URL,
    config: localRuntimeConfig(E2E_PORTS),
    releaseState: createReleaseStateSource({
      read: folderReader(BUILD_STORE_DIR),
      environment: 'production',
      keys: [localStateKey(E2E_OPERATOR_TOKEN, hmacBase64url)],
    }),
    signPageToken: createPageTokenSigner({
      keys: pageTokenKeys(E2E_PAGE_TOKEN_KEY, E2E_OPERATOR_TOKEN, hmacBytes),
      environment: 'production',
      perMinute: 0,
    }),
  });
}

const origin = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

/** A page view of the Node composer: the page, then its token as the page's collector asks for it. */
async function composed(server: Server) {
  const response = await fetch(`${origin(server)}/sign-up`, { headers: { cookie: 'sg_bucket=42' } });
  const html = await response.text();
  const builds = /data-sg-builds="([^"]*)"/.exec(html)?.[1] ?? '';
  const token = await fetch(`${origin(server)}${PAGE_TOKEN.path}`, {
    headers: { cookie: 'sg_bucket=42', [PAGE_TOKEN.buildsHeader]: builds },
  });
  return {
    builds: buildsInHtml(html),
    integrity: /data-sg-integrity="([^"]*)"/.exec(html)?.[1] ?? '',
    token: await token.text(),
  };
}

test.afterAll(async () => {
  await restoreSuiteState(); // the API started again, signup back on its image build
});

test('a release reaches the Node composer through the build store; with the API stopped, pages keep its builds, hashes and tokens, a host started during the outage too', async () => {
  const buildId = publish('signup', distOf('signup'));
  const before = current()?.serial ?? 0;
  release('release', 'signup', buildId, '--reason', 'e2e: release state through the store');
  // The API answers once the state is in the store (the CLI's answer names it): no waiting here.
  const published = current();
  expect(published?.serial).toBeGreaterThan(before);

  const warm = await startHost();
  try {
    await expect.poll(async () => (await composed(warm)).builds.signup, { timeout: 5_000 }).toBe(buildId);
    const page = await composed(warm);
    expect(page.integrity).toMatch(/(^|,)signup\/remoteEntry\.js=sha384-/); // with the texts, sorted
    expect(parsePageToken(page.token)?.claims.builds).toBe(`signup=${buildId}`);

    await stopApp('api');
    expect(await isPortOpen(E2E_PORTS.api)).toBe(false);
    expect(await composed(warm)).toMatchObject({ builds: { signup: buildId }, integrity: page.integrity });

    // A replica that starts during the outage, with nothing cached, serves the last release.
    const cold = await startHost();
    try {
      const coldPage = await composed(cold);
      expect(coldPage).toMatchObject({ builds: { signup: buildId }, integrity: page.integrity });
      expect(parsePageToken(coldPage.token)?.claims.builds).toBe(`signup=${buildId}`);
    } finally {
      await close(cold);
    }
  } finally {
    await close(warm);
  }
});
