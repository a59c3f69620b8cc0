// The release tool (release-cli/src/) against the real API, in-process. It lives here rather than
// beside the tool because lint keeps tooling/ from importing api/ (tooling is what apps build with),
// while the API's tests may use tooling, as src/main.ts does; and in-process start-up is seconds
// faster than a child API on a fresh PGlite.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DirectoryStateStore } from '../src/releases/state-store';
import type * as NativePglite from './support/native-pglite';
import { REPO_ROOT, runToolWith, startLiveHost, type ToolRun } from './support/release-tool';
import { startTestServer, type TestServer } from './support/test-server';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('./support/native-pglite').loadPgliteNatively(),
);

// Building remote-signup, when its dist is missing, takes a minute on a busy machine.
jest.setTimeout(240_000);

const SIGNUP_DIST = path.join(REPO_ROOT, 'remote-signup', 'dist');
const TOKEN = 'cli-test-operator-token-0123456789abcdef';

let api: TestServer;
let host: Awaited<ReturnType<typeof startLiveHost>>;
let hostMajor = 1;
/** The live host's contract version; by default `<major>.0.0`. */
let hostVersion: string | undefined;
let hostUrl = '';
let work: string;

beforeAll(async () => {
  // A real remote's build: the one on disk, or built once (unit tests run before `npm run build`).
  if (!existsSync(path.join(SIGNUP_DIST, 'mf-manifest.json')))
    execFileSync('npm', ['run', 'build', '-w', 'remote-signup'], { cwd: REPO_ROOT, stdio: 'ignore' });
  work = mkdtempSync(path.join(tmpdir(), 'sg-release-cli-'));
  // Pointer changes write the release state to a folder, as under `npm run up`, and the reconciler
  // writes again what the folder refused (every 100 ms here, 2 s by default).
  api = await startTestServer({
    operatorToken: TOKEN,
    releaseState: {
      store: new DirectoryStateStore(path.join(work, 'state')),
      keys: [{ id: 'cli-test', secret: 'release-cli-test-state-key-0123456789' }],
      reconcileEveryMs: 100,
    },
  });
  // The live host, as far as the tool is concerned: its build-info.json.
  host = await startLiveHost(() => ({ contractMajor: hostMajor, contractVersion: hostVersion ?? `${hostMajor}.0.0` }));
  hostUrl = host.url;
});

afterAll(async () => {
  await host?.close();
  await api?.close();
  rmSync(work, { recursive: true, force: true });
});

const runTool = (
  argv: readonly string[],
  { env = {}, now }: { env?: Record<string, string>; now?: () => Date } = {},
): Promise<ToolRun> =>
  runToolWith(
    argv,
    {
      SG_RELEASE_API: api.baseUrl,
      OPERATOR_TOKEN: TOKEN,
      SG_BUILD_STORE: path.join(work, 'store'),
      SG_HOST_URL: hostUrl,
      USER: 'tester',
      ...env,
    },
    now,
  );

const release = (...argv: string[]) => runTool(argv);

/** A proxy to the API that holds every action POST until `count` of them have arrived, then lets them all through. */
async function actionGate(target: string, count: number): Promise<{ url: string; close: () => Promise<void> }> {
  const held: Array<() => void> = [];
  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const forward = () => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
          ),
        );
        const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
        void fetch(`${target}${req.url ?? '/'}`, { method: req.method, headers, body }).then(async (response) => {
          res.writeHead(response.status, { 'content-type': response.headers.get('content-type') ?? 'text/plain' });
          res.end(Buffer.from(await response.arrayBuffer()));
        });
      };
      if (req.method !== 'POST' || !req.url?.endsWith('/actions')) return forward();
      held.push(forward);
      if (held.length === count) for (const pass of held.splice(0)) pass();
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}

/** A copy of the real build to alter; `change` edits it. */
function copyOfSignupDist(name: string): string {
  const dist = path.join(work, name);
  cpSync(SIGNUP_DIST, dist, { recursive: true });
  return dist;
}

