import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReleaseStateAnswer } from '@special-gift/shared/api';
import {
  currentPayload,
  currentProblem,
  selectForBucket,
  stateKeys,
  stateProblem,
  type ReleaseCurrent,
  type ReleaseState,
} from '@special-gift/shared/release-state';
import { createTestDatabase, testEngines, type TestDatabase } from '../../test/support/test-databases';
import type * as NativePglite from '../../test/support/native-pglite';
import { startTestServer, type TestServer } from '../../test/support/test-server';
import type { Database } from '../db/database';
import { openDatabase } from '../db/open-database';
import { applyAction, type ActionInput } from './action-store';
import { registerBuild } from './build-registry';
import { checkDrift, publishLatest, readStateStatus } from './release-state';
import { StatePublisher } from './state-publisher';
import { DirectoryStateStore, type StateStore } from './state-store';

jest.mock('@electric-sql/pglite', () =>
  jest.requireActual<typeof NativePglite>('../../test/support/native-pglite').loadPgliteNatively(),
);
jest.setTimeout(60_000);

const ENVIRONMENT = 'production';
const ACTOR = { tokenId: 'operator', tokenName: 't', channel: 'cli' } as const;
const sri = (letter: string) => `sha384-${letter.repeat(64)}`;
const KEY_1 = { id: 'k1', secret: 'release-state-test-key-one-0123456789' };
const KEY_2 = { id: 'k2', secret: 'release-state-test-key-two-0123456789' };
const ids = { a: '0000000000a1', b: '0000000000b2' };

