// TEST SUPPORT ONLY: small fetch helpers for talking to a test server.

/** A fixed double-submit pair: the API only checks that cookie and header agree. */
export const XSRF_TOKEN = 'test-xsrf-token';
export const XSRF_HEADERS: Readonly<Record<string, string>> = {
  cookie: `XSRF-TOKEN=${XSRF_TOKEN}`,
  'x-xsrf-token': XSRF_TOKEN,
};

export interface PostOptions {
  /** The Idempotency-Key header; `null` to send none. A fresh UUID by default. */
  readonly key?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}

/** POSTs `body` (an object is sent as JSON, a string or Buffer as is) to `/v1/sign-ups` with a valid XSRF pair. */
export function postSignUp(
  baseUrl: string,
  body: unknown,
  { key = crypto.randomUUID(), headers = {} }: PostOptions = {},
): Promise<Response> {
  return fetch(`${baseUrl}/v1/sign-ups`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...XSRF_HEADERS,
      ...(key === null ? {} : { 'idempotency-key': key }),
      ...headers,
    },
    body: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
}

/** The `Set-Cookie` header for XSRF-TOKEN, if the response set one. */
export function xsrfSetCookie(response: Response): string | undefined {
  return response.headers.getSetCookie().find((cookie) => cookie.startsWith('XSRF-TOKEN='));
}

/**
 * Checks that concurrent requests with one idempotency key all got 201 with the same sign-up, and
 * that exactly one of them was not a replay. Each answer carries a read token of its own.
 */
export async function expectOneSignUpReplayed(responses: readonly Response[]): Promise<void> {
  expect(responses.map((response) => response.status)).toEqual(Array(responses.length).fill(201));
  expect(responses.filter((response) => response.headers.get('idempotent-replayed') === null)).toHaveLength(1);
  const signUps = await Promise.all(
    responses.map(async (response) => ({ ...((await response.json()) as object), readToken: undefined })),
  );
  for (const signUp of signUps) expect(signUp).toEqual(signUps[0]);
}

/** The visitor's address as the host's proxy forwards it (believed when the API trusts 127.0.0.1). */
const forwarded = (client?: string): Record<string, string> => (client ? { 'x-forwarded-for': client } : {});

/**
 * POSTs a telemetry batch as `navigator.sendBeacon` does (an object as JSON text, a string as is),
 * from `client` through the host's proxy when given.
 */
export function postTelemetry(baseUrl: string, body: unknown, client?: string): Promise<Response> {
  return fetch(`${baseUrl}/v1/telemetry`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain;charset=UTF-8', ...forwarded(client) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/**
 * Asks for a page token as the host's composer does: the page's bucket, its builds as `Sg-Builds`,
 * and the visitor's address (`client`) when given.
 */
export function askPageToken(
  baseUrl: string,
  bucket: number | string,
  builds: string,
  client?: string,
): Promise<Response> {
  return fetch(`${baseUrl}/v1/telemetry/page-token?bucket=${bucket}`, {
    headers: { 'sg-builds': builds, ...forwarded(client) },
  });
}
