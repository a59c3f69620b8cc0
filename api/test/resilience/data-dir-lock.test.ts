import { createTestDatabase, type TestDatabase } from '../support/test-databases';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { productionBundle, spawnApi, startApi } from '../support/api-process';
import { lostAfterRestart, signUpLoad } from '../support/signing-clients';

// One PGlite data directory, one process: a second one waits a bounded time for the first to stop,
// then refuses to start, says why, and the first one's data stays whole. The lock is the kernel's,
// on the directory itself: a crashed holder leaves none behind, and no file can be deleted to admit
// a second writer.
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
    const started = Date.now();
    const second = spawnApi({ API_DATA_DIR: dataDir(), DATA_DIR_LOCK_WAIT_MS: '1000' });
    expect(await second.listening).toBeNull();
    expect((await second.exited).code).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(second.lines.map((line) => line.msg)).toContain(
      'data directory in use; waiting for the process holding it to stop',
    );
    const failure = second.lines.find((line) => line.msg === 'start-up failed');
    expect(String(failure?.error)).toContain(
      `The data directory ${dataDir()} is in use by another API process (still locked after waiting 1000 ms)`,
    );
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
  expect(await lostAfterRestart({ API_DATA_DIR: dataDir() }, acknowledged)).toEqual([]);
});

it('deleting the lock file admits no second writer: the second process refuses', async () => {
  const first = await startApi({ API_DATA_DIR: dataDir() });
  // What a person or a clean-up job removing a "stale" lock would do (api.lock was the lock once).
  rmSync(path.join(dataDir(), 'api.lock'), { force: true });
  const second = spawnApi({ API_DATA_DIR: dataDir(), DATA_DIR_LOCK_WAIT_MS: '500' });
  try {
    expect(await second.listening).toBeNull();
    expect((await second.exited).code).toBe(1);
    expect(String(second.lines.find((line) => line.msg === 'start-up failed')?.error)).toContain(
      'is in use by another API process',
    );
    expect((await fetch(`${first.baseUrl}/v1/ready`)).status).toBe(200);
  } finally {
    // Were it admitted, the second writer must not outlive the test.
    second.child.kill('SIGKILL');
    first.child.kill('SIGTERM');
    await Promise.all([first.exited, second.exited]);
  }
});

it('a restart right after the launcher is killed waits for the orphaned server to drain, then starts', async () => {
  // The launcher (as `npm start`) is a shell that runs the API and waits for it.
  const shell = spawn('sh', ['-c', `"${process.execPath}" "${productionBundle()}" --exit-with-parent; :`], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', API_DATA_DIR: dataDir(), PGLITE_FSYNC: 'off' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve) => {
    let buffered = '';
    shell.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      const match = /"msg":"listening".*"port":(\d+)/.exec(buffered);
      if (match) resolve(Number(match[1]));
    });
  });
  // A browser's idle keep-alive connection, which once held the old server up for its keep-alive timeout.
  // A plain socket, not an http.Agent's: on Node 24 a pooled socket the server closes or resets
  // emits 'close' only, so a clean close (FIN, 'end') could not be told from a reset.
  const idle = connect(port, '127.0.0.1');
  idle.write('GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  await new Promise<void>((resolve, reject) => {
    let response = '';
    idle.setEncoding('utf8').on('data', (chunk: string) => {
      response += chunk;
      const length = /content-length: *(\d+)/i.exec(response)?.[1];
      const body = response.indexOf('\r\n\r\n');
      if (length !== undefined && body >= 0 && Buffer.byteLength(response.slice(body + 4)) >= Number(length)) resolve();
    });
    idle.once('error', reject);
  });
  const idleEnded = new Promise<string>((resolve) => {
    idle.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    idle.once('end', () => resolve('closed cleanly'));
  });
  shell.kill('SIGKILL');
  const killedAt = Date.now();
  const restarted = await startApi({ API_DATA_DIR: dataDir() });
  console.log(
    `restart after the launcher's kill -9: listening after ${Date.now() - killedAt} ms (old process drained the idle connection, closed the database, released the lock)`,
  );
  try {
    expect(await idleEnded).toBe('closed cleanly');
    expect(restarted.lines.map((line) => line.msg)).toContain('listening');
  } finally {
    idle.destroy();
    restarted.child.kill('SIGTERM');
    await restarted.exited;
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
