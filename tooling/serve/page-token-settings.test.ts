/**
 * The host image's start-up script (deploy/nginx/entrypoint/15-runtime-config.envsh) on the page
 * token's settings (docs/telemetry.md): the rules of the API and the state agent, checked at start
 * (a bad value stops the container with the reason), and the key kept out of the rendered config.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './local-topology';
import { hostEnvironment, renderTemplate, runEntrypoint } from './runtime-config';

let staticRoot: string;
beforeAll(() => {
  staticRoot = mkdtempSync(join(tmpdir(), 'sg-page-token-settings-'));
});
afterAll(() => rmSync(staticRoot, { recursive: true, force: true }));

const start = (more: Record<string, string>) =>
  runEntrypoint({
    ...hostEnvironment({
      apiUpstream: 'http://127.0.0.1:3004',
      remoteEntry: (name) => `http://localhost:1/${name}/remoteEntry.js`,
    }),
    STATIC_ROOT: staticRoot,
    NGINX_RESOLVER: '127.0.0.1',
    ...more,
  });

it('defaults to production and 60 tokens an address a minute (60 at once, then one a second)', () => {
  expect(start({})).toMatchObject({
    RELEASE_ENVIRONMENT: 'production',
    PAGE_TOKEN_RATE_PER_MINUTE: '60',
    PAGE_TOKEN_LIMIT: 'limit_req zone=sg_page_tokens burst=59 nodelay;',
  });
});

it('sets no limit for PAGE_TOKENS_PER_MINUTE=0, as the API', () => {
  expect(start({ PAGE_TOKENS_PER_MINUTE: '0' })).toMatchObject({
    PAGE_TOKEN_RATE_PER_MINUTE: '1',
    PAGE_TOKEN_LIMIT: '# PAGE_TOKENS_PER_MINUTE=0: no limit',
  });
});

it.each([
  [{ PAGE_TOKEN_KEY: 'short' }, /PAGE_TOKEN_KEY must be at least 32 characters/],
  [{ PAGE_TOKEN_KEY: `${'k'.repeat(32)},short` }, /PAGE_TOKEN_KEY must be at least 32 characters/],
  [{ RELEASE_ENVIRONMENT: 'Production' }, /RELEASE_ENVIRONMENT must be a lower-case name/],
  [{ PAGE_TOKENS_PER_MINUTE: '-1' }, /PAGE_TOKENS_PER_MINUTE must be a whole number/],
  [{ PAGE_TOKENS_PER_MINUTE: '60;' }, /PAGE_TOKENS_PER_MINUTE must be a whole number/],
])('refuses to start with %p', (settings, reason) => {
  expect(() => start(settings)).toThrow(reason);
});

it('renders the host config without the key: nginx reads it from its environment', () => {
  const key = 'k'.repeat(32);
  const env = start({ PAGE_TOKEN_KEY: `${key},${'n'.repeat(32)}`, RELEASE_ENVIRONMENT: 'staging' });
  const config = renderTemplate(readFileSync(join(REPO_ROOT, 'deploy', 'nginx', 'host.conf.template'), 'utf8'), env);
  expect(config).not.toContain(key);
  expect(config).toContain('set $sg_page_token_environment staging;');
  expect(config).toContain('limit_req zone=sg_page_tokens burst=59 nodelay;');
  expect(config).not.toMatch(/\$\{(PAGE_TOKEN|RELEASE_ENVIRONMENT)/);
});
