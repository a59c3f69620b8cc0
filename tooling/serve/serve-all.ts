/**
 * `npm run serve`: the built apps on the README's ports (host 3000, remotes 3001-3003) and the
 * reference API on 3004, each in its own process so one can be restarted alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './local-topology';

const tsx = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const children: ChildProcess[] = [];

function run(name: string, args: string[], cwd = REPO_ROOT) {
  const child = spawn(tsx, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
  child.on('exit', (code, signal) => {
    if (!shuttingDown) {
      console.error(`${name} stopped (${signal ?? code}); stopping everything.`);
      shutdown(1);
    }
  });
  children.push(child);
}

let shuttingDown = false;
function shutdown(code: number) {
  shuttingDown = true;
  children.forEach((child) => child.kill('SIGTERM'));
  setTimeout(() => process.exit(code), 500);
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

run('api', ['src/main.ts'], join(REPO_ROOT, 'api'));
for (const app of ['intro', 'signup', 'thankyou', 'host']) run(app, [join(__dirname, 'serve-app.ts'), app]);
console.log('Special Gift: open http://localhost:3000 (Ctrl+C stops everything)');
