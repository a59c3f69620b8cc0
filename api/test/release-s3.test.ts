// Publishing to object storage from anywhere: the release tool with nothing but the API's URL, the
// operator token and S3 settings, against the real API (in-process) and a real S3 server (s3rver).
// s3rver ignores If-None-Match, so the safety that does not depend on it is proven here: a publish
// killed halfway is neither present in the store nor registered, and publishing again completes it.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { computeBuild } from '../../release-cli/src/build-id';
import { runReleaseTool } from '../../release-cli/src/release-tool';
import { IMMUTABLE } from '../../release-cli/src/store/s3-store';
import { openBuildStore } from '../../release-cli/src/store/open-store';
import { S3RVER_CREDENTIALS, startS3Server, type RunningS3 } from '../../release-cli/test/s3-server';
import type * as NativePglite from './support/native-pglite';
import { startTestServer, type TestServer } from './support/test-server';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('./support/native-pglite').loadPgliteNatively(),
);

jest.setTimeout(240_000);

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const SIGNUP_DIST = path.join(REPO_ROOT, 'remote-signup', 'dist');
const TOKEN = 's3-test-operator-token-0123456789abcdef';
const BUCKET = 'sg-builds';

let api: TestServer;
let s3: RunningS3;
let work: string;
/** The builds the tests publish: the first one (released by the retention test), the killed one. */
let firstBuild = '';
let killedBuild = '';

beforeAll(async () => {
  if (!existsSync(path.join(SIGNUP_DIST, 'mf-manifest.json')))
    execFileSync('npm', ['run', 'build', '-w', 'remote-signup'], { cwd: REPO_ROOT, stdio: 'ignore' });
  work = mkdtempSync(path.join(tmpdir(), 'sg-release-s3-'));
  s3 = await startS3Server({ directory: path.join(work, 's3'), bucket: BUCKET });
  api = await startTestServer({ operatorToken: TOKEN });
});

