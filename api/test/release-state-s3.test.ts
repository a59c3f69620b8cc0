// The release state in object storage (RELEASE_STATE_STORE=s3://bucket/prefix), as the compose
// stack and a cluster write it: the API's publisher against a real S3 server (s3rver), read back
// anonymously over plain HTTP as the composers read the bucket, checked with the shared rules.
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { IMMUTABLE, s3ClientConfig } from '@special-gift/shared/builds';
import {
  currentPayload,
  currentProblem,
  stateKeys,
  stateProblem,
  type ReleaseCurrent,
  type ReleaseState,
} from '@special-gift/shared/release-state';
import { S3RVER_CREDENTIALS, startS3Server, type RunningS3 } from '../../release-cli/test/s3-server';
import type { Database } from '../src/db/database';
import { openDatabase } from '../src/db/open-database';
import { applyAction } from '../src/releases/action-store';
import { registerBuild } from '../src/releases/build-registry';
import { checkDrift, publishLatest, readStateStatus } from '../src/releases/release-state';
import { openStateStore, S3StateStore } from '../src/releases/state-store';
import type * as NativePglite from './support/native-pglite';
import { createTestDatabase, type TestDatabase } from './support/test-databases';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('./support/native-pglite').loadPgliteNatively(),
);

const BUCKET = 'sg-builds';
const PREFIX = 'builds';
const ENVIRONMENT = 'production';
const KEY = { id: 's3', secret: 'release-state-s3-test-key-0123456789' };
const ACTOR = { tokenId: 'operator', tokenName: 'operator', channel: 'cli' } as const;
const BUILD = '0000000000c3';
const now = () => new Date('2026-12-01T10:00:00Z');

let work: string;
let s3: RunningS3;
let client: S3Client;
let store: S3StateStore;
let database: TestDatabase;
let db: Database;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'sg-state-s3-'));
  s3 = await startS3Server({ directory: path.join(work, 's3'), bucket: BUCKET });
  client = new S3Client(
    s3ClientConfig({
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
    }),
  );
  store = new S3StateStore({ bucket: BUCKET, prefix: PREFIX }, client);
  database = await createTestDatabase('pglite');
  db = await openDatabase(database.config);
  await registerBuild(
    db,
    {
      remote: 'signup',
      buildId: BUILD,
      contractMajor: 1,
      files: 1,
      bytes: 1,
      integrity: { 'remoteEntry.js': `sha384-${'A'.repeat(64)}` },
    },
    { actor: ACTOR, environment: ENVIRONMENT },
  );
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
  client?.destroy();
  await s3?.close();
  rmSync(work, { recursive: true, force: true });
});

/** What a composer reads: the object at its public, path-style URL, with no credentials. */
const anonymous = async (key: string) => {
  const response = await fetch(`${s3.endpoint}/${BUCKET}/${PREFIX}/${key}`);
  return { status: response.status, body: await response.text() };
};

it('RELEASE_STATE_STORE names the store: s3://bucket/prefix, else a folder', () => {
  expect(openStateStore('s3://sg-builds/builds').location).toBe('s3://sg-builds/builds');
  expect(openStateStore('/srv/builds').location).toBe('/srv/builds');
});

it('writes a state and current.json to the bucket with their cache headers; a missing object reads as null', async () => {
  expect(await store.get('_state/nowhere/current.json')).toBeNull();
  const outcome = await applyAction(
    db,
    ENVIRONMENT,
    'signup',
    { action: 'release', buildId: BUILD, expectedRevision: 0, reason: 'test' },
    ACTOR,
  );
  expect('ok' in outcome).toBe(true);
  expect(await publishLatest({ db, environment: ENVIRONMENT, store, keys: [KEY], now })).toMatchObject({
    serial: 1,
    publishedSerial: 1,
    lastError: null,
  });

  const names = stateKeys(ENVIRONMENT);
  const currentObject = await anonymous(names.current);
  expect(currentObject.status).toBe(200);
  const current = JSON.parse(currentObject.body) as ReleaseCurrent;
  expect(currentProblem(current)).toBeNull();
  const { signature, ...unsigned } = current;
  expect(createHmac('sha256', KEY.secret).update(currentPayload(unsigned)).digest('base64url')).toBe(signature);
  const stateObject = await anonymous(`${names.folder}/${current.state}`);
  expect(createHash('sha256').update(stateObject.body).digest('hex')).toBe(current.sha256);
  const state = JSON.parse(stateObject.body) as ReleaseState;
  expect(stateProblem(state)).toBeNull();
  expect(state.remotes.signup?.live).toBe(BUILD);

  const head = (key: string) => client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/${key}` }));
  expect(await head(names.current)).toMatchObject({
    CacheControl: 'no-cache',
    ContentType: 'application/json; charset=utf-8',
  });
  expect((await head(`${names.folder}/${current.state}`)).CacheControl).toBe(IMMUTABLE);
});

it('a current.json deleted from the bucket is a drift, written again', async () => {
  await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}/${stateKeys(ENVIRONMENT).current}` }));
  expect(await checkDrift({ db, environment: ENVIRONMENT, store, keys: [KEY], now })).toBe('current.json is missing');
  await publishLatest({ db, environment: ENVIRONMENT, store, keys: [KEY], now });
  expect((await anonymous(stateKeys(ENVIRONMENT).current)).status).toBe(200);
  expect(await checkDrift({ db, environment: ENVIRONMENT, store, keys: [KEY], now })).toBeNull();
});

it('a bucket that cannot be reached: the error is recorded, nothing is lost, and the next publish writes it', async () => {
  const unreachable = new S3StateStore(
    { bucket: BUCKET, prefix: PREFIX },
    new S3Client({
      ...s3ClientConfig({ AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9', AWS_REGION: 'us-east-1' }),
      credentials: S3RVER_CREDENTIALS,
      maxAttempts: 1,
    }),
  );
  const outcome = await applyAction(
    db,
    ENVIRONMENT,
    'signup',
    { action: 'detach', expectedRevision: 1, reason: 'test' },
    ACTOR,
  );
  expect('ok' in outcome).toBe(true);
  await expect(publishLatest({ db, environment: ENVIRONMENT, store: unreachable, keys: [KEY], now })).rejects.toThrow();
  const status = await readStateStatus(db, ENVIRONMENT);
  expect(status).toMatchObject({ serial: 2, publishedSerial: 1 });
  expect(status.lastError?.message).toBeTruthy();
  // A drift check that cannot read the bucket marks nothing.
  expect(await checkDrift({ db, environment: ENVIRONMENT, store: unreachable, keys: [KEY], now })).toBeNull();

  expect(await publishLatest({ db, environment: ENVIRONMENT, store, keys: [KEY], now })).toMatchObject({
    publishedSerial: 2,
    lastError: null,
  });
  const current = JSON.parse((await anonymous(stateKeys(ENVIRONMENT).current)).body) as ReleaseCurrent;
  expect(current.serial).toBe(2);
});
