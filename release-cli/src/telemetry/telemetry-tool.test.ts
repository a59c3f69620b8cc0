import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canaryStart, type CanaryDecisionAnswer, type TelemetryReport } from '@special-gift/shared/telemetry';
import type { HistoryEntry } from '../api-client';
import { UsageError } from '../arguments';
import { formatDecision, formatReport, main, readToken } from './telemetry-tool';

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
    expect(await refused('report', '--until', '1h')).toBe("Unknown option '--until'");
    expect(await refused('report', '--since', '2026-01-01T00:00:00Z')).toBe('--since is for verdict only');
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

describe('the verdict', () => {
  const entry = (action: HistoryEntry['action'], buildId: string, at: string): HistoryEntry => ({
    revision: 0,
    action,
    buildId,
    previousLive: null,
    canaryPercent: 0,
    contractMajor: 1,
    actor: 'ci',
    reason: '',
    at,
  });

  it("counts from the canary's first step: the unbroken run of its canary moves at the top of the history", () => {
    const history = [
      entry('canary', 'bbbbbbbbbbb2', '2026-01-01T03:00:00.000Z'),
      entry('canary', 'bbbbbbbbbbb2', '2026-01-01T02:00:00.000Z'),
      entry('release', 'aaaaaaaaaaa1', '2026-01-01T01:00:00.000Z'),
      entry('canary', 'bbbbbbbbbbb2', '2025-12-31T00:00:00.000Z'),
    ];
    expect(canaryStart(history, 'bbbbbbbbbbb2')).toBe('2026-01-01T02:00:00.000Z');
    expect(canaryStart(history, 'ccccccccccc3')).toBeNull();
    expect(canaryStart([], 'bbbbbbbbbbb2')).toBeNull();
  });

  it('prints the statistic, the always-valid p-values, the decision and what would change it', () => {
    const answer: CanaryDecisionAnswer = {
      remote: 'signup',
      since: '2026-01-01T00:00:00.000Z',
      until: '2026-01-01T01:30:00.000Z',
      elapsedMinutes: 90,
      decision: 'hold',
      reasons: ['Error rate 1.50% against 1.00% (…): not yet decided.'],
      whatWouldChange: [
        'Error rate: … at about 4200 signed page views per arm.',
        'In 630 minutes the maximum dwell is reached: …',
      ],
      arms: {
        canary: { build: 'bbbbbbbbbbb2', sessions: 800, failedSessions: 12, p75: { LCP: 2100, INP: 180, CLS: 0.05 } },
        baseline: { build: 'aaaaaaaaaaa1', sessions: 800, failedSessions: 8, p75: { LCP: 2000, INP: 170, CLS: 0.05 } },
      },
      metrics: [
        {
          metric: 'errors',
          judged: true,
          canary: { events: 12, trials: 800 },
          baseline: { events: 8, trials: 800 },
          liveP75: null,
          margin: 0.01,
          harm: { logLikelihoodRatio: -0.41, pValue: 1 },
          safety: { logLikelihoodRatio: 1.2, pValue: 0.3 },
          state: 'open',
        },
        {
          metric: 'CLS',
          judged: false,
          canary: { events: 3, trials: 40 },
          baseline: { events: 10, trials: 40 },
          liveP75: 0.05,
          margin: 0.1,
          harm: null,
          safety: null,
          state: 'not judged',
        },
      ],
      rule: {
        alpha: 0.05,
        minViews: 200,
        maxDwellMinutes: 720,
        lowTraffic: 'advance',
        errorMargin: 0.01,
        errorTau: 0.02,
        vitalMargin: 0.1,
        vitalTau: 0.1,
      },
    };
    expect(formatDecision(answer).split('\n')).toEqual([
      'metric          canary          live            live p75  log Λ  harm p  no-harm p  margin   state',
      'errors          12/800 (1.50%)  8/800 (1.00%)   -         -0.41  1.0     0.30       1.0 pt   open',
      'CLS > live p75  3/40 (7.50%)    10/40 (25.00%)  0.050     -      -       -          10.0 pt  not judged',
      'Sequential rule (always-valid p-values, alpha 0.05), signed page views since 2026-01-01T00:00:00.000Z (90 min; maximum dwell 720 min, then advance).',
      '',
      'HOLD (signup)',
      '- Error rate 1.50% against 1.00% (…): not yet decided.',
      'What would change it:',
      '- Error rate: … at about 4200 signed page views per arm.',
      '- In 630 minutes the maximum dwell is reached: …',
    ]);
  });
});
