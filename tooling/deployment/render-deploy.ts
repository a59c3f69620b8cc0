/**
 * Every list of remotes in deploy/ and docker-compose.yml, generated from tooling/remotes/remotes.json into
 * marked regions of the hand-written files: the host's nginx template (preload hints, the
 * per-remote fragment and screen-file locations), the start-up script's list, the compose services,
 * the gate runner's forwards and the Dockerfiles' workspace manifests. `npm run generate` rewrites the regions; a unit
 * test fails while one is stale, and another builds them all from a list with a fourth remote.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildVariable } from '../composition/render-nginx';
import { readRemoteList, type RemoteEntry } from '../remotes/read-remote-list';

const ROOT = join(__dirname, '..', '..');

/** The files with generated regions, and the region names each holds. */
export const DEPLOY_FILES = {
  'deploy/nginx/host.conf.template': ['preload hints', 'screen files locations', 'fragment locations'],
  'deploy/nginx/entrypoint/15-runtime-config.envsh': ['remotes'],
  'docker-compose.yml': ['host remotes', 'host depends on remotes', 'remote services', 'gate runner forwards'],
  'deploy/static-app.Dockerfile': ['workspace manifests'],
  'deploy/api.Dockerfile': ['workspace manifests', 'workspace manifests (runtime)'],
  'deploy/gate-runner.Dockerfile': ['workspace manifests', 'workspace manifests (runtime)'],
} as const;

/** The nginx variable of the entry the page preloads for a remote. */
const entryVariable = (remote: RemoteEntry) => `${buildVariable(remote.name)}_entry`;

/** The environment variable of a remote's setting: REMOTE_<NAME>_<what>. */
const variable = (remote: RemoteEntry, what: string) => `REMOTE_${remote.name.toUpperCase()}_${what}`;
/** The compose variable that publishes a remote's port (the test stack moves every port). */
const portVariable = (remote: RemoteEntry) => `SG_${remote.name.toUpperCase()}_PORT`;

/** The npm workspaces whose manifests the Dockerfiles copy before `npm install`. */
export const workspaces = (remotes: readonly RemoteEntry[]) => [
  'shared',
  'host',
  ...remotes.map((remote) => remote.dir),
  'api',
  'release-cli',
  'gate-runner',
];

/** The `; integrity="…"` parameter of a remote's preload hint, from the page's `$sg_integrity`. */
const integrityVariable = (remote: RemoteEntry) => `sg_entry_integrity_${remote.name.replace(/-/g, '_')}`;

