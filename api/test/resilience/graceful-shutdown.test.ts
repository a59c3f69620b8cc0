import { apiEnvFor, createTestDatabase, testEngines } from '../support/test-databases';
import { startApi } from '../support/api-process';
import { lostAfterRestart, pollReadiness, signUpLoad, type Acknowledged } from '../support/signing-clients';

// SIGTERM and SIGINT, sent to the API alone or to its whole process group (Ctrl-C in a terminal,
// `kill -- -<pgid>`, systemd's default), while 12 keep-alive clients sign up and a load balancer
// polls readiness. The clients behave as browsers and balancers do: `Connection: close` makes
// them reconnect, and a refused connection makes them go elsewhere (stop). The stop must lose
// nothing: readiness fails at once, no connection is reset, every request sent is answered, every
// 201 is stored, the process exits 0 (the data-directory lock, held by a child process on PGlite,
// outlives a signal to the group and is released last).
jest.setTimeout(180_000);

const CLIENTS = 12;
const LOAD_BEFORE_SIGNAL_MS = 700;
// Shorter than compose's 2000 to keep the test quick; the same code path.
const SHUTDOWN_DELAY_MS = 1_000;
const POLL_EVERY_MS = 50;

const cases = (['SIGTERM', 'SIGINT'] as const).flatMap((signal) =>
  (['process', 'group'] as const).map((target) => ({ signal, target })),
);

describe.each(testEngines())('stopping under keep-alive load on %s', (engine) => {
  it(`${cases.map(({ signal, target }) => `${signal} to the ${target}`).join(', ')}: 0 resets, 0 unanswered, 0 lost, exit 0`, async () => {
    const database = await createTestDatabase(engine);
    const env = apiEnvFor(database.config);
    const acknowledged: Acknowledged[] = [];
    const figures: string[] = [];
    try {
      for (const { signal, target } of cases) {
        const api = await startApi(
          { ...env, SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS), SHUTDOWN_GRACE_MS: '10000' },
          { ownGroup: true },
        );
        const load = signUpLoad(() => api.baseUrl, CLIENTS, { stop: () => false, untilRefused: true });
        let exited = false;
        const readiness = pollReadiness(api.baseUrl, POLL_EVERY_MS, () => exited);
        await new Promise((resolve) => setTimeout(resolve, LOAD_BEFORE_SIGNAL_MS));
        const pid = api.child.pid ?? 0;
        const signalledAt = Date.now();
        process.kill(target === 'group' ? -pid : pid, signal);
        const { code } = await api.exited;
        exited = true;
        const tookMs = Date.now() - signalledAt;
        const result = await load;
        const poll = await readiness;

        const firstNotReady = poll.answers.find((answer) => answer.status === 503);
        figures.push(
          `${signal} to the ${target}: ${result.acknowledged.length} acknowledged, failures ${JSON.stringify(result.failures)}, ` +
            `${result.refused} clients refused after the drain, readiness 503 after ${firstNotReady ? firstNotReady.at - signalledAt : '-'} ms, exit ${String(code)} in ${tookMs} ms`,
        );
        expect({ signal, target, failures: result.failures, pollFailures: poll.failures, code }).toEqual({
          signal,
          target,
          failures: {},
          pollFailures: {},
          code: 0,
        });
        expect(result.acknowledged.length).toBeGreaterThan(0);
        // Readiness failed for every check that began once the signal was handled, and the balancer saw it.
        const handledAt = Date.parse(String(api.lines.find((line) => line.msg === 'shutting down')?.time));
        const began = (line: Record<string, unknown>) => Date.parse(String(line.time)) - Number(line.ms);
        const checksAfter = api.lines.filter((line) => line.path === '/v1/ready' && began(line) > handledAt);
        expect(new Set(checksAfter.map((line) => line.status))).toEqual(new Set([503]));
        expect(firstNotReady).toBeDefined();
        expect(api.lines.map((line) => line.msg)).toContain('stopped');
        // The readiness 503s of a stop are expected answers, not errors.
        expect(api.lines.filter((line) => line.level === 'error')).toEqual([]);
        acknowledged.push(...result.acknowledged);
      }
      console.log(`${engine}:\n${figures.join('\n')}`);

      const lost = await lostAfterRestart(env, acknowledged);
      console.log(`${engine}: ${acknowledged.length} acknowledged over ${cases.length} stops, ${lost.length} lost`);
      expect(lost).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
