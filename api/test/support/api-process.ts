import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildBundle } from '../../src/build-bundle';

let bundle: string | undefined;

/**
 * The production bundle of the current source, built once per test process (esbuild: tens of
 * milliseconds) into a folder of its own under api/dist, and deleted when the process exits.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function productionBundle(): string {
  if (bundle === undefined) {
    const dist = path.resolve(__dirname, '..', '..', 'dist');
    // Jest may end its workers before their exit handlers run: sweep what dead test processes left.
    for (const entry of existsSync(dist) ? readdirSync(dist) : []) {
      const pid = /^test-(\d+)$/.exec(entry)?.[1];
      if (pid !== undefined && !isAlive(Number(pid))) rmSync(path.join(dist, entry), { recursive: true, force: true });
    }
    const dir = path.join(dist, `test-${process.pid}`);
    bundle = buildBundle(path.join(dir, 'main.js'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return bundle;
}

/** TEST SUPPORT ONLY: the API in its own process, as production runs it (`node dist/main.js`). */
export interface ApiProcess {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  /** Its stdout, one parsed JSON object per log line. */
  readonly lines: Array<Record<string, unknown>>;
  readonly stderr: () => string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartedOrExited {
  readonly lines: Array<Record<string, unknown>>;
  readonly stderr: () => string;
  readonly child: ChildProcess;
  readonly exited: ApiProcess['exited'];
  /** Resolves with the base URL once listening, or `null` if the process exited first. */
  readonly listening: Promise<string | null>;
}

export interface SpawnOptions {
  readonly args?: readonly string[];
  /** In a process group of its own (it is the leader: `process.kill(-pid)` signals the whole group). */
  readonly ownGroup?: boolean;
}

/** Starts the API with `env` on a free loopback port, with no rate limit unless `env` sets one. */
export function spawnApi(
  env: Record<string, string>,
  { args = [], ownGroup = false }: SpawnOptions = {},
): StartedOrExited {
  const child = spawn(process.execPath, [productionBundle(), ...args], {
    cwd: path.resolve(__dirname, '..', '..'),
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SIGN_UPS_PER_MINUTE: '0', PGLITE_FSYNC: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownGroup,
  });
  const lines: Array<Record<string, unknown>> = [];
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const listening = new Promise<string | null>((resolve) => {
    let buffered = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) !== -1) {
        const line = JSON.parse(buffered.slice(0, newline)) as Record<string, unknown>;
        buffered = buffered.slice(newline + 1);
        lines.push(line);
        if (line.msg === 'listening') resolve(`http://127.0.0.1:${String(line.port)}`);
      }
    });
    void exited.then(() => resolve(null));
  });
  return { child, lines, exited, listening, stderr: () => stderr };
}

/** As {@link spawnApi}, and fails unless it starts listening. */
export async function startApi(env: Record<string, string>, options: SpawnOptions = {}): Promise<ApiProcess> {
  const started = spawnApi(env, options);
  const baseUrl = await started.listening;
  if (baseUrl === null)
    throw new Error(`the API exited before listening: ${JSON.stringify(started.lines)} ${started.stderr()}`);
  return { child: started.child, baseUrl, lines: started.lines, stderr: started.stderr, exited: started.exited };
}

/** The error code of a failed fetch (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET, ...). */
export function fetchErrorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? cause.code : String(error);
}
