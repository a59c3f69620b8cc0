import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseCommandLine, UsageError } from './arguments';

const OPTIONS = { json: { type: 'boolean' }, reason: { type: 'string' } } as const;

const usageMessage = (argv: string[]) => {
  try {
    parseCommandLine(argv, OPTIONS);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as UsageError).message;
  }
  throw new Error(`${argv.join(' ')} was accepted`);
};

describe('the command line rules of sg-release (release and telemetry alike)', () => {
  it('reads the command, the other words and the options, in any order, `--name value` or `--name=value`', () => {
    expect(parseCommandLine(['publish', '--reason', 'hotfix', 'signup', '--json'], OPTIONS)).toEqual({
      command: 'publish',
      positionals: ['signup'],
      values: { reason: 'hotfix', json: true },
    });
    expect(parseCommandLine(['lock', 'signup', '--reason=-1 day: freeze'], OPTIONS).values.reason).toBe(
      '-1 day: freeze',
    );
    expect(parseCommandLine([], OPTIONS)).toEqual({ command: '', positionals: [], values: {} });
  });

  it('refuses, with a message that names it, an unknown option, a missing value, a value that looks like an option and a flag given a value', () => {
    expect(usageMessage(['publish', '--force'])).toBe("Unknown option '--force'");
    expect(usageMessage(['lock', 'signup', '--reason'])).toBe("Option '--reason <value>' argument missing");
    expect(usageMessage(['lock', 'signup', '--reason', '--json'])).toMatch(/^Option '--reason' argument is ambiguous/);
    expect(usageMessage(['history', 'signup', '--json=yes'])).toMatch(/'--json' does not take an argument/);
  });
});

describe('sg-release on a command line it cannot read', () => {
  // The CLI as `npm run release` runs it; nothing of such a command line reaches the API (a closed port here).
  const run = (...argv: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'cli.ts'), ...argv], {
      cwd: join(__dirname, '..', '..'),
      encoding: 'utf8',
      env: { ...process.env, SG_RELEASE_TOKEN: 'unused', SG_RELEASE_API: 'http://127.0.0.1:9' },
    });

  it('exits 2 for a release command, with the message and the usage', () => {
    const result = run('publish', 'signup', '--dist');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^release: Option '--dist <value>' argument missing\n\nUsage: sg-release <command>/);
  });

  it('exits 1 for a telemetry command (2 is the verdict "hold"), with the message and the usage', () => {
    const result = run('telemetry', 'verdict', 'signup', '--window', '1w');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^sg-release telemetry: --window must be 1h or 1d\n\nUsage: sg-release telemetry/);
  });
});
