import { makeTestCardCode } from '../../../shared/src/validation/test-card-codes';
import { fetchErrorCode } from '../test-support/api-process';
import { postSignUp } from '../test-support/http-client';

/** TEST SUPPORT ONLY. A sign-up the API acknowledged with 201: what its creator can read back. */
export interface Acknowledged {
  readonly id: string;
  readonly readToken: string;
}

export interface LoadResult {
  readonly acknowledged: Acknowledged[];
  /** How often each failure happened: HTTP statuses other than 201 as `http <status>`, else the socket error code. */
  readonly failures: Record<string, number>;
}

let nextCard = Math.floor(Math.random() * 1e9) * 1000;

/**
 * `clients` loops, each posting new sign-ups one after another (keep-alive connections) to
 * `baseUrl()` until `stop()` says so or, with `stopOnError`, until its first failed request.
 */
export async function signUpLoad(baseUrl: () => string, clients: number, { stop, stopOnError = false }: { stop: () => boolean; stopOnError?: boolean }): Promise<LoadResult> {
  const acknowledged: Acknowledged[] = [];
  const failures: Record<string, number> = {};
  const count = (what: string) => (failures[what] = (failures[what] ?? 0) + 1);
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!stop()) {
        const cardCode = makeTestCardCode(5_000_000_000_000 + nextCard++);
        try {
          const response = await postSignUp(baseUrl(), { firstName: 'Load', lastName: 'Test', email: 'load@example.com', cardCode, acceptedTerms: true });
          const body = (await response.json()) as Partial<Acknowledged>;
          if (response.status === 201 && body.id && body.readToken) acknowledged.push({ id: body.id, readToken: body.readToken });
          else count(`http ${response.status}`);
        } catch (error) {
          count(fetchErrorCode(error));
          if (stopOnError) return;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    }),
  );
  return { acknowledged, failures };
}

/** The acknowledged sign-ups that the API at `baseUrl` cannot show its creator: lost. */
export async function unreadable(baseUrl: string, acknowledged: readonly Acknowledged[]): Promise<Acknowledged[]> {
  const lost: Acknowledged[] = [];
  for (let start = 0; start < acknowledged.length; start += 16) {
    const batch = acknowledged.slice(start, start + 16);
    const statuses = await Promise.all(
      batch.map(async ({ id, readToken }) => (await fetch(`${baseUrl}/v1/sign-ups/${id}`, { headers: { authorization: `Bearer ${readToken}` } })).status),
    );
    batch.forEach((signUp, index) => statuses[index] !== 200 && lost.push(signUp));
  }
  return lost;
}
