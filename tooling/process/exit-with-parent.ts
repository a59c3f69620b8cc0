/**
 * With `--exit-with-parent` on the command line, calls `onGone` once the process that started this
 * one has died, however it died (`kill -9` cannot be forwarded to children). Polls the parent pid:
 * Node has no parent-death signal.
 */
export function exitWithParent(onGone: () => void): void {
  if (!process.argv.includes('--exit-with-parent')) return;
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) onGone();
  }, 500).unref();
}
