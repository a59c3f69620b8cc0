import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { StaticServerOptions } from './static-server';

// http-proxy-middleware is ESM only, which Jest cannot load: the server runs in a process of its own.
const SERVE = `import(${JSON.stringify(join(__dirname, 'static-server.ts'))})
  .then((module) => (module.startStaticServer ?? module.default.startStaticServer)({ port: 0, ...JSON.parse(process.argv[1]) }))
  .then((server) => console.log(server.address().port));`;

export interface ServerUnderTest {
  /** The server's own process (Node itself, so a signal reaches it). */
  readonly child: ChildProcess;
  readonly port: number;
}

/** `startStaticServer` (the local servers of `npm run up`) in a child process, on a free port. */
export async function startServer(options: Omit<StaticServerOptions, 'port'>): Promise<ServerUnderTest> {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', SERVE, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').once('data', (line: string) => resolve(Number(line.trim())));
    child.once('exit', (code) => reject(new Error(`the server exited with ${String(code)}`)));
  });
  return { child, port };
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
