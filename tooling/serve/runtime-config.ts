/**
 * The host's `config.json` has one writer: the image's start-up script
 * (deploy/nginx/entrypoint/15-runtime-config.envsh), which validates the environment and writes it.
 * The images run it when the container starts; the browser suite, `npm run up` and the host's dev
 * server run the same script here, from the same variables.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REMOTES, type RemoteName } from '../remotes';
import { REPO_ROOT, type Topology } from './local-topology';

const ENTRYPOINT = join(REPO_ROOT, 'deploy', 'nginx', 'entrypoint', '15-runtime-config.envsh');

/** The variable the start-up script reads a remote's entry URL from. */
export const remoteEntryVariable = (name: RemoteName) => `REMOTE_${name.toUpperCase()}_URL`;

/** A host's environment, as a container of it is given in docker-compose.yml. */
export function hostEnvironment(options: {
  apiUpstream: string;
  remoteEntry: (name: RemoteName) => string;
}): Record<string, string> {
  return {
    APP_KIND: 'host',
    API_UPSTREAM: options.apiUpstream,
    API_BASE: '/api/v1',
    CARD_SCAN_BASE: 'https://www.special-gift.example/scan',
    SITE_BASE: 'https://www.special-gift.example',
    DEFAULT_LANGUAGE: 'en',
    ...Object.fromEntries(
      REMOTES.map((remote) => [remoteEntryVariable(remote.name), options.remoteEntry(remote.name)]),
    ),
  };
}

/** Runs the start-up script as the image does (it writes config.json into STATIC_ROOT) and returns the variables it exports. */
export function runEntrypoint(env: Record<string, string>): Record<string, string> {
  // The nginx image only sources *.envsh files that are executable: fail here as it would there.
  accessSync(ENTRYPOINT, constants.X_OK);
  const out = execFileSync('sh', ['-c', `. "${ENTRYPOINT}" && env`], { env: { PATH: process.env.PATH ?? '', ...env } });
  const exported = Object.fromEntries(
    out
      .toString()
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { ...env, ...exported };
}

/** envsubst as the nginx image runs it: `${NAME}` is replaced only when NAME is set. */
export function renderTemplate(template: string, env: Record<string, string>): string {
  return template.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (match, name: string) => env[name] ?? match);
}

/** The config.json the start-up script writes for a host on loopback with these ports. */
export function localRuntimeConfig(ports: Topology, hostname = 'localhost'): unknown {
  const staticRoot = mkdtempSync(join(tmpdir(), 'special-gift-config-'));
  try {
    runEntrypoint({
      ...hostEnvironment({
        apiUpstream: `http://127.0.0.1:${ports.api}`,
        remoteEntry: (name) => `http://${hostname}:${ports[name]}/remoteEntry.js`,
      }),
      STATIC_ROOT: staticRoot,
      // Only nginx resolves names with it; set so the script needs no /etc/resolv.conf here.
      NGINX_RESOLVER: '127.0.0.1',
    });
    return JSON.parse(readFileSync(join(staticRoot, 'config.json'), 'utf8')) as unknown;
  } finally {
    rmSync(staticRoot, { recursive: true, force: true });
  }
}