export function regionLines(region: string, remotes: readonly RemoteEntry[]): string[] {
  switch (region) {
    case 'preload hints':
      // The remote that renders the requested page ($sg_screen, snippets/composition.conf), as a
      // preload hint sent with the page: the browser fetches its remoteEntry.js alongside main.js.
      // The entry of the build in the page's snapshot, else the remote's own.
      return [
        'map $sg_screen $first_screen_preload {',
        '    default "";',
        // crossorigin: the runtime fetches entries with CORS (host/src/services/remotes), and a preload must match.
        // integrity: the one the runtime sets on a released build's entry (docs/security.md), so the
        // preloaded response is used, not fetched again; none for an image build.
        ...remotes.map(
          (remote) =>
            `    ${remote.name} "<$${entryVariable(remote)}>; rel=preload; as=script; crossorigin=anonymous$${integrityVariable(remote)}";`,
        ),
        '}',
        ...remotes.flatMap((remote) => [
          `map $sg_integrity $${integrityVariable(remote)} {`,
          `    "~(^|,)${remote.name}/remoteEntry\\.js=(?<${integrityVariable(remote)}_sri>sha384-[A-Za-z0-9+/]{64})" '; integrity="$${integrityVariable(remote)}_sri"';`,
          '    default "";',
          '}',
        ]),
        ...remotes.flatMap((remote) => [
          `map $${buildVariable(remote.name)} $${entryVariable(remote)} {`,
          `    "" "\${${variable(remote, 'URL')}}";`,
          `    default "\${${variable(remote, 'PUBLIC_BASE')}}/builds/$${buildVariable(remote.name)}/remoteEntry.js";`,
          '}',
        ]),
      ];
    case 'fragment locations':
      // In the composing server (host.conf.template). A variable in proxy_pass (the captured path) makes nginx resolve the remote's name per
      // request, through `resolver`: a rolled remote's new address is used within its validity.
      return remotes.flatMap((remote) => [
        `# ${remote.name}'s prerendered screen, fetched when a page is composed (never by browsers).`,
        `location ^~ /_screen/${remote.name}/ {`,
        `    location ~ ^/_screen/${remote.name}/(?<sg_path>.*)$ {`,
        // From the build in the page's snapshot (its folder, else the remote's root), keyed by it.
        `        set $sg_screen_files /_screen-files/${remote.name}$${buildVariable(remote.name)}_dir;`,
        `        set $sg_fragment \${${variable(remote, 'FRAGMENT_BASE')}}$${buildVariable(remote.name)}_dir/prerender/$sg_path;`,
        '        proxy_pass $sg_fragment;',
        '        proxy_cache_key $sg_fragment;',
        '        include snippets/fragment-proxy.conf;',
        '    }',
        '}',
      ]);
    case 'screen files locations':
      return remotes.flatMap((remote) => [
        `# ${remote.name}'s files through the host (the screen's stylesheet the page links).`,
        `location ^~ /_screen-files/${remote.name}/ {`,
        `    location ~ ^/_screen-files/${remote.name}/(?<sg_path>.*)$ {`,
        `        proxy_pass \${${variable(remote, 'FRAGMENT_BASE')}}/$sg_path$is_args$args;`,
        '        include snippets/screen-files-proxy.conf;',
        '    }',
        '}',
      ]);
    case 'remotes':
      return [`SG_REMOTES="${remotes.map((remote) => remote.name).join(' ')}"`];
    case 'host remotes':
      return remotes.flatMap((remote) => [
        `${variable(remote, 'URL')}: http://localhost:\${${portVariable(remote)}:-${remote.localPort}}/remoteEntry.js`,
        // Where the host's server fetches the remote's prerendered screen: inside this network.
        `${variable(remote, 'FRAGMENT_BASE')}: http://${remote.name}:8080`,
      ]);
    case 'host depends on remotes':
      return remotes.map((remote) => `${remote.name}: { condition: service_started }`);
    case 'remote services':
      return remotes
        .flatMap((remote) => [
          `${remote.name}:`,
          '  <<: *static-app',
          '  build:',
          '    context: .',
          '    dockerfile: deploy/static-app.Dockerfile',
          `    args: { APP_DIR: ${remote.dir}, APP_KIND: remote }`,
          `  image: special-gift/${remote.dir}`,
          `  ports: ["127.0.0.1:\${${portVariable(remote)}:-${remote.localPort}}:8080"]`,
          '  environment:',
          '    <<: *remote-env',
          // Its published builds: the bucket's objects under the remote's prefix (docs/releases.md).
          `    BUILDS_ORIGIN: http://s3:4568/sg-builds/builds/${remote.name}`,
          '  depends_on:',
          '    s3: { condition: service_started }',
          '',
        ])
        .slice(0, -1);
    case 'gate runner forwards':
      // The origins the pages name are this machine's published ports: inside its container, the
      // gate runner's 127.0.0.1 forwards each to its service (deploy/gate-runner-entrypoint.sh).
      return [
        `GATE_LOCAL_FORWARDS: "${['${SG_HOST_PORT:-3000}=host:8080', ...remotes.map((remote) => `\${${portVariable(remote)}:-${remote.localPort}}=${remote.name}:8080`)].join(' ')}"`,
      ];
    case 'workspace manifests':
    case 'workspace manifests (runtime)':
      return workspaces(remotes).map((dir) => `COPY ${dir}/package.json ${dir}/`);
    default:
      throw new Error(`no generated region "${region}"`);
  }
}

const begin = (region: string) =>
  `# >>> generated from tooling/remotes/remotes.json by \`npm run generate\`, do not edit: ${region}`;
const end = (region: string) => `# <<< end of generated: ${region}`;

/** The file's text with each of its regions (between the markers, indented as the first) generated. */
export function renderFile(text: string, regions: readonly string[], remotes: readonly RemoteEntry[]): string {
  return regions.reduce((current, region) => {
    const lines = current.split('\n');
    const start = lines.findIndex((line) => line.trim() === begin(region));
    const stop = lines.findIndex((line, index) => index > start && line.trim() === end(region));
    if (start < 0 || stop < 0) throw new Error(`the markers of the generated region "${region}" are missing`);
    const indent = /^\s*/.exec(lines[start] ?? '')?.[0] ?? '';
    const body = regionLines(region, remotes).map((line) => (line === '' ? '' : indent + line));
    return [...lines.slice(0, start + 1), ...body, ...lines.slice(stop)].join('\n');
  }, text);
}

export const renderDeployFile = (file: keyof typeof DEPLOY_FILES, remotes: readonly RemoteEntry[] = readRemoteList()) =>
  renderFile(readFileSync(join(ROOT, file), 'utf8'), DEPLOY_FILES[file], remotes);
