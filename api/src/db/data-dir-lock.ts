import { spawn } from 'node:child_process';
import path from 'node:path';

/** The file, inside the data directory, that the lock is taken on. */
export const LOCK_FILE_NAME = 'api.lock';

/** Another process holds the data directory. `message` says which directory and what to do. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

export interface DataDirLock {
  /** Resolves if the lock is lost while held (its holder process died): the owner must stop writing. */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

// flock(1) exits with this when the lock stays taken for the whole wait.
const IN_USE_EXIT_CODE = 75;
// A process killed a moment ago may still hold the lock for some milliseconds (see below).
const WAIT_SECONDS = '2';

/**
 * Takes an exclusive flock(2) on `<dataDir>/api.lock`, an operating-system lock that the kernel
 * releases whenever its holder exits, crash or `kill -9` included; no stale lock is ever left.
 * Node has no flock, so util-linux's flock(1) takes it and runs `cat` under it, which holds the
 * lock as long as its standard input is open. That input is a pipe from this process: when this
 * process ends, however it ends, the pipe closes, `cat` exits and the kernel drops the lock.
 * Works across containers that share the volume, since the lock lives on the file itself.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const lockFile = path.join(dataDir, LOCK_FILE_NAME);
  const holder = spawn('flock', ['--exclusive', '--timeout', WAIT_SECONDS, '--conflict-exit-code', String(IN_USE_EXIT_CODE), lockFile, 'sh', '-c', 'echo locked && exec cat'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => holder.once('exit', (code) => resolve(code)));
  let stderr = '';
  holder.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));

  const outcome = await new Promise<'locked' | Error>((resolve) => {
    holder.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (chunk.includes('locked')) resolve('locked');
    });
    holder.once('error', (error: NodeJS.ErrnoException) =>
      resolve(error.code === 'ENOENT' ? new Error('The embedded database needs flock(1) (util-linux) to lock its data directory; install util-linux, or use DATABASE_URL.') : error),
    );
    void exited.then((code) =>
      resolve(
        code === IN_USE_EXIT_CODE
          ? new DataDirInUseError(
              `The data directory ${dataDir} is in use by another API process (${lockFile} is locked). ` +
                'Stop that process first, or give this one another API_DATA_DIR. Two processes on one directory would corrupt it.',
            )
          : new Error(`Could not lock ${lockFile}: flock exited with ${String(code)}: ${stderr.trim()}`),
      ),
    );
  });
  if (outcome instanceof Error) {
    holder.kill('SIGKILL');
    throw outcome;
  }

  let releasing = false;
  return {
    // A release on purpose is not a loss: that promise then never settles.
    lost: exited.then(() => (releasing ? new Promise<void>(() => undefined) : undefined)),
    async release() {
      releasing = true;
      holder.stdin.end(); // EOF: cat exits, flock exits, the kernel drops the lock
      await exited;
    },
  };
}
