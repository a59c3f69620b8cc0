// The build store's contract, run against both backends: the directory (`npm run up`) and S3,
// spoken to by the real AWS SDK over HTTP to a real S3 server (s3rver, started here).
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { S3RVER_CREDENTIALS, startS3Server, type RunningS3 } from '../../test/s3-server';
import { computeBuild, type BuildContent } from '../build-id';
import type { BuildStore } from './store-interface';
import { Refusal } from '../integrity';
import { parseS3Location, s3ClientConfig } from '@special-gift/shared/builds';
import { BUILD_MANIFEST, IMMUTABLE, openS3BuildStore } from './s3-store';
import { openBuildStore } from './open-store';
import { writeMinimalDist } from '../test-dist';

const BUCKET = 'sg-builds';

let root: string;
let s3: RunningS3;
let s3Env: Record<string, string>;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'sg-store-test-'));
  s3 = await startS3Server({ directory: path.join(root, 's3'), bucket: BUCKET });
  s3Env = {
    AWS_ENDPOINT_URL_S3: s3.endpoint,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
  };
});
afterAll(async () => {
  await s3?.close();
  rmSync(root, { recursive: true, force: true });
});

interface StoredFile {
  readonly body: string;
  /** S3 only: the headers the object is served with. */
  readonly contentType?: string;
  readonly cacheControl?: string;
}

/** What each backend's test needs beyond the interface: reading a file back, and half a build. */
interface Backend {
  readonly store: BuildStore;
  read(remote: string, buildId: string, file: string): Promise<StoredFile | undefined>;
  /** Some of a build's files, as a publish killed halfway leaves them. */
  writeHalf(remote: string, content: BuildContent, dist: string): Promise<void>;
}

function s3Client(): S3Client {
  return new S3Client(s3ClientConfig(s3Env));
}

const BACKENDS: ReadonlyArray<[string, (name: string) => Backend]> = [
  [
    'directory',
    (name) => {
      const dir = path.join(root, name);
      return {
        store: openBuildStore(root, { SG_BUILD_STORE: dir }),
        read: async (remote, buildId, file) => {
          const full = path.join(dir, remote, buildId, file);
          return existsSync(full) ? { body: readFileSync(full, 'utf8') } : undefined;
        },
        // An interrupted copy leaves only its temporary folder beside the builds.
        writeHalf: async (remote, content, dist) => {
          const temporary = path.join(dir, remote, `.tmp-${content.buildId}-1-1`);
          mkdirSync(temporary, { recursive: true });
          cpSync(path.join(dist, 'remoteEntry.js'), path.join(temporary, 'remoteEntry.js'));
        },
      };
    },
  ],
  [
    's3',
    (name) => {
      const client = s3Client();
      const key = (remote: string, buildId: string, file: string) => `${name}/${remote}/${buildId}/${file}`;
      return {
        store: openBuildStore(root, { ...s3Env, SG_BUILD_STORE: `s3://${BUCKET}/${name}` }),
        read: async (remote, buildId, file) => {
          try {
            const object = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key(remote, buildId, file) }));
            return {
              body: (await object.Body?.transformToString()) ?? '',
              contentType: object.ContentType,
              cacheControl: object.CacheControl,
            };
          } catch (error) {
            if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404)
              return undefined;
            throw error;
          }
        },
        writeHalf: async (remote, content, dist) => {
          for (const file of content.files.slice(0, Math.ceil(content.files.length / 2)))
            await client.send(
              new PutObjectCommand({
                Bucket: BUCKET,
                Key: key(remote, content.buildId, file.path),
                Body: readFileSync(path.join(dist, file.path)),
              }),
            );
        },
      };
    },
  ],
];

