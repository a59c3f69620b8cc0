import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  serializeState,
  STATE_FORMAT,
  type ReleaseCurrent,
  type ReleaseState,
  type StateKey,
} from '@special-gift/shared/release-state';
import vectors from '@special-gift/shared/release-state/vectors.json';
import { createReleaseStateSource, folderReader } from './release-state-source';
import { signedStateObjects } from './signed-state.fixture';

const KEY: StateKey = vectors.key;
const OTHER: StateKey = { id: 'k2', secret: 'another-key-0123456789abcdefghijklmnop' };
const ENVIRONMENT = 'production';
const SRI = `sha384-${'A'.repeat(64)}`;

let store: string;
beforeEach(() => {
  store = mkdtempSync(path.join(tmpdir(), 'sg-state-source-'));
});
afterEach(() => rmSync(store, { recursive: true, force: true }));

function state(serial: number, signupLive: string, canary: string | null = null, canaryPercent = 0): ReleaseState {
  const integrity: Record<string, Record<string, string>> = { [signupLive]: { 'remoteEntry.js': SRI } };
  if (canary) integrity[canary] = { 'remoteEntry.js': SRI };
  return {
    format: STATE_FORMAT,
    environment: ENVIRONMENT,
    serial,
    createdAt: '2026-12-01T10:00:00.000Z',
    remotes: { signup: { live: signupLive, canary, canaryPercent, revision: serial, integrity } },
  };
}

/** Writes a state and the current object naming it, as the API's publisher does (the state first). */
function publish(value: ReleaseState, key: StateKey = KEY, tamper?: (current: ReleaseCurrent) => ReleaseCurrent) {
  const [[stateKey, body], [currentKey, current]] = signedStateObjects(value, key, tamper);
  const file = (name: string) => {
    mkdirSync(path.dirname(path.join(store, name)), { recursive: true });
    return path.join(store, name);
  };
  writeFileSync(file(stateKey), body);
  writeFileSync(file(currentKey), current);
  return { stateFile: path.join(store, stateKey) };
}

function source(keys: readonly StateKey[] = [KEY]) {
  let clock = 0;
  const created = createReleaseStateSource({
    read: folderReader(store),
    environment: ENVIRONMENT,
    keys,
    refreshMs: 1000,
    now: () => clock,
  });
  return { source: created, advance: (ms: number) => (clock += ms) };
}

test('the vectors: a composer reads the shared example and picks the canary below its share', async () => {
  const objects = vectors.objects as { current: string; state: string };
  mkdirSync(path.dirname(path.join(store, objects.state)), { recursive: true });
  writeFileSync(path.join(store, objects.state), vectors.state);
  writeFileSync(path.join(store, objects.current), JSON.stringify(vectors.current));
  const { source: reader } = source();
  expect((await reader.forBucket(5))?.builds).toBe('intro=00000000000a,signup=ba9876543210');
  expect((await reader.forBucket(20))?.builds).toBe('intro=00000000000a,signup=0123456789ab');
  expect(reader.status()).toEqual({ serial: 42, acceptedAt: 0, problem: undefined });
});

test('nothing released yet: no selection, so every remote serves its image build', async () => {
  const { source: reader } = source();
  expect(await reader.forBucket(0)).toBeUndefined();
  expect(reader.status().problem).toBeUndefined();
});

test('a new state reaches pages after the refresh interval; pages in between get the one in use', async () => {
  publish(state(1, '0123456789ab'));
  const { source: reader, advance } = source();
  expect((await reader.forBucket(0))?.builds).toBe('signup=0123456789ab');
  publish(state(2, '0123456789ab', 'ba9876543210', 50));
  advance(999);
  expect((await reader.forBucket(0))?.builds).toBe('signup=0123456789ab');
  advance(1);
  await reader.forBucket(0); // starts the read; this page does not wait for it
  await reader.refresh();
  expect((await reader.forBucket(0))?.builds).toBe('signup=ba9876543210');
  expect((await reader.forBucket(50))?.builds).toBe('signup=0123456789ab');
  expect((await reader.forBucket(0))?.integrity).toBe(`signup/remoteEntry.js=${SRI}`);
});

describe('what is refused, the state in use kept', () => {
  async function accepted() {
    publish(state(1, '0123456789ab'));
    const made = source([KEY]);
    await made.source.refresh();
    expect(made.source.status().serial).toBe(1);
    return made;
  }

  test.each([
    ['a signature by a key the host does not trust', () => publish(state(2, 'ba9876543210'), OTHER), /key "k2"/],
    [
      'a changed field under the signature',
      () =>
        publish(state(2, 'ba9876543210'), KEY, (current) => ({ ...current, publishedAt: '2026-12-01T11:00:00.000Z' })),
      /signature/,
    ],
  ])('%s', async (_label, change, why) => {
    const { source: reader } = await accepted();
    change();
    await reader.refresh();
    expect(reader.status().problem).toMatch(why);
    expect((await reader.forBucket(0))?.builds).toBe('signup=0123456789ab');
  });

  test('an older serial, validly signed (a replay of an earlier current.json)', async () => {
    const { source: reader } = await accepted();
    publish(state(3, 'ba9876543210'));
    await reader.refresh();
    expect(reader.status()).toMatchObject({ serial: 3, problem: undefined });
    publish(state(2, '0123456789ab'));
    await reader.refresh();
    expect(reader.status()).toMatchObject({ serial: 3, problem: expect.stringMatching(/older/) });
    expect((await reader.forBucket(0))?.builds).toBe('signup=ba9876543210');
  });

  test('a state object changed after it was signed', async () => {
    const { source: reader } = await accepted();
    const { stateFile } = publish(state(2, 'ba9876543210'));
    writeFileSync(stateFile, serializeState(state(2, 'cccccccccccc')));
    await reader.refresh();
    expect(reader.status().problem).toMatch(/SHA-256/);
    expect((await reader.forBucket(0))?.builds).toBe('signup=0123456789ab');
  });

  test('a store that is gone: the last accepted state serves, and says why', async () => {
    const { source: reader } = await accepted();
    rmSync(store, { recursive: true, force: true });
    await reader.refresh();
    expect(reader.status().problem).toMatch(/gone/);
    expect((await reader.forBucket(0))?.builds).toBe('signup=0123456789ab');
  });

  test('a second key during a rotation verifies as well as the first', async () => {
    publish(state(1, '0123456789ab'), OTHER);
    const { source: reader } = source([KEY, OTHER]);
    await reader.refresh();
    expect(reader.status()).toMatchObject({ serial: 1, problem: undefined });
  });
});