describe('npm run release', () => {
  let buildId = '';

  it('publishes a real build: the id printed, the files stored without source maps; again: the same id', async () => {
    const first = await release('publish', 'signup');
    expect(first).toMatchObject({ code: 0 });
    buildId = first.out.trim();
    expect(buildId).toMatch(/^[0-9a-f]{12}$/);
    const stored = path.join(work, 'store', 'signup', buildId);
    expect(existsSync(path.join(stored, 'remoteEntry.js'))).toBe(true);
    expect(existsSync(path.join(stored, 'prerender', 'v1', 'ar.html'))).toBe(true);
    expect(readdirSync(stored).some((file) => file.endsWith('.map'))).toBe(false);

    // Its footprint, read from its mf-manifest.json, is recorded for the console's comparison.
    const manifest = JSON.parse(readFileSync(path.join(SIGNUP_DIST, 'mf-manifest.json'), 'utf8')) as {
      shared: Array<{ name: string; version: string }>;
      exposes: Array<{ assets: { js: { sync: string[] }; css: { sync: string[] } } }>;
    };
    const size = (file: string) => statSync(path.join(SIGNUP_DIST, file)).size;
    const screenFiles = manifest.exposes.flatMap((expose) => [...expose.assets.js.sync, ...expose.assets.css.sync]);
    expect(screenFiles.length).toBeGreaterThan(0);
    const state = (await (
      await fetch(`${api.baseUrl}/v1/releases/remotes/signup`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { builds: Array<Record<string, unknown>> };
    expect(state.builds.find((build) => build.buildId === buildId)).toMatchObject({
      entryBytes: size('remoteEntry.js'),
      firstScreenBytes: size('remoteEntry.js') + screenFiles.reduce((total, file) => total + size(file), 0),
      sharedVersions: Object.fromEntries(manifest.shared.map((shared) => [shared.name, shared.version])),
    });
    expect(size('remoteEntry.js')).toBeGreaterThan(1000);

    const again = await release('publish', 'signup', '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ buildId, registered: 'existing', copied: false, contractMajor: 1 });
    expect(readdirSync(path.join(work, 'store', 'signup'))).toEqual([buildId]);
  });

  it('refuses a build missing a file its manifest names, and says which', async () => {
    const dist = copyOfSignupDist('broken');
    const exposed = readdirSync(dist).find(
      (file) => file.startsWith('__federation_expose_Screen') && file.endsWith('.js'),
    );
    rmSync(path.join(dist, exposed ?? 'none'));
    const run = await release('publish', 'signup', '--dist', dist);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${exposed ?? ''} is missing`);
  });

  it('releases, and refuses a build of another contract major than the live host before asking the API', async () => {
    const released = await release('release', 'signup', buildId, '--reason', 'first');
    expect(released).toMatchObject({ code: 0 });
    expect(released.out).toMatch(/\(revision \d+, state \d+, served to new pages within 2 s\)$/);
    hostMajor = 2;
    try {
      const refused = await release('canary', 'signup', buildId, '--percent', '20');
      expect(refused.code).toBe(1);
      expect(refused.err).toMatch(/contract major 1, but the live host .* is on contract major 2/);
    } finally {
      hostMajor = 1;
    }
    const history = await release('history', 'signup');
    expect(history.code).toBe(0);
    expect(history.out).toContain(`live ${buildId}`);
    // The history names the token that acted (the operator's here), never $USER.
    expect(history.out).toMatch(/1 +\S+ +release +[0-9a-f]{12} +operator +first/);
    expect(history.out).not.toContain('tester');
  });

  it('two racing releases: one wins, the other is told someone else moved the pointer', async () => {
    const ids: string[] = [];
    for (const name of ['second', 'third']) {
      const dist = copyOfSignupDist(name);
      cpSync(path.join(dist, 'assets', 'i18n', 'en.json'), path.join(dist, 'assets', 'i18n', `${name}.json`));
      const published = await release('publish', 'signup', '--dist', dist);
      expect(published.code).toBe(0);
      ids.push(published.out.trim());
    }
    // Both tools read the revision before either posts: a proxy holds each action until both arrived.
    const gate = await actionGate(api.baseUrl, 2);
    try {
      const runs = await Promise.all(
        ids.map((id) => runTool(['release', 'signup', id], { env: { SG_RELEASE_API: gate.url } })),
      );
      expect(runs.map((run) => run.code).sort()).toEqual([0, 1]);
      expect(runs.find((run) => run.code === 1)?.err).toMatch(/at revision \d+, not \d+ as expected: someone else/);
    } finally {
      await gate.close();
    }
  });

  it('a change the build store does not take is applied but not served: exit 4 and why; served once it is taken', async () => {
    const folder = path.join(work, 'state');
    // The store's folder replaced by a file: every write of a state fails (ENOTDIR), as a full or
    // read-only volume would.
    const blockStore = () => {
      renameSync(folder, `${folder}.aside`);
      writeFileSync(folder, 'not a folder');
    };
    const unblockStore = () => {
      rmSync(folder);
      renameSync(`${folder}.aside`, folder);
    };
    blockStore();
    let blocked = true;
    try {
      const refused = await runTool(['detach', 'signup', '--reason', 'store down', '--json'], {
        env: { SG_RELEASE_STATE_WAIT_S: '1' },
      });
      expect(refused.code).toBe(4);
      expect(JSON.parse(refused.out)).toMatchObject({ pointer: null, served: false, state: { published: false } });
      expect(refused.err).toMatch(
        /applied, NOT yet served: the build store \(.*state\) has not taken release state \d+/,
      );
      expect(refused.err).toMatch(/ENOTDIR/);
      // Applied all the same: the history has it.
      expect((await release('history', 'signup')).out).toMatch(/detach .*store down/);

      // The store comes back while the next change waits: the reconciler writes it, the tool says so.
      const waiting = release('release', 'signup', buildId, '--reason', 'store back');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      unblockStore();
      blocked = false;
      const served = await waiting;
      expect(served.code).toBe(0);
      expect(served.out).toMatch(/live [0-9a-f]{12} \(revision \d+, state (\d+), served to new pages within 2 s\)$/);
      const serial = Number(/state (\d+), served/.exec(served.out)?.[1]);
      const current = JSON.parse(readFileSync(path.join(folder, '_state', 'production', 'current.json'), 'utf8')) as {
        serial: number;
      };
      expect(current.serial).toBe(serial);
    } finally {
      if (blocked) unblockStore();
    }
  });

  it('SG_RELEASE_STATE_WAIT_S must be whole seconds up to 120', async () => {
    const run = await runTool(['detach', 'signup'], { env: { SG_RELEASE_STATE_WAIT_S: '10m' } });
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/SG_RELEASE_STATE_WAIT_S must be a whole number of seconds/);
  });

  it('usage errors exit 2; an unknown remote or build id is a usage error', async () => {
    expect((await release()).code).toBe(2);
    expect((await release('fly', 'signup')).code).toBe(2);
    expect((await release('release', 'nope', buildId)).code).toBe(2);
    expect((await release('release', 'signup', 'XYZ')).code).toBe(2);
    expect((await release('canary', 'signup', buildId)).code).toBe(2);
    const refused = await release('promote', 'signup');
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/no canary to promote/);
    const preview = await release('preview', 'signup', buildId);
    expect(preview.out).toContain(`${hostUrl}/api/v1/releases/preview`);
  });

  it('publishing applies retention: keeps the live build and the last 10 that were live, purges the rest', async () => {
    const before = (await runTool(['history', 'signup', '--json'])).out;
    const earlier = (JSON.parse(before) as { builds: Array<{ buildId: string }> }).builds.map((build) => build.buildId);
    const versions: string[] = [];
    for (let version = 1; version <= 12; version += 1) {
      const dist = copyOfSignupDist(`v${version}`);
      cpSync(path.join(dist, 'assets', 'i18n', 'en.json'), path.join(dist, 'assets', 'i18n', `v${version}.json`));
      const published = await release('publish', 'signup', '--dist', dist);
      versions.push(published.out.trim());
      expect((await release('release', 'signup', versions[versions.length - 1] ?? '')).code).toBe(0);
    }
    // A month later, the live build published again (nothing new): only retention has work to do.
    const later = await runTool(['publish', 'signup', '--dist', path.join(work, 'v12'), '--json'], {
      now: () => new Date(Date.now() + 30 * 24 * 3600_000),
    });
    expect(later.code).toBe(0);
    const { purged } = JSON.parse(later.out) as { purged: string[] };
    expect(purged.sort()).toEqual([...earlier, versions[0], versions[1]].sort());
    const stored = readdirSync(path.join(work, 'store', 'signup')).sort();
    expect(stored).toEqual(versions.slice(2).sort());
  });

  it("a team's CI with its own token: named in history and audit, kept to its remote, refused while locked", async () => {
    const created = await release('token', 'create', 'signup', '--role', 'deployer', '--name', 'signup CI', '--json');
    expect(created.code).toBe(0);
    const { token, id } = JSON.parse(created.out) as { token: string; id: string };
    const asCi = (...argv: string[]) => runTool(argv, { env: { SG_RELEASE_TOKEN: token, CI: 'true' } });

    const state = JSON.parse((await asCi('history', 'signup', '--json')).out) as {
      pointer: { live: string };
      builds: Array<{ buildId: string; purgedAt: string | null }>;
    };
    // Any kept build but the live one: a release that would change something.
    const target = state.builds.find((build) => build.purgedAt === null && build.buildId !== state.pointer.live);
    expect(target).toBeDefined();
    const buildId = target?.buildId ?? '';
    const other = await asCi('history', 'intro');
    expect(other.code).toBe(1);
    expect(other.err).toMatch(/is for signup: it cannot read releases for intro\. \(403 forbidden\)/);
    expect((await asCi('token', 'list', 'signup')).code).toBe(1);

    expect((await asCi('lock', 'signup', '--reason', 'incident 42')).code).toBe(0);
    const refused = await asCi('release', 'signup', buildId);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/signup is locked by signup CI since .*: incident 42/);
    expect((await asCi('history', 'signup')).out).toMatch(/LOCKED by signup CI/);
    expect((await asCi('unlock', 'signup', '--reason', 'resolved')).code).toBe(0);
    expect((await asCi('release', 'signup', buildId, '--reason', 'from CI')).code).toBe(0);

    const audit = await asCi('audit', 'signup', '--json');
    const entries = JSON.parse(audit.out) as Array<{
      action: string;
      tokenName: string;
      tokenId: string;
      channel: string;
    }>;
    expect(entries.slice(0, 3).map((entry) => [entry.action, entry.tokenName, entry.tokenId, entry.channel])).toEqual([
      ['release', 'signup CI', id, 'ci'],
      ['unlock', 'signup CI', id, 'ci'],
      ['lock', 'signup CI', id, 'ci'],
    ]);
    expect(entries.some((entry) => entry.action === 'token-create' && entry.tokenName === 'operator')).toBe(true);

    expect((await release('token', 'revoke', id, '--reason', 'rotated')).code).toBe(0);
    const revoked = await asCi('history', 'signup');
    expect(revoked.code).toBe(1);
    expect(revoked.err).toMatch(/401 unauthorized/);
  });

  it('token revoke --cascade no rotates an admin token: what it minted keeps working', async () => {
    const made = async (role: string, name: string, env: Record<string, string> = {}) =>
      JSON.parse(
        (await runTool(['token', 'create', 'signup', '--role', role, '--name', name, '--json'], { env })).out,
      ) as { token: string; id: string };
    const old = await made('admin', 'signup admin old');
    const ci = await made('deployer', 'signup CI by old admin', { SG_RELEASE_TOKEN: old.token });
    const asCi = () => runTool(['history', 'signup'], { env: { SG_RELEASE_TOKEN: ci.token } });
    const refused = await release('token', 'revoke', old.id, '--cascade', 'maybe');
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/--cascade must be yes or no/);
    const rotated = await release('token', 'revoke', old.id, '--cascade', 'no', '--reason', 'rotation');
    expect(rotated.code).toBe(0);
    expect(rotated.out).toContain(`kept "signup CI by old admin" (${ci.id}), which it created`);
    expect((await asCi()).code).toBe(0);
    expect((await release('token', 'revoke', ci.id)).code).toBe(0);
    expect((await asCi()).code).toBe(1);
  });
  it('refuses a build made against a newer contract minor than the live host provides, and takes it once the host has it', async () => {
    const dist = copyOfSignupDist('newer-minor');
    const manifestPath = path.join(dist, 'mf-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
      shared: Array<{ name: string; version: string }>;
    };
    const contract = manifest.shared.find((shared) => shared.name === '@special-gift/shared');
    expect(contract?.version).toBe('1.0.0');
    if (contract) contract.version = '1.1.0';
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const published = await release('publish', 'signup', '--dist', dist);
    expect(published.code).toBe(0);
    const newer = published.out.trim();

    const refused = await release('canary', 'signup', newer, '--percent', '5');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      `build ${newer} of signup was built against contract 1.1.0, newer than the live host's 1.0.0`,
    );
    expect((await release('history', 'signup', '--json')).out).not.toContain(`"canary":"${newer}"`);

    hostVersion = '1.1.0';
    try {
      expect(await release('canary', 'signup', newer, '--percent', '5', '--reason', 'host has 1.1')).toMatchObject({
        code: 0,
      });
    } finally {
      hostVersion = undefined;
    }
    expect((await release('abort', 'signup')).code).toBe(0);
  });
});
