import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { makeTempDataDir } from '../test/support/test-server';

// The real entry point in its own process (tsx, as `npm start` runs it): it reads the environment,
// serves, logs JSON lines, and on SIGTERM shuts down cleanly with exit code 0.
jest.setTimeout(90_000);

interface Running {
  readonly child: ChildProcess;
  readonly lines: Array<Record<string, unknown>>;
  readonly exited: Promise<number | null>;
}

function start(env: Record<string, string>): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.resolve(__dirname, '..'),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: Array<Record<string, unknown>> = [];
  let buffered = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      lines.push(JSON.parse(buffered.slice(0, newline)) as Record<string, unknown>);
      buffered = buffered.slice(newline + 1);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, exited };
}

async function waitFor<T>(find: () => T | undefined, exited: Promise<unknown>): Promise<T> {
  let stopped = false;
  void exited.then(() => (stopped = true));
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (stopped) throw new Error('the process exited first');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('main', () => {
  const dataDir = makeTempDataDir();
  let running: Running | undefined;
  afterAll(() => {
    running?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves on the configured host and port, logs each request, and stops cleanly on SIGTERM', async () => {
    running = start({ PORT: '0', HOST: '127.0.0.1', API_DATA_DIR: dataDir, COOKIE_SECURE: 'true' });
    const { lines, child, exited } = running;
    const listening = await waitFor(() => lines.find((line) => line.msg === 'listening'), exited);
    expect(listening).toMatchObject({ address: '127.0.0.1', dataDir });

    const response = await fetch(`http://127.0.0.1:${String(listening.port)}/v1/health`);
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie()[0]).toMatch(/; Secure/);
    const logged = await waitFor(() => lines.find((line) => line.msg === 'request'), exited);
    expect(logged).toEqual({
      time: expect.any(String),
      msg: 'request',
      method: 'GET',
      path: '/v1/health',
      status: 200,
      ms: expect.any(Number),
    });

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
  });
});
