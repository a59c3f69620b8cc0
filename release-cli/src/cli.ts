#!/usr/bin/env node
// `sg-release <command> …`, the team's release tool (docs/releases.md), and
// `sg-release telemetry <command> …`, the telemetry report and canary verdict (docs/telemetry.md).
// In the monorepo: `npm run release -- …` and `npm run telemetry -- …`. The defaults (operator token,
// directory store, a remote's dist) are under the folder it runs in.
import { UsageError } from './arguments';
import { runReleaseTool } from './release-tool';
import { main as runTelemetryTool, TELEMETRY_USAGE } from './telemetry/telemetry-tool';

const fail = (error: unknown) => {
  process.stderr.write(
    `sg-release: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
};

const [first, ...rest] = process.argv.slice(2);
if (first === 'telemetry') {
  runTelemetryTool(rest).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // The message alone (the API's answer, a refusal); with the usage if the command line was at fault.
      const message = error instanceof Error ? error.message : String(error);
      process.stderr.write(
        `sg-release telemetry: ${message}\n${error instanceof UsageError ? `\n${TELEMETRY_USAGE}\n` : ''}`,
      );
      // 1, not 2, for a command line it cannot read: the verdict's 2 means hold.
      process.exitCode = 1;
    },
  );
} else {
  runReleaseTool(process.argv.slice(2), {
    workDir: process.cwd(),
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  }).then((code) => {
    process.exitCode = code;
  }, fail);
}
