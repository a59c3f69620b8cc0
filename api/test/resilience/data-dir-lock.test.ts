import { createTestDatabase, type TestDatabase } from '../support/test-databases';
import { spawn } from 'node:child_process';
import { productionBundle, spawnApi, startApi } from '../support/api-process';
import { signUpLoad, unreadable } from '../support/signing-clients';

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
  // The parent is a shell that runs the API and waits for it (`; :` keeps sh from exec'ing it).
  const shell = spawn('sh', ['-c', `"${process.execPath}" "${productionBundle()}" --exit-with-parent; :`], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', API_DATA_DIR: dataDir(), PGLITE_FSYNC: 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const messages: string[] = [];
  let listening!: () => void;
  const started = new Promise<void>((resolve) => (listening = resolve));
  // The API holds this pipe until it exits, whoever its parent is by then.
  const apiGone = new Promise<void>((resolve) => shell.stdout.once('end', resolve));
  shell.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      const entry = JSON.parse(line) as { msg: string; reason?: string };
      messages.push(entry.reason ? `${entry.msg}: ${entry.reason}` : entry.msg);
      if (entry.msg === 'listening') listening();
    }
  });
  await started;
  shell.kill('SIGKILL');
  await apiGone;
  expect(messages).toEqual(expect.arrayContaining(['shutting down: parent exited', 'stopped']));
  // And it released the directory.
  const next = await startApi({ API_DATA_DIR: dataDir() });
  next.child.kill('SIGTERM');
  expect((await next.exited).code).toBe(0);
});
