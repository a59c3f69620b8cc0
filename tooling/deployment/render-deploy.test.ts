import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readRemoteList, type RemoteEntry } from '../remotes/read-remote-list';
import { DEPLOY_FILES, renderDeployFile, workspaces } from './render-deploy';

const ROOT = join(__dirname, '..', '..');
const FILES = Object.keys(DEPLOY_FILES) as (keyof typeof DEPLOY_FILES)[];
const REMOTES = readRemoteList();
const FOURTH: RemoteEntry = { name: 'gift', dir: 'remote-gift', localPort: 3009, route: '/gift' };
const FOUR = [...REMOTES, FOURTH];

interface ComposeService {
  build?: { args?: Record<string, string> };
  image?: string;
  ports?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, unknown>;
}
const composeOf = (text: string) => parse(text, { merge: true }) as { services: Record<string, ComposeService> };

/** The start-up script, sourced as the image sources it, with these remotes' entries: what it exports and writes. */
function runStartUpScript(script: string, remotes: readonly RemoteEntry[]) {
  const dir = mkdtempSync(join(tmpdir(), 'sg-envsh-'));
  try {
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      APP_KIND: 'host',
      STATIC_ROOT: dir,
      API_UPSTREAM: 'http://api:3004',
      CARD_SCAN_BASE: 'https://x.example/scan',
      SITE_BASE: 'https://x.example',
      NGINX_RESOLVER: '10.0.0.1',
    };
    for (const remote of remotes)
      env[`REMOTE_${remote.name.toUpperCase()}_URL`] = `http://localhost:${remote.localPort}/remoteEntry.js`;
    const exported = execFileSync('sh', ['-c', `${script}\nenv`], { env, stdio: 'pipe' }).toString();
    return {
      exported,
      config: JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as { remotes: Record<string, string> },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the deploy lists of remotes', () => {
  it.each(FILES)('%s is what tooling/remotes/remotes.json generates (run `npm run generate`)', (file) => {
    expect(readFileSync(join(ROOT, file), 'utf8')).toBe(renderDeployFile(file));
  });

  it('the Dockerfiles copy the manifest of every npm workspace, and only those', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
    // npm's patterns (`remote-*`) as npm expands them: the folders they match that have a package.json.
    const folders = readdirSync(ROOT).filter((dir) => existsSync(join(ROOT, dir, 'package.json')));
    const patternOf = (workspace: string) => new RegExp(`^${workspace.replace(/\*/g, '[^/]*')}$`);
    const expanded = folders.filter((dir) => manifest.workspaces.some((workspace) => patternOf(workspace).test(dir)));
    expect([...workspaces(REMOTES)].sort()).toEqual(expanded.sort());
  });

  describe('built from a remotes.json with a fourth entry', () => {
    it('the host nginx template hints, fetches and proxies the fourth remote', () => {
      const template = renderDeployFile('deploy/nginx/host.conf.template', FOUR);
      expect(template).toContain(
        'gift "<$sg_build_gift_entry>; rel=preload; as=script; crossorigin=anonymous$sg_entry_integrity_gift";',
      );
      expect(template).toContain('"~(^|,)gift/remoteEntry\\.js=(?<sg_entry_integrity_gift_sri>sha384-');
      expect(template).toContain('default "${REMOTE_GIFT_PUBLIC_BASE}/builds/$sg_build_gift/remoteEntry.js";');
      expect(template).toContain('set $sg_fragment ${REMOTE_GIFT_FRAGMENT_BASE}$sg_build_gift_dir/prerender/$sg_path;');
      expect(template).toContain('location ^~ /_screen-files/gift/ {');
      for (const remote of REMOTES) expect(template).toContain(`location ^~ /_screen/${remote.name}/ {`);
    });

    it('the start-up script validates, exports and writes all four remotes', () => {
      const { exported, config } = runStartUpScript(
        renderDeployFile('deploy/nginx/entrypoint/15-runtime-config.envsh', FOUR),
        FOUR,
      );
      expect(Object.keys(config.remotes)).toEqual(FOUR.map((remote) => remote.name));
      // Fetched by nginx, whose resolver does not read /etc/hosts: localhost by its address.
      expect(exported).toContain('REMOTE_GIFT_FRAGMENT_BASE=http://127.0.0.1:3009');
      expect(exported).toContain(
        'REMOTE_ORIGINS=http://localhost:3001 http://localhost:3002 http://localhost:3003 http://localhost:3009',
      );
      // Without the fourth entry's URL, the script refuses to start.
      expect(() =>
        runStartUpScript(renderDeployFile('deploy/nginx/entrypoint/15-runtime-config.envsh', FOUR), REMOTES),
      ).toThrow();
    });

    it('docker-compose.yml has a service for the fourth remote, and the host knows it', () => {
      const { services } = composeOf(renderDeployFile('docker-compose.yml', FOUR));
      expect(services.gift).toMatchObject({
        image: 'special-gift/remote-gift',
        build: { args: { APP_DIR: 'remote-gift', APP_KIND: 'remote' } },
        ports: ['127.0.0.1:${SG_GIFT_PORT:-3009}:8080'],
      });
      expect(services.gift?.environment).toMatchObject({ APP_KIND: 'remote' });
      expect(services.host?.environment).toMatchObject({
        REMOTE_GIFT_URL: 'http://localhost:${SG_GIFT_PORT:-3009}/remoteEntry.js',
        REMOTE_GIFT_FRAGMENT_BASE: 'http://gift:8080',
      });
      expect(Object.keys(services.host?.depends_on ?? {})).toEqual(
        expect.arrayContaining(FOUR.map((remote) => remote.name)),
      );
      // The gate runner's Chromium reaches the fourth remote's published origin too.
      expect(services['gate-runner']?.environment?.GATE_LOCAL_FORWARDS?.split(' ')).toEqual([
        '${SG_HOST_PORT:-3000}=host:8080',
        ...FOUR.map((remote) => `\${SG_${remote.name.toUpperCase()}_PORT:-${remote.localPort}}=${remote.name}:8080`),
      ]);
    });

    it('every Dockerfile copies the fourth workspace manifest', () => {
      expect(renderDeployFile('deploy/static-app.Dockerfile', FOUR)).toContain(
        'COPY remote-gift/package.json remote-gift/\n',
      );
      for (const file of ['deploy/api.Dockerfile', 'deploy/gate-runner.Dockerfile'] as const)
        expect(renderDeployFile(file, FOUR).match(/COPY remote-gift\/package\.json/g)).toHaveLength(2);
    });
  });

  it('the committed docker-compose.yml builds a remote image for each remote, and no other', () => {
    const { services } = composeOf(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'));
    const remoteServices = Object.entries(services).filter(([, service]) => service.build?.args?.APP_KIND === 'remote');
    expect(remoteServices.map(([name, service]) => [name, service.build?.args?.APP_DIR])).toEqual(
      REMOTES.map((remote) => [remote.name, remote.dir]),
    );
  });
});
