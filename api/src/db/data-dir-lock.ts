import { spawn } from 'node:child_process';

/** Another process holds the data directory. `message` says which directory and what to do. */
export class DataDirInUseError extends Error {
  override readonly name = 'DataDirInUseError';
}

export interface DataDirLock {
  /** Resolves if the lock is lost while held (its holder process died): the owner must stop writing. */
  readonly lost: Promise<void>;
  release(): Promise<void>;
}

export interface LockOptions {
  /** How long to wait for a process still holding the directory (one that is shutting down) to let go. */
  readonly waitMs: number;
  /** Called once if the directory is not free at once, before waiting. */
  readonly onWaiting?: () => void;
}

/**
 * How long a new process waits, by default, for a predecessor that is shutting down: more than the
 * default drain (SHUTDOWN_DELAY_MS 0 + SHUTDOWN_GRACE_MS 10 s) plus the database's close (5 s).
 */
export const DEFAULT_LOCK_WAIT_MS = 20_000;

// flock(1) exits with this when the lock stays taken for the whole wait.
const IN_USE_EXIT_CODE = 75;
// Past this without the lock, the directory is taken: say so while waiting.
const SAY_WAITING_AFTER_MS = 250;

/**
 * Takes an exclusive flock(2) on the data directory itself, an operating-system lock that the
 * kernel releases whenever its holder exits, crash or `kill -9` included; no stale lock is ever
 * left. The directory, not a file in it: a lock file can be deleted (by hand, by a clean-up job)
 * and the next process would lock a new file beside the running one; the directory PGlite writes
 * into cannot be swapped while in use.
 *
 * Node has no flock, so util-linux's flock(1) takes it and runs `cat` under it, which holds the
 * lock as long as its standard input is open. That input is a pipe from this process: when this
 * process ends, however it ends, the pipe closes, `cat` exits and the kernel drops the lock. The
 * holder runs in a session of its own, so a signal to this process's group (Ctrl-C in a terminal,
 * `kill -- -<pgid>`, systemd) does not end it before this process has closed the database.
 * Works across containers that share the volume, since the lock lives on the directory's inode.
 */
export async function lockDataDir(dataDir: string, { waitMs, onWaiting }: LockOptions): Promise<DataDirLock> {
  const holder = spawn(
    'flock',
    [
      '--exclusive',
      '--timeout',
      String(waitMs / 1000),
      '--conflict-exit-code',
      String(IN_USE_EXIT_CODE),
      dataDir,
      'sh',
      '-c',
      'echo locked && exec cat',
    ],
    { stdio: ['pipe', 'pipe', 'pipe'], detached: true },
  );
  const exited = new Promise<number | null>((resolve) => holder.once('exit', (code) => resolve(code)));
  let stderr = '';
  holder.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const waiting = setTimeout(() => onWaiting?.(), SAY_WAITING_AFTER_MS);

  const outcome = await new Promise<'locked' | Error>((resolve) => {
    holder.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      if (chunk.includes('locked')) resolve('locked');
    });
    holder.once('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'ENOENT'
          ? new Error(
              'The embedded database needs flock(1) (util-linux) to lock its data directory; install util-linux, or use DATABASE_URL.',
            )
          : error,
      ),
    );
    void exited.then((code) =>
      resolve(
        code === IN_USE_EXIT_CODE
          ? new DataDirInUseError(
              `The data directory ${dataDir} is in use by another API process (still locked after waiting ${waitMs} ms). ` +
                'Stop that process first, or give this one another API_DATA_DIR. Two processes on one directory would corrupt it.',
            )
          : new Error(`Could not lock ${dataDir}: flock exited with ${String(code)}: ${stderr.trim()}`),
      ),
    );
  });
  clearTimeout(waiting);
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
