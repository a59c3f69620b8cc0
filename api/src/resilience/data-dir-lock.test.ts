import { createTestDatabase, type TestDatabase } from '../test-support/test-databases';
import { spawnApi, startApi } from '../test-support/api-process';
import { signUpLoad, unreadable } from './signing-clients';

// One PGlite data directory, one process: a second one refuses to start, says why, and the first
// one's data stays whole. The lock is the kernel's, so a crashed holder leaves none behind.
jest.setTimeout(120_000);

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('pglite');
});
afterAll(async () => {
  await database.drop();
});

const dataDir = () => (database.config.engine === 'pglite' ? database.config.dataDir : '');

it('a second process on a data directory in use exits non-zero with a clear message, and the data stays intact', async () => {
  const first = await startApi({ API_DATA_DIR: dataDir() });
  let stop = false;
  const load = signUpLoad(() => first.baseUrl, 4, { stop: () => stop });
  try {
    const second = spawnApi({ API_DATA_DIR: dataDir() });
    expect(await second.listening).toBeNull();
    expect((await second.exited).code).toBe(1);
    const failure = second.lines.find((line) => line.msg === 'start-up failed');
    expect(String(failure?.error)).toContain(`The data directory ${dataDir()} is in use by another API process`);
  } finally {
    stop = true;
  }
  const { acknowledged, failures } = await load;
  expect(failures).toEqual({});
  expect(acknowledged.length).toBeGreaterThan(0);
  // The first process served throughout and still does; after a restart, everything is there.
  expect((await fetch(`${first.baseUrl}/v1/ready`)).status).toBe(200);
  first.child.kill('SIGTERM');
  expect((await first.exited).code).toBe(0);
  const reopened = await startApi({ API_DATA_DIR: dataDir() });
  try {
    expect(await unreadable(reopened.baseUrl, acknowledged)).toEqual([]);
  } finally {
    reopened.child.kill('SIGTERM');
    await reopened.exited;
  }
});

it('a holder killed with kill -9 leaves no lock behind: the next process starts at once', async () => {
  const crashed = await startApi({ API_DATA_DIR: dataDir() });
  crashed.child.kill('SIGKILL');
  await crashed.exited;
  const next = await startApi({ API_DATA_DIR: dataDir() });
  next.child.kill('SIGTERM');
  expect((await next.exited).code).toBe(0);
});

it('a process started with --exit-with-parent stops when its parent is killed with kill -9', async () => {
  // The parent is a shell that starts the API and waits; killing the shell orphans the API.
  const { spawn } = await import('node:child_process');
  const path = await import('node:path');
  const shell = spawn('sh', ['-c', `exec 1>/dev/null; "${process.execPath}" --import tsx src/main.ts --exit-with-parent & echo $! >&2; wait`], {
    cwd: path.resolve(__dirname, '..', '..'),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', API_DATA_DIR: dataDir(), PGLITE_FSYNC: 'off' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const apiPid = Number(await new Promise<string>((resolve) => shell.stderr.setEncoding('utf8').once('data', resolve)));
  const alive = () => {
    try {
      process.kill(apiPid, 0);
      return true;
    } catch {
      return false;
    }
  };
  // Started: its lock is taken (a second process is refused).
  for (let waited = 0; waited < 30_000; waited += 200) {
    const probe = spawnApi({ API_DATA_DIR: dataDir() });
    const url = await probe.listening;
    if (url === null) break;
    probe.child.kill('SIGTERM');
    await probe.exited;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(alive()).toBe(true);
  shell.kill('SIGKILL');
  const deadline = Date.now() + 15_000;
  while (alive() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(alive()).toBe(false);
  // And it released the directory.
  const next = await startApi({ API_DATA_DIR: dataDir() });
  next.child.kill('SIGTERM');
  expect((await next.exited).code).toBe(0);
});
