import { apiEnvFor, createTestDatabase, testEngines } from '../support/test-databases';
import { startApi } from '../support/api-process';
import { lostAfterRestart, signUpLoad, type Acknowledged } from '../support/signing-clients';

// `kill -9` in the middle of concurrent sign-ups, a restart on the same data, and every sign-up
// the API acknowledged with 201 must be there. PGlite with durable commits (fsync on, the default).
jest.setTimeout(180_000);

const CRASHES = 2;
const CLIENTS = 16;
const LOAD_MS = 1_500;
// The kill waits for this many acknowledged sign-ups too, up to the cap: on a busy machine the first
// answers can come later than LOAD_MS, and a crash before any would prove nothing.
const ACKNOWLEDGED_BEFORE_KILL = CLIENTS;
const LOAD_CAP_MS = 60_000;

describe.each(testEngines())('crash recovery on %s', (engine) => {
  it(`loses no acknowledged sign-up over ${CRASHES} kill -9 crashes under ${CLIENTS} concurrent clients`, async () => {
    const database = await createTestDatabase(engine, { fsync: true });
    const acknowledged: Acknowledged[] = [];
    try {
      for (let crash = 1; crash <= CRASHES; crash += 1) {
        const api = await startApi(apiEnvFor(database.config));
        let stopped = false;
        let acknowledgedSoFar = 0;
        const load = signUpLoad(() => api.baseUrl, CLIENTS, {
          stop: () => stopped,
          stopOnError: true,
          onAcknowledged: (count) => (acknowledgedSoFar = count),
        });
        const started = Date.now();
        const loading = () => Date.now() - started < LOAD_MS || acknowledgedSoFar < ACKNOWLEDGED_BEFORE_KILL;
        while (loading() && Date.now() - started < LOAD_CAP_MS) await new Promise((resolve) => setTimeout(resolve, 50));
        api.child.kill('SIGKILL');
        await api.exited;
        stopped = true;
        const result = await load;
        expect(result.acknowledged.length).toBeGreaterThan(0);
        acknowledged.push(...result.acknowledged);
      }
      const lost = await lostAfterRestart(apiEnvFor(database.config), acknowledged);
      console.log(`${engine}: ${acknowledged.length} acknowledged over ${CRASHES} crashes, ${lost.length} lost`);
      expect(lost).toEqual([]);
    } finally {
      await database.drop();
    }
  });
});