describe.each(testEngines())('the release state on %s', (engine) => {
  let database: TestDatabase;
  let db: Database;
  let folder: string;
  let store: StateStore;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    db = await openDatabase(database.config);
    for (const [letter, buildId] of Object.entries(ids))
      await registerBuild(
        db,
        {
          remote: 'signup',
          buildId,
          contractMajor: 1,
          files: 3,
          bytes: 3,
          // A chunk's hash stays out of the state: a page names only these files.
          integrity: { 'remoteEntry.js': sri(letter.toUpperCase()), '1.js': sri('C'), 'assets/i18n/en.json': sri('T') },
        },
        { actor: ACTOR, environment: ENVIRONMENT },
      );
    folder = mkdtempSync(path.join(tmpdir(), 'sg-state-'));
    store = new DirectoryStateStore(folder);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  let revision = 0;
  const act = async (input: Omit<ActionInput, 'expectedRevision' | 'reason'>) => {
    const outcome = await applyAction(
      db,
      ENVIRONMENT,
      'signup',
      { ...input, expectedRevision: revision, reason: 'test' } as ActionInput,
      ACTOR,
    );
    if (!('ok' in outcome)) throw new Error(`refused: ${JSON.stringify(outcome)}`);
    revision = outcome.revision;
  };
  const publish = (keys = [KEY_1], into: StateStore = store) =>
    publishLatest({ db, environment: ENVIRONMENT, store: into, keys, now: () => new Date('2026-12-01T10:00:00Z') });
  /** What a composer reads: current.json, verified, and the state it names, verified. */
  const served = async (keys = [KEY_1]) => {
    const current = JSON.parse((await store.get(stateKeys(ENVIRONMENT).current)) ?? 'null') as ReleaseCurrent;
    expect(currentProblem(current)).toBeNull();
    const { signature, ...unsigned } = current;
    const key = keys.find((candidate) => candidate.id === current.keyId);
    expect(
      createHmac('sha256', key?.secret ?? '')
        .update(currentPayload(unsigned))
        .digest('base64url'),
    ).toBe(signature);
    const body = (await store.get(`${stateKeys(ENVIRONMENT).folder}/${current.state}`)) ?? '';
    expect(createHash('sha256').update(body).digest('hex')).toBe(current.sha256);
    const state = JSON.parse(body) as ReleaseState;
    expect(stateProblem(state)).toBeNull();
    return { current, state };
  };

  it('each pointer change records the next state in its commit; publishing writes it, then current.json', async () => {
    await act({ action: 'release', buildId: ids.a });
    expect(await readStateStatus(db, ENVIRONMENT)).toMatchObject({ serial: 1, publishedSerial: 0 });
    const status = await publish();
    expect(status).toMatchObject({ serial: 1, publishedSerial: 1, publishedKeyId: 'k1', lastError: null });
    const { state } = await served();
    expect(state.serial).toBe(1);
    expect(selectForBucket(state, 0)).toEqual({
      builds: `signup=${ids.a}`,
      integrity: `signup/assets/i18n/en.json=${sri('T')},signup/remoteEntry.js=${sri('A')}`,
    });

    await act({ action: 'canary', buildId: ids.b, percent: 20 });
    await publish();
    const canary = (await served()).state;
    expect(canary.serial).toBe(2);
    expect(selectForBucket(canary, 19).builds).toBe(`signup=${ids.b}`);
    expect(selectForBucket(canary, 20).builds).toBe(`signup=${ids.a}`);
    expect(canary.remotes.signup?.revision).toBe(revision);
  });

  it('every action moves the serial, a detach included (the remote leaves the state)', async () => {
    const before = (await readStateStatus(db, ENVIRONMENT)).serial;
    await act({ action: 'canary', buildId: ids.b, percent: 50 });
    await act({ action: 'promote' });
    await act({ action: 'rollback' });
    await act({ action: 'detach' });
    expect((await readStateStatus(db, ENVIRONMENT)).serial).toBe(before + 4);
    await publish();
    const { state } = await served();
    expect(state.serial).toBe(before + 4);
    expect(state.remotes).toEqual({});
    await act({ action: 'release', buildId: ids.a });
    await publish();
  });

  it('a store that refuses: the change still commits, the error is recorded, the next publish writes it', async () => {
    const refusing: StateStore = {
      location: 'nowhere',
      put: () => Promise.reject(new Error('the store is down')),
      get: () => Promise.resolve(null),
    };
    await act({ action: 'canary', buildId: ids.b, percent: 5 });
    await expect(publish([KEY_1], refusing)).rejects.toThrow('the store is down');
    const status = await readStateStatus(db, ENVIRONMENT);
    expect(status.publishedSerial).toBe(status.serial - 1);
    expect(status.lastError?.message).toBe('the store is down');
    expect((await served()).state.serial).toBe(status.serial - 1); // pages keep the last one written

    expect(await publish()).toMatchObject({ publishedSerial: status.serial, lastError: null });
    expect((await served()).state.remotes.signup).toMatchObject({ canary: ids.b, canaryPercent: 5 });
  });

  it('nothing to do when the store has the latest under the signing key; a new first key re-signs it', async () => {
    const written: string[] = [];
    const watching: StateStore = {
      location: folder,
      put: (key, body, options) => {
        written.push(key);
        return store.put(key, body, options);
      },
      get: (key) => store.get(key),
    };
    await publish([KEY_1], watching);
    expect(written).toEqual([]);
    await publish([KEY_2, KEY_1], watching);
    expect(written).toHaveLength(2);
    expect(written[1]).toBe(stateKeys(ENVIRONMENT).current);
    expect((await served([KEY_2])).current.keyId).toBe('k2');
  });

  it('publishers racing never leave current.json behind the latest serial', async () => {
    for (let round = 0; round < 5; round += 1) {
      await act({ action: 'canary', buildId: ids.b, percent: 10 + round });
      await Promise.all([publish(), publish(), publish()]);
      const { serial } = await readStateStatus(db, ENVIRONMENT);
      expect((await served()).current.serial).toBe(serial);
    }
  });

  it('an environment released before release states existed gets its first state from its pointers', async () => {
    const earlier = 'earlier';
    const outcome = await applyAction(
      db,
      earlier,
      'signup',
      { action: 'release', buildId: ids.b, expectedRevision: 0, reason: 'before' },
      ACTOR,
    );
    expect('ok' in outcome).toBe(true);
    // As the database was before migration 11: the pointer, no state.
    await db.query('DELETE FROM release_states WHERE environment = $1', [earlier]);
    await db.query('DELETE FROM release_state_heads WHERE environment = $1', [earlier]);
    const status = await publishLatest({
      db,
      environment: earlier,
      store,
      keys: [KEY_1],
      now: () => new Date('2026-12-01T10:00:00Z'),
    });
    expect(status).toMatchObject({ serial: 1, publishedSerial: 1 });
    const current = JSON.parse((await store.get(stateKeys(earlier).current)) ?? 'null') as ReleaseCurrent;
    const body = JSON.parse(
      (await store.get(`${stateKeys(earlier).folder}/${current.state}`)) ?? 'null',
    ) as ReleaseState;
    expect(selectForBucket(body, 0).builds).toBe(`signup=${ids.b}`);
    // An environment with no pointer gets none.
    expect(
      await publishLatest({ db, environment: 'empty', store, keys: [KEY_1], now: () => new Date() }),
    ).toMatchObject({ serial: 0 });
    expect(await store.get(stateKeys('empty').current)).toBeNull();
  });

  it('the drift check reads the store back: a tampered current.json, a deleted or changed state is found, kept on record and written again', async () => {
    const names = stateKeys(ENVIRONMENT);
    const check = (from: StateStore = store) =>
      checkDrift({
        db,
        environment: ENVIRONMENT,
        store: from,
        keys: [KEY_1],
        now: () => new Date('2026-12-01T11:00:00Z'),
      });
    await publish();
    expect(await check()).toBeNull();
    const { current } = await served();
    const statePath = path.join(folder, names.folder, current.state);

    const tampered = { ...current, publishedAt: '2026-12-01T10:00:00.001Z' };
    await store.put(names.current, JSON.stringify(tampered), { immutable: false });
    expect(await check()).toBe('current.json is not the one written');
    expect(await readStateStatus(db, ENVIRONMENT)).toMatchObject({
      publishedSerial: 0,
      drift: { reason: 'current.json is not the one written', at: '2026-12-01T11:00:00.000Z' },
    });
    await publish();
    expect((await served()).current.serial).toBe(current.serial);
    expect(await check()).toBeNull();

    rmSync(statePath);
    expect(await check()).toBe(`state ${current.serial} is missing`);
    await publish();
    expect(await check()).toBeNull();

    writeFileSync(statePath, readFileSync(statePath, 'utf8').replace(ids.a, ids.b));
    expect(await check()).toBe(`state ${current.serial} is not the one written`);
    await publish();
    expect((await served()).state.serial).toBe(current.serial);

    // A store that cannot be read is not a drift: nothing is marked, nothing rewritten.
    const down: StateStore = {
      location: 'down',
      put: () => Promise.reject(new Error('down')),
      get: () => Promise.reject(new Error('down')),
    };
    expect(await check(down)).toBeNull();
    expect(await readStateStatus(db, ENVIRONMENT)).toMatchObject({ publishedSerial: current.serial });
  });

  it("each replica's publisher checks for drift by itself, logs it and repairs it", async () => {
    const logs: Array<Record<string, unknown>> = [];
    const publisher = new StatePublisher({
      db,
      environment: ENVIRONMENT,
      store,
      keys: [KEY_1],
      log: (entry) => logs.push(entry),
      reconcileEveryMs: 3_600_000,
      driftCheckEveryMs: 50,
    });
    publisher.start();
    try {
      const names = stateKeys(ENVIRONMENT);
      const { current } = await served();
      rmSync(path.join(folder, names.current));
      for (let waited = 0; waited < 5_000 && (await store.get(names.current)) === null; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      expect((await served()).current.serial).toBe(current.serial);
      expect(logs).toContainEqual(
        expect.objectContaining({ level: 'error', msg: 'release state drift', reason: 'current.json is missing' }),
      );
    } finally {
      await publisher.stop();
    }
  });
});

describe.each(testEngines())('a pointer change through the API on %s', (engine) => {
  const TOKEN = 'test-operator-token-0123456789abcdef';
  const AUTH = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
  let folder: string;
  let server: TestServer;
  let unwritten: TestServer;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'sg-state-'));
    server = await startTestServer({
      engine,
      operatorToken: TOKEN,
      releaseState: { store: new DirectoryStateStore(folder), keys: [KEY_1] },
    });
    unwritten = await startTestServer({ engine, operatorToken: TOKEN });
  });
  afterAll(async () => {
    await server?.close();
    await unwritten?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const release = async (at: TestServer) => {
    const buildId = ids.a;
    const published = await fetch(`${at.baseUrl}/v1/releases/builds`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({
        remote: 'intro',
        buildId,
        contractMajor: 1,
        files: 1,
        bytes: 1,
        integrity: { 'remoteEntry.js': sri('I') },
      }),
    });
    expect(published.status).toBe(201);
    const answer = await fetch(`${at.baseUrl}/v1/releases/remotes/intro/actions`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ action: 'release', buildId, expectedRevision: 0, reason: 'test' }),
    });
    expect(answer.status).toBe(200);
    return (
      (await answer.json()) as {
        state: ReleaseStateAnswer;
      }
    ).state;
  };

  it('answers with the state it made, written to the store before the answer', async () => {
    expect(await release(server)).toEqual({ serial: 1, publishedSerial: 1, published: true, store: folder });
    const current = JSON.parse(
      readFileSync(path.join(folder, '_state', ENVIRONMENT, 'current.json'), 'utf8'),
    ) as ReleaseCurrent;
    expect(current.serial).toBe(1);
    const status = await fetch(`${server.baseUrl}/v1/releases/state`, { headers: AUTH });
    expect(await status.json()).toMatchObject({
      environment: ENVIRONMENT,
      store: folder,
      serial: 1,
      publishedSerial: 1,
      publishedKeyId: 'k1',
    });
    expect((await fetch(`${server.baseUrl}/v1/releases/state`)).status).toBe(401);
  });

  it('with no store set, the change is applied and the answer says it is not written', async () => {
    expect(await release(unwritten)).toEqual({
      serial: 1,
      publishedSerial: 0,
      published: false,
      store: null,
      error: 'no release state store is set (RELEASE_STATE_STORE)',
    });
  });
});
