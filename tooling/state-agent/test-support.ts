import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  STATE_FORMAT,
  type ReleaseCurrent,
  type ReleaseState,
  type StateKey,
} from '@special-gift/shared/release-state';
import { folderReader, type StoreReader } from '../composition/release-state-source';
import { signedStateObjects } from '../composition/signed-state.fixture';
import { startStateAgent, type RunningStateAgent } from './agent';
import type { StateAgentSettings } from './settings';

/** For the agent's tests (here and the API's): states, their store objects and the agent's settings. */
export const ENVIRONMENT = 'production';
export const STATE_KEY: StateKey = { id: 'k1', secret: 'state-agent-test-key-0123456789abcdef' };
export const sri = (letter: string) => `sha384-${letter.repeat(64)}`;

/** signup released (and maybe in canary), intro released: two remotes, the canary below its share. */
export function releasedState(serial: number, canaryPercent = 0): ReleaseState {
  const canary = canaryPercent > 0 ? '0000000000c3' : null;
  const signup: Record<string, Record<string, string>> = {
    '0000000000a1': { 'remoteEntry.js': sri('A'), 'assets/i18n/en.json': sri('T') },
  };
  if (canary) signup[canary] = { 'remoteEntry.js': sri('C'), 'assets/i18n/en.json': sri('U') };
  return {
    format: STATE_FORMAT,
    environment: ENVIRONMENT,
    serial,
    createdAt: '2026-12-01T10:00:00.000Z',
    remotes: {
      signup: { live: '0000000000a1', canary, canaryPercent, revision: serial, integrity: signup },
      intro: {
        live: '0000000000b2',
        canary: null,
        canaryPercent: 0,
        revision: 1,
        integrity: { '0000000000b2': { 'remoteEntry.js': sri('B') } },
      },
    },
  };
}

/** Writes a state and its current.json into a folder store, as the API's publisher does. */
export function publishToFolder(
  root: string,
  state: ReleaseState,
  key: StateKey = STATE_KEY,
  tamper?: (current: ReleaseCurrent) => ReleaseCurrent,
): void {
  for (const [name, text] of signedStateObjects(state, key, tamper)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
}

/**
 * An HTTP store over a folder store (a bucket's anonymous reads, under `/bucket/prefix/`), and a
 * switch that makes it answer 503 as a failing store does.
 */
export async function startHttpStore(root: string): Promise<{
  readonly url: string;
  setDown(down: boolean): void;
  close(): Promise<void>;
}> {
  const read = folderReader(root);
  let down = false;
  const server: Server = createServer((req, res) => {
    const key = decodeURIComponent((req.url ?? '/').replace(/^\/bucket\/prefix\//, ''));
    if (down) return void res.writeHead(503).end('down');
    read(key).then(
      (body) =>
        body === undefined
          ? res.writeHead(404).end()
          : res.writeHead(200, { 'Content-Type': 'application/json' }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/bucket/prefix`,
    setDown: (value) => {
      down = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The agent's settings for a test: port 0, a fast refresh. */
export function testSettings(overrides: Partial<StateAgentSettings> = {}): StateAgentSettings {
  return {
    storeBase: 'http://127.0.0.1:1/unused',
    environment: ENVIRONMENT,
    stateKeys: [STATE_KEY],
    pageTokenKeys: [new TextEncoder().encode('p'.repeat(32))],
    pageTokensPerMinute: 60,
    port: 0,
    listenHost: '127.0.0.1',
    refreshMs: 100,
    ...overrides,
  };
}

/**
 * A fresh folder store for each test, and the agents a test starts, stopped after it: `folder()`
 * is the test's store, `start()` an agent (on that folder unless given another reader).
 */
export function agentPerTest() {
  let folder = '';
  const running: RunningStateAgent[] = [];
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'sg-state-agent-'));
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((agent) => agent.stop()));
    rmSync(folder, { recursive: true, force: true });
  });
  return {
    folder: () => folder,
    async start(overrides: Partial<StateAgentSettings> = {}, read: StoreReader = folderReader(folder)) {
      const agent = await startStateAgent(testSettings(overrides), read);
      running.push(agent);
      return agent;
    },
  };
}
