// The release tool (release-cli/src/) as the API's CLI tests run it: in-process, against a test
// server, with a stand-in for the live host whose contract the tool checks before a release.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { runReleaseTool } from '../../../release-cli/src/release-tool';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');

export interface ToolRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/** One command line, from the repository's root, with exactly this environment; its output as lines joined. */
export async function runToolWith(
  argv: readonly string[],
  env: Readonly<Record<string, string>>,
  now?: () => Date,
): Promise<ToolRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runReleaseTool(argv, {
    workDir: REPO_ROOT,
    env,
    now,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The live host, as far as the tool is concerned: its build-info.json, saying what `contract()` says at each request. */
export async function startLiveHost(
  contract: () => { readonly contractMajor: number; readonly contractVersion: string },
): Promise<{ readonly url: string; close(): Promise<void> }> {
  const host = createServer((req, res) => {
    if (req.url !== '/build-info.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(contract()));
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(host.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => host.close(() => resolve())),
  };
}
