import { createTestDatabase, testEngines, type TestDatabase } from '../support/test-databases';
import { startApi, type ApiProcess } from '../support/api-process';
import { expectOneSignUpReplayed, postSignUp } from '../support/http-client';
import { makeTestCardCode } from '@special-gift/shared/testing/cards';
import pg from 'pg';

// Two API processes on one PostgreSQL database, as two replicas behind a proxy: the idempotency
// and unique-card rules hold across them, through the database alone.
jest.setTimeout(120_000);

const PARALLEL = 12;

(testEngines().includes('postgres') ? describe : describe.skip)('two API processes on one PostgreSQL', () => {
  let database: TestDatabase;
  let replicas: ApiProcess[] = [];
  const url = () => (database.config.engine === 'postgres' ? database.config.url : '');
  const target = (index: number) => replicas[index % replicas.length]?.baseUrl ?? '';

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // Started together: their migrations race, and the advisory lock makes one wait.
    replicas = await Promise.all([startApi({ DATABASE_URL: url() }), startApi({ DATABASE_URL: url() })]);
  });
  afterAll(async () => {
    for (const replica of replicas) replica.child.kill('SIGTERM');
    await Promise.all(replicas.map((replica) => replica.exited));
    await database.drop();
  });

  async function rowsForCard(cardCode: string): Promise<number> {
    const client = new pg.Client({ connectionString: url() });
    await client.connect();
    try {
      const result = await client.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM sign_ups WHERE card_code = $1',
        [cardCode],
      );
      return result.rows[0]?.count ?? -1;
    } finally {
      await client.end();
    }
  }

  const body = (cardCode: string) => ({
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    cardCode,
    acceptedTerms: true,
  });

  it('the same idempotency key sent to both at once: exactly one sign-up, the same sign-up in every answer', async () => {
    for (let round = 0; round < 5; round += 1) {
      const card = makeTestCardCode(6_000_000_000_000 + round);
      const key = crypto.randomUUID();
      const responses = await Promise.all(
        Array.from({ length: PARALLEL }, (_, index) => postSignUp(target(index), body(card), { key })),
      );
      await expectOneSignUpReplayed(responses);
      expect(await rowsForCard(card)).toBe(1);
    }
  });

  it('the same card on different keys sent to both at once: one 201, the rest 409', async () => {
    for (let round = 0; round < 5; round += 1) {
      const card = makeTestCardCode(6_100_000_000_000 + round);
      const responses = await Promise.all(
        Array.from({ length: PARALLEL }, (_, index) => postSignUp(target(index), body(card))),
      );
      expect(responses.map((response) => response.status).sort()).toEqual([201, ...Array(PARALLEL - 1).fill(409)]);
      expect(await rowsForCard(card)).toBe(1);
    }
  });
});
