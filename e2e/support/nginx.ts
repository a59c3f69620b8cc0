import { execFileSync } from 'node:child_process';
import { cpSync, type Dirent, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../tooling/serve/local-topology';
import { hostEnvironment, renderTemplate, runEntrypoint } from '../../tooling/serve/runtime-config';
import { REMOTES, type RemoteName } from '../../tooling/remotes';
import { API_URL, BUILD_STORE_DIR, E2E_PORTS, HOST_URL, STATE_DIR, type AppName } from './topology';

/**
 * Serves the static apps with Debian's nginx and exactly the files that go into the images:
 * `deploy/nginx/*.conf.template` rendered like the nginx image renders them (only variables that
 * are set are substituted), the same snippets, and the same entrypoint script for config.json.
 */
export type StaticApp = Exclude<AppName, 'api'>;

const DEPLOY = join(REPO_ROOT, 'deploy', 'nginx');
const DIST: Record<StaticApp, string> = {
  host: join(REPO_ROOT, 'host', 'dist'),
  ...(Object.fromEntries(REMOTES.map((remote) => [remote.name, join(REPO_ROOT, remote.dir, 'dist')])) as Record<
    RemoteName,
    string
  >),
  monolith: join(REPO_ROOT, 'bench', 'monolith', 'dist'),
};
const isRemote = (app: StaticApp): app is RemoteName => REMOTES.some((remote) => remote.name === app);
export const distOf = (app: StaticApp) => DIST[app];

export const wwwRoot = (app: StaticApp) => join(STATE_DIR, 'www', app);
const prefixOf = (app: StaticApp) => join(STATE_DIR, 'nginx', app);

/** The environment a container of this app gets in docker-compose, with the e2e ports. */
export function containerEnv(app: StaticApp, overrides: Record<string, string> = {}): Record<string, string> {
  const common = { PORT: String(E2E_PORTS[app]), STATIC_ROOT: wwwRoot(app) };
  if (isRemote(app))
    return { ...common, APP_KIND: 'remote', HOST_ORIGIN: HOST_URL, BUILD_STORE: join(BUILD_STORE_DIR, app) };
  // The monolith's entries are same-origin and notional: it imports its screens and finds each
  // screen's texts beside its entry, where its build copies them.
  const remoteEntry = (name: RemoteName) =>
    app === 'monolith' ? `/remotes/${name}/remoteEntry.js` : `http://localhost:${E2E_PORTS[name]}/remoteEntry.js`;
  return {
    ...common,
    ...hostEnvironment({ apiUpstream: API_URL, remoteEntry }),
    FRAGMENT_CACHE_DIR: join(prefixOf(app), 'tmp', 'fragments'),
    // The suite signs up far more often than one person would.
    SIGN_UP_RATE_PER_MINUTE: '6000',
    // Every page the suite loads comes from one address; the per-address limit is tested in
    // tooling/nginx-tests/page-token-nginx.test.ts.
    PAGE_TOKENS_PER_MINUTE: '0',
    // The benchmark's baseline is the app before the offline worker (it has no worker script).
    ...(app === 'monolith' ? { SERVICE_WORKER: 'off' } : {}),
    ...overrides,
  };
}

/** Copies a build into the served folder without deleting what is there: an additive deploy. */
export function deployBuild(app: StaticApp, buildDir: string): void {
  const target = wwwRoot(app);
  mkdirSync(target, { recursive: true });
  const entries = readdirSync(buildDir, { recursive: true, withFileTypes: true }).filter(
    (entry) => entry.isFile() && !entry.name.endsWith('.map'),
  );
  // Hashed chunks first, the files that point at them last, so no reader sees a dangling reference.
  // Build times are kept, as an image's COPY keeps them: nginx's ETag is mtime (seconds) and size,
  // so two same-size remoteEntry.js copied within one second would share an ETag and a browser's
  // revalidation would keep the old one.
  const isEntry = (entry: Dirent) =>
    ['mf-manifest.json', 'mf-stats.json', 'remoteEntry.js', 'index.html', 'page.shtml'].includes(entry.name) ||
    /[\\/]prerender([\\/]|$)/.test(entry.parentPath);
  for (const entry of [...entries.filter((e) => !isEntry(e)), ...entries.filter(isEntry)]) {
    const relative = join(entry.parentPath, entry.name).slice(buildDir.length + 1);
    mkdirSync(join(target, relative, '..'), { recursive: true });
    cpSync(join(buildDir, relative), join(target, relative), { preserveTimestamps: true });
  }
}

/** How to run nginx for a prepared app (in the foreground; the harness keeps its pid). */
export function nginxCommand(app: StaticApp): { command: string; args: string[] } {
  const prefix = prefixOf(app);
  return { command: 'nginx', args: ['-p', `${prefix}/`, '-c', 'nginx.conf', '-e', join(prefix, 'logs', 'error.log')] };
}

/**
 * Fresh served folder (the current build) and nginx prefix with the rendered image config;
 * `overrides` change the container's environment (a host's `SERVICE_WORKER=off`).
 */
export function prepareNginx(app: StaticApp, overrides: Record<string, string> = {}): void {
  const prefix = prefixOf(app);
  rmSync(prefix, { recursive: true, force: true });
  for (const dir of ['logs', 'tmp', 'conf.d']) mkdirSync(join(prefix, dir), { recursive: true });
  cpSync(join(DEPLOY, 'snippets'), join(prefix, 'snippets'), { recursive: true });
  cpSync(join(DEPLOY, 'njs'), join(prefix, 'njs'), { recursive: true });

  rmSync(wwwRoot(app), { recursive: true, force: true });
  deployBuild(app, DIST[app]);
  const env = runEntrypoint(containerEnv(app, overrides));
  const template = readFileSync(
    join(DEPLOY, `${app === 'host' || app === 'monolith' ? 'host' : 'remote'}.conf.template`),
    'utf8',
  );
  writeFileSync(join(prefix, 'conf.d', 'app.conf'), renderTemplate(template, env));

  // The image's own nginx.conf (deploy/nginx/nginx.conf) does the same: njs and the page-token key
  // from the environment, mime types, then conf.d/*.conf inside http {}.
  const temp = (name: string) => `${name}_temp_path ${join(prefix, 'tmp', name)};`;
  writeFileSync(
    join(prefix, 'nginx.conf'),
    [
      process.getuid?.() === 0 ? 'user root;' : '',
      'daemon off;',
      'load_module /usr/lib/nginx/modules/ngx_http_js_module.so;',
      'env PAGE_TOKEN_KEY;',
      'worker_processes 1;',
      `pid ${join(prefix, 'logs', 'nginx.pid')};`,
      `error_log ${join(prefix, 'logs', 'error.log')} warn;`,
      'events { worker_connections 256; }',
      'http {',
      '  include /etc/nginx/mime.types;',
      '  default_type application/octet-stream;',
      '  access_log off;',
      '  sendfile on;',
      `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
      '  include conf.d/app.conf;',
      '}',
      '',
    ].join('\n'),
  );
  checkNginxConfig(app);
}

/**
 * The lines of an app's nginx error log (since its last restart) that name a failed request for
 * `path`, a browser's or a subrequest: `/_sg_page_token` for a page view that went without its
 * token because nginx failed to sign it (an njs error); a token refused (past the limit, a preview,
 * no key, builds no longer served) logs nothing at this level.
 */
export function requestErrors(app: StaticApp, path: string): string[] {
  const file = join(prefixOf(app), 'logs', 'error.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(
      (line) =>
        line.includes('[error]') && (line.includes(`subrequest: "${path}"`) || line.includes(`request: "GET ${path} `)),
    );
}

/** `nginx -t` on the rendered config: a broken template fails set-up with nginx's own message. */
export function checkNginxConfig(app: StaticApp): void {
  const prefix = prefixOf(app);
  execFileSync('nginx', ['-t', '-q', '-p', `${prefix}/`, '-c', 'nginx.conf', '-e', join(prefix, 'logs', 'error.log')], {
    stdio: 'pipe',
  });
}
