import http from 'node:http';
import { makeTestCardCode } from '@special-gift/shared/testing/cards';
import { startApi } from './api-process';
import { XSRF_HEADERS } from './http-client';

/** TEST SUPPORT ONLY. A sign-up the API acknowledged with 201: what its creator can read back. */
export interface Acknowledged {
  readonly id: string;
  readonly readToken: string;
}

export interface LoadResult {
  readonly acknowledged: Acknowledged[];
  /**
   * How often each failure happened: HTTP statuses other than 201 as `http <status>`; `reset` for
   * a connection reset, `unanswered` for a request whose connection closed before any answer;
   * else the socket error code. A connection refused under `untilRefused` is not a failure.
   */
  readonly failures: Record<string, number>;
  /** Clients that ended on a refused connection (`untilRefused`). */
  readonly refused: number;
}

export interface LoadOptions {
  readonly stop: () => boolean;
  /** Told the number of sign-ups acknowledged so far, after each one. */
  readonly onAcknowledged?: (count: number) => void;
  /** A client stops at its first failed request. */
  readonly stopOnError?: boolean;
  /**
   * A client stops once an answer says `Connection: close`, as a proxy in front of replicas moves
   * on to another one: what a server that is shutting down asks for.
   */
  readonly leaveOnConnectionClose?: boolean;
  /**
   * As a browser or a load balancer: a client follows `Connection: close` by opening a new
   * connection, and stops when a new connection is refused (the instance is gone; a balancer
   * would try another one). Only resets and unanswered requests count as failures.
   */
  readonly untilRefused?: boolean;
}

/** What a failed request's error was: see {@link LoadResult.failures}. */
export function failureKind(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException;
  if (message === 'socket hang up') return 'unanswered';
  if (code === 'ECONNRESET') return 'reset';
  return code ?? String(error);
}

let nextCard = Math.floor(Math.random() * 1e9) * 1000;

interface Answer {
  readonly status: number;
  readonly connection: string | undefined;
  readonly body: string;
}

function post(agent: http.Agent, url: URL, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'idempotency-key': crypto.randomUUID(),
          ...XSRF_HEADERS,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body: text }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/**
 * `clients` loops, each on its own keep-alive connection (an agent with one socket), posting new
 * sign-ups one after another to `baseUrl()` until `stop()` says so, or as the options say.
 */
export async function signUpLoad(
  baseUrl: () => string,
  clients: number,
  { stop, onAcknowledged, stopOnError = false, leaveOnConnectionClose = false, untilRefused = false }: LoadOptions,
): Promise<LoadResult> {
  const acknowledged: Acknowledged[] = [];
  const failures: Record<string, number> = {};
  let refused = 0;
  const count = (what: string) => (failures[what] = (failures[what] ?? 0) + 1);
  await Promise.all(
    Array.from({ length: clients }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        while (!stop()) {
          const cardCode = makeTestCardCode(5_000_000_000_000 + nextCard++);
          try {
            const body = JSON.stringify({
              firstName: 'Load',
              lastName: 'Test',
              email: 'load@example.com',
              cardCode,
              acceptedTerms: true,
            });
            const answer = await post(agent, new URL('/v1/sign-ups', baseUrl()), body);
            const created = answer.status === 201 ? (JSON.parse(answer.body) as Partial<Acknowledged>) : {};
            if (created.id && created.readToken) {
              acknowledged.push({ id: created.id, readToken: created.readToken });
              onAcknowledged?.(acknowledged.length);
            } else count(`http ${answer.status}`);
            if (leaveOnConnectionClose && answer.connection?.toLowerCase() === 'close') return;
          } catch (error) {
            const kind = failureKind(error);
            if (untilRefused && kind === 'ECONNREFUSED') {
              refused += 1;
              return;
            }
            count(kind);
            if (stopOnError) return;
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
      } finally {
        agent.destroy();
      }
    }),
  );
  return { acknowledged, failures, refused };
}

export interface ReadinessPoll {
  /** Each answer's status, with when it arrived (ms since the epoch). */
  readonly answers: Array<{ readonly status: number; readonly at: number }>;
  /** Errors other than the refused connection that ends the poll. */
  readonly failures: Record<string, number>;
}

/**
 * A load balancer's health check: GET /v1/ready every `everyMs` on one keep-alive connection
 * (a new one after `Connection: close`), until a connection is refused or `stop()` says so.
 */
export async function pollReadiness(baseUrl: string, everyMs: number, stop: () => boolean): Promise<ReadinessPoll> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const answers: ReadinessPoll['answers'] = [];
  const failures: Record<string, number> = {};
  try {
    while (!stop()) {
      try {
        const status = await new Promise<number>((resolve, reject) => {
          http
            .get(`${baseUrl}/v1/ready`, { agent }, (response) =>
              response.resume().on('end', () => resolve(response.statusCode ?? 0)),
            )
            .on('error', reject);
        });
        answers.push({ status, at: Date.now() });
      } catch (error) {
        const kind = failureKind(error);
        if (kind === 'ECONNREFUSED') break;
        failures[kind] = (failures[kind] ?? 0) + 1;
      }
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  } finally {
    agent.destroy();
  }
  return { answers, failures };
}

/** Starts the API on `env` (the same data), and returns the acknowledged sign-ups it cannot show: lost. */
export async function lostAfterRestart(
  env: Record<string, string>,
  acknowledged: readonly Acknowledged[],
): Promise<Acknowledged[]> {
  const restarted = await startApi(env);
  try {
    return await unreadable(restarted.baseUrl, acknowledged);
  } finally {
    restarted.child.kill('SIGTERM');
    await restarted.exited;
  }
}

/** The acknowledged sign-ups that the API at `baseUrl` cannot show its creator: lost. */
export async function unreadable(baseUrl: string, acknowledged: readonly Acknowledged[]): Promise<Acknowledged[]> {
  const lost: Acknowledged[] = [];
  for (let start = 0; start < acknowledged.length; start += 16) {
    const batch = acknowledged.slice(start, start + 16);
    const statuses = await Promise.all(
      batch.map(
        async ({ id, readToken }) =>
          (await fetch(`${baseUrl}/v1/sign-ups/${id}`, { headers: { authorization: `Bearer ${readToken}` } })).status,
      ),
    );
    batch.forEach((signUp, index) => statuses[index] !== 200 && lost.push(signUp));
  }
  return lost;
}
