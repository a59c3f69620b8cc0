// `npm run release -- <command> …`: the team's release tool (docs/releases.md).
import path from 'node:path';
import { runReleaseTool } from './release-tool';

const repoRoot = path.resolve(__dirname, '..', '..');

runReleaseTool(process.argv.slice(2), {
  repoRoot,
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `release: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