afterAll(async () => {
  await api?.close();
  await s3?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Everything the tool gets: no repository of the serving machines, no shared folder. */
function toolEnv(prefix: string, endpoint = s3.endpoint): Record<string, string> {
  return {
    SG_RELEASE_API: api.baseUrl,
    OPERATOR_TOKEN: TOKEN,
    SG_BUILD_STORE: `s3://${BUCKET}/${prefix}`,
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    USER: 'ci',
  };
}

async function release(env: Record<string, string>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runReleaseTool(argv, {
    workDir: REPO_ROOT,
    env,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function registered(buildId: string): Promise<boolean> {
  const history = await release(toolEnv('builds'), 'history', 'signup', '--json');
  return (JSON.parse(history.out) as { builds: Array<{ buildId: string }> }).builds.some(
    (build) => build.buildId === buildId,
  );
}

/** The objects s3rver holds under a key prefix (it keeps each as `<key>._S3rver_object` on disk). */
function objectsUnder(prefix: string): string[] {
  const dir = path.join(work, 's3', BUCKET, ...prefix.split('/'));
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('._S3rver_object'));
}

describe('npm run release with an S3 build store', () => {
  it('publishes a real remote to S3, served with its type and a year of caching; again: nothing sent', async () => {
    const run = await release(toolEnv('builds'), 'publish', 'signup', '--json');
    expect(run).toMatchObject({ code: 0 });
    const summary = JSON.parse(run.out) as {
      buildId: string;
      files: number;
      bytes: number;
      uploaded: { files: number; bytes: number; seconds: number };
    };
    expect(summary.uploaded).toMatchObject({ files: summary.files, bytes: summary.bytes });
    firstBuild = summary.buildId;
    // The figure docs/releases.md quotes ("Object storage"): one remote, to a local S3 server.
    console.log(
      `publish signup to S3: ${summary.files} files, ${summary.bytes} bytes in ${summary.uploaded.seconds} s`,
    );
    const entry = await fetch(`${s3.endpoint}/${BUCKET}/builds/signup/${summary.buildId}/remoteEntry.js`);
    expect(entry.status).toBe(200);
    expect(entry.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(entry.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(await registered(summary.buildId)).toBe(true);

    const again = await release(toolEnv('builds'), 'publish', 'signup', '--json');
    expect(JSON.parse(again.out)).toMatchObject({
      buildId: summary.buildId,
      copied: false,
      registered: 'existing',
      uploaded: { files: 0, bytes: 0 },
    });
  });

  it('a publish killed halfway is neither present nor registered; publishing again completes it', async () => {
    const dist = path.join(work, 'killed-dist');
    cpSync(SIGNUP_DIST, dist, { recursive: true });
    cpSync(path.join(dist, 'assets', 'i18n', 'en.json'), path.join(dist, 'assets', 'i18n', 'killed.json'));
    const { buildId, files } = computeBuild(dist);
    killedBuild = buildId;

    // Between the tool and S3: once 5 uploads are done, the next one kills the publishing process
    // (SIGKILL: no clean-up of any kind) and never arrives.
    let stored = 0;
    let child: ReturnType<typeof spawn> | undefined;
    const proxy: Server = createServer((req, res) => {
      if (req.method === 'PUT' && stored >= 5) {
        child?.kill('SIGKILL');
        return void res.destroy();
      }
      const upstream = request(
        { host: '127.0.0.1', port: s3.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          if (req.method === 'PUT') answer.on('end', () => (stored += 1));
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      child = spawn(
        process.execPath,
        ['--import', 'tsx', 'release-cli/src/cli.ts', 'publish', 'signup', '--dist', dist],
        { cwd: REPO_ROOT, env: { ...process.env, ...toolEnv('builds', proxyUrl) }, stdio: 'ignore' },
      );
      const exit = await new Promise<NodeJS.Signals | null>((resolve) =>
        child?.on('exit', (_, signal) => resolve(signal)),
      );
      expect(exit).toBe('SIGKILL');
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }

    const halfway = objectsUnder(`builds/signup/${buildId}`);
    expect(halfway.length).toBeGreaterThanOrEqual(5);
    expect(halfway.length).toBeLessThan(files.length);
    const store = openBuildStore(REPO_ROOT, toolEnv('builds'));
    expect(await store.isPresent('signup', buildId)).toBe(false);
    expect(await registered(buildId)).toBe(false);

    const again = await release(toolEnv('builds'), 'publish', 'signup', '--dist', dist, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ buildId, registered: 'created' });
    expect(await store.isPresent('signup', buildId)).toBe(true);
    expect(objectsUnder(`builds/signup/${buildId}`)).toHaveLength(files.length + 1);
    expect(await registered(buildId)).toBe(true);
  });

  it('refuses, with the store and the reason, when S3 cannot be reached: nothing registered', async () => {
    const dist = path.join(work, 'unreachable-dist');
    cpSync(SIGNUP_DIST, dist, { recursive: true });
    cpSync(path.join(dist, 'assets', 'i18n', 'en.json'), path.join(dist, 'assets', 'i18n', 'unreachable.json'));
    const run = await release(toolEnv('builds', 'http://127.0.0.1:9'), 'publish', 'signup', '--dist', dist);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/refused: the build store s3:\/\/sg-builds\/builds failed reading .*AWS_ENDPOINT_URL_S3/);
    expect(await registered(computeBuild(dist).buildId)).toBe(false);
  });

  it('retention deletes a purged build’s objects from the bucket, after the API’s purge', async () => {
    // The live host's contract major, as `release` checks it.
    const host: Server = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ contractMajor: 1, contractVersion: '1.0.0' }));
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const env = { ...toolEnv('builds'), SG_HOST_URL: `http://127.0.0.1:${(host.address() as AddressInfo).port}` };
    try {
      expect((await release(env, 'release', 'signup', firstBuild)).code).toBe(0);
    } finally {
      await new Promise((resolve) => host.close(resolve));
    }
    expect(objectsUnder(`builds/signup/${killedBuild}`).length).toBeGreaterThan(0);
    // A month later, the live build published again: the killed-then-completed one, never live, goes.
    const out: string[] = [];
    const code = await runReleaseTool(['publish', 'signup', '--json'], {
      workDir: REPO_ROOT,
      env,
      now: () => new Date(Date.now() + 30 * 24 * 3600_000),
      out: (line) => out.push(line),
      err: () => undefined,
    });
    expect(code).toBe(0);
    expect((JSON.parse(out.join('')) as { purged: string[] }).purged).toContain(killedBuild);
    expect(objectsUnder(`builds/signup/${killedBuild}`)).toEqual([]);
    expect(objectsUnder(`builds/signup/${firstBuild}`).length).toBeGreaterThan(0);
    expect(await openBuildStore(REPO_ROOT, env).isPresent('signup', firstBuild)).toBe(true);
  });
});