describe.each(BACKENDS)('build store: %s', (backendName, open) => {
  let work: string;
  let counter = 0;
  /** A fresh store and dist per test: each writes its own prefix or folder. */
  const fresh = () => {
    counter += 1;
    work = mkdtempSync(path.join(root, 'dist-'));
    const dist = writeMinimalDist(work);
    return { backend: open(`${backendName}-${counter}`), dist, content: computeBuild(dist) };
  };

  it('stores a build once, whole, without its source maps; present only once stored', async () => {
    const { backend, dist, content } = fresh();
    expect(await backend.store.isPresent('signup', content.buildId)).toBe(false);
    const first = await backend.store.put('signup', content, dist);
    expect(first).toEqual({ written: true, files: content.files.length, bytes: content.bytes });
    expect(await backend.store.isPresent('signup', content.buildId)).toBe(true);
    expect(await backend.store.put('signup', content, dist)).toEqual({ written: false, files: 0, bytes: 0 });
    for (const file of content.files)
      expect((await backend.read('signup', content.buildId, file.path))?.body).toBe(
        readFileSync(path.join(dist, file.path), 'utf8'),
      );
    expect(await backend.read('signup', content.buildId, 'remoteEntry.js.map')).toBeUndefined();
  });

  it('counts half a build (a publish killed halfway) as absent, and a publish completes it', async () => {
    const { backend, dist, content } = fresh();
    await backend.writeHalf('signup', content, dist);
    expect(await backend.store.isPresent('signup', content.buildId)).toBe(false);
    expect((await backend.store.put('signup', content, dist)).written).toBe(true);
    expect(await backend.store.isPresent('signup', content.buildId)).toBe(true);
    for (const file of content.files) expect(await backend.read('signup', content.buildId, file.path)).toBeDefined();
  });

  it('lets two publishers of the same build race harmlessly', async () => {
    const { backend, dist, content } = fresh();
    const results = await Promise.all([
      backend.store.put('signup', content, dist),
      backend.store.put('signup', content, dist),
    ]);
    expect(results.some((result) => result.written)).toBe(true);
    expect(await backend.store.isPresent('signup', content.buildId)).toBe(true);
    for (const file of content.files)
      expect((await backend.read('signup', content.buildId, file.path))?.body).toBe(
        readFileSync(path.join(dist, file.path), 'utf8'),
      );
  });

  it('refuses a dist that changed since its id was computed, and stores nothing present', async () => {
    const { backend, dist, content } = fresh();
    writeFileSync(path.join(dist, 'lazy.1.js'), 'rebuilt meanwhile');
    await expect(backend.store.put('signup', content, dist)).rejects.toThrow(/changed while it was being published/);
    expect(await backend.store.isPresent('signup', content.buildId)).toBe(false);
  });

  it('deletes a build whole; deleting it again is a no-op', async () => {
    const { backend, dist, content } = fresh();
    await backend.store.put('signup', content, dist);
    await backend.store.delete('signup', content.buildId);
    expect(await backend.store.isPresent('signup', content.buildId)).toBe(false);
    for (const file of content.files) expect(await backend.read('signup', content.buildId, file.path)).toBeUndefined();
    await backend.store.delete('signup', content.buildId);
  });
});

describe('build store: s3 objects', () => {
  it('serves each object with its Content-Type and a year of immutable caching; the manifest is written last', async () => {
    const dist = writeMinimalDist(mkdtempSync(path.join(root, 'dist-')));
    const content = computeBuild(dist);
    const store = openS3BuildStore({ bucket: BUCKET, prefix: 'headers' }, s3Env);
    await store.put('signup', content, dist);
    // Anonymous, as nginx's proxy (a CDN) reads it.
    const entry = await fetch(`${s3.endpoint}/${BUCKET}/headers/signup/${content.buildId}/remoteEntry.js`);
    expect(entry.status).toBe(200);
    expect(entry.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(entry.headers.get('cache-control')).toBe(IMMUTABLE);
    const html = await fetch(`${s3.endpoint}/${BUCKET}/headers/signup/${content.buildId}/prerender/v1/ar.html`);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const manifest = (await (
      await fetch(`${s3.endpoint}/${BUCKET}/headers/signup/${content.buildId}/${BUILD_MANIFEST}`)
    ).json()) as { buildId: string; files: unknown[] };
    expect(manifest).toEqual({ buildId: content.buildId, files: content.files });
    // s3rver keeps each object's modification time: nothing of the build is newer than its manifest.
    const listed = await s3Client().send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `headers/signup/${content.buildId}/` }),
    );
    const times = new Map((listed.Contents ?? []).map((object) => [object.Key, object.LastModified?.getTime() ?? 0]));
    const manifestTime = times.get(`headers/signup/${content.buildId}/${BUILD_MANIFEST}`) ?? 0;
    expect(Math.max(...times.values())).toBe(manifestTime);
    expect(times.size).toBe(content.files.length + 1);
  });

  it('reads s3://bucket/prefix; a path is a directory', () => {
    expect(parseS3Location('s3://sg-builds/builds/')).toEqual({ bucket: 'sg-builds', prefix: 'builds' });
    expect(parseS3Location('s3://sg-builds')).toEqual({ bucket: 'sg-builds', prefix: '' });
    expect(parseS3Location('.data/builds')).toBeUndefined();
    expect(s3ClientConfig({ AWS_ENDPOINT_URL_S3: 'http://s3:4568' }).forcePathStyle).toBe(true);
    expect(s3ClientConfig({}).forcePathStyle).toBe(false);
  });

  // s3rver checks the access key id, not V4 signatures.
  it('refuses with the store and the reason when the access key is unknown or the server is down', async () => {
    const dist = writeMinimalDist(mkdtempSync(path.join(root, 'dist-')));
    const content = computeBuild(dist);
    const wrong = openS3BuildStore({ bucket: BUCKET, prefix: 'denied' }, { ...s3Env, AWS_ACCESS_KEY_ID: 'UNKNOWN' });
    const denied = wrong.put('signup', content, dist);
    await expect(denied).rejects.toBeInstanceOf(Refusal);
    await expect(denied).rejects.toThrow(/s3:\/\/sg-builds\/denied failed reading .*HTTP 403/);
    const down = openS3BuildStore(
      { bucket: BUCKET, prefix: 'down' },
      { ...s3Env, AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' },
    );
    await expect(down.isPresent('signup', content.buildId)).rejects.toThrow(/s3:\/\/sg-builds\/down failed reading/);
  });
});
