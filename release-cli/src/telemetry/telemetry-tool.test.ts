import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TelemetryReport } from '@special-gift/shared/telemetry';
import { UsageError } from '../arguments';
import { formatReport, main, readToken } from './telemetry-tool';

describe('the telemetry CLI', () => {
  it('refuses a command line it cannot read before it reaches the API', async () => {
    const refused = async (...argv: string[]) => {
      const error: unknown = await main(argv).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(UsageError);
      return (error as Error).message;
    };
    expect(await refused()).toBe('name a command');
    expect(await refused('trend')).toBe('unknown command "trend"');
    expect(await refused('report', '--window')).toBe("Option '--window <value>' argument missing");
    expect(await refused('report', '--since', '1h')).toBe("Unknown option '--since'");
    expect(await refused('report', 'signup')).toBe('unexpected argument "signup"');
    expect(await refused('verdict')).toBe('verdict needs a remote');
    expect(await refused('verdict', 'signup', '--act', 'maybe')).toBe('--act takes only yes');
  });

  it("reads the team's SG_RELEASE_TOKEN, else OPERATOR_TOKEN, else this checkout's .data/operator-token", () => {
    const root = mkdtempSync(join(tmpdir(), 'telemetry-cli-'));
    try {
      expect(readToken({ SG_RELEASE_TOKEN: 'team', OPERATOR_TOKEN: 'from-env' }, root)).toBe('team');
      expect(readToken({ OPERATOR_TOKEN: 'from-env' }, root)).toBe('from-env');
      mkdirSync(join(root, '.data'));
      writeFileSync(join(root, '.data', 'operator-token'), 'from-file\n');
      expect(readToken({}, root)).toBe('from-file');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('prints one table per remote, each build with its signed, unsigned and refused page views and the engines its vitals came from', () => {
    const report: TelemetryReport = {
      window: '1h',
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-01T01:00:00.000Z',
      bucketSeconds: 300,
      buckets: [],
      remotes: [
        {
          remote: 'signup',
          builds: [
            {
              build: 'c0ffee000001',
              sessions: 700,
              failedSessions: 7,
              errorRate: 0.01,
              p75: { LCP: 2100, INP: 180, CLS: 0.05 },
              samples: { LCP: 690, INP: 500, CLS: 690 },
              engines: [
                { engine: 'blink', sessions: 500, failedSessions: 5, p75: { LCP: 2000, INP: 180, CLS: 0.05 } },
                { engine: 'webkit', sessions: 200, failedSessions: 2, p75: { LCP: 2300, INP: null, CLS: null } },
              ],
              provenance: { signed: 650, unsigned: 38, expired: 2, replayed: 10, forged: 0, mismatched: 0 },
              signed: { sessions: 650, failedSessions: 6, errorRate: 6 / 650, p75: { LCP: 2100, INP: 180, CLS: 0.05 } },
              series: { sessions: [], errorRate: [], LCP: [], INP: [], CLS: [] },
            },
          ],
        },
      ],
    };
    expect(formatReport(report).split('\n').slice(2)).toEqual([
      'Remote signup',
      'build         sessions  failed  error rate  p75 LCP ms  p75 INP ms  p75 CLS  signed  unsigned  refused',
      'c0ffee000001  700       7       1.00%       2100        180         0.050    650     38        12 (expired 2, replayed 10)',
      '  blink       500       5       1.00%       2000        180         0.050',
      '  webkit      200       2       1.00%       2300        -           -',
    ]);
  });
});
