import type { Database } from '../db/database';
import { answerOnceIn } from '../db/idempotency-store';
import { findSignUpForReader, insertSignUp } from './store';

class RolledBack extends Error {}

// Values no request can produce: the card code is not digits, the key has a space.
const SAMPLE = {
  firstName: 'Warm',
  lastName: 'Up',
  email: 'warm-up@example.invalid',
  phone: undefined,
  cardCode: 'warm-up',
  acceptedTerms: true,
} as const;

/**
 * Runs a sign-up's statements once in a transaction that is rolled back, before the API listens.
 * PGlite compiles its WebAssembly lazily, function by function, on the event loop: a freshly
 * reopened database otherwise spends its first seconds of traffic compiling, accepting
 * connections late and answering slowly. Leaves nothing behind on either engine.
 */
export async function warmUp(db: Database): Promise<void> {
  await db.ping();
  try {
    await db.transaction(async (tx) => {
      await answerOnceIn(
        tx,
        'warm up',
        'warm-up',
        async (inner) => {
          const created = await insertSignUp(inner, SAMPLE, 'warm-up');
          if (created) await findSignUpForReader(inner, created.id, 'warm-up');
          return { status: 201, body: created };
        },
        { ttlHours: 1 },
      );
      throw new RolledBack();
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
}
